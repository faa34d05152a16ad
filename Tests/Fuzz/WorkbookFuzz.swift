// libFuzzer target: the .xlsx reader (ZIP directory, inflation, the workbook's and sheets' XML, shared strings,
// styles) and the source-reading path behind it, on arbitrary bytes. Built by `make fuzz`, never by `swift build`.
@testable import StocktakeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkbook(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let file = SourceFile(path: "/fuzz/fuzz.xlsx", role: .register)
    let reader = SourceReader(mapping: .builtIn)
    do {
        let source = try WorkbookSource(file: file, bytes: bytes, name: "fuzz.xlsx").read(with: reader)
        FuzzCheck.rendered(source)
    } catch {
        FuzzCheck.sentence(error.description)
    }
    do {
        let sheets = try WorkbookSource.visibleSheets(of: bytes, name: "fuzz.xlsx")
        for sheet in sheets {
            let named = SourceFile(path: "/fuzz/fuzz.xlsx", role: .register, sheet: sheet)
            _ = try? WorkbookSource(file: named, bytes: bytes, name: "fuzz.xlsx").read(with: reader)
        }
    } catch {
        FuzzCheck.sentence(error.description)
    }
    return 0
}
