// libFuzzer target: the CSV reader and the whole source-reading path behind it (delimiter and encoding sniffing,
// header mapping, every normalizer, duplicate rows, the issues' sentences), on arbitrary bytes. Built by
// `make fuzz`, never by `swift build`.
@testable import StocktakeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let reader = SourceReader(mapping: .builtIn, tagDigits: 6, cnsDigits: 6)
    for (index, role) in [SourceRole.central, .sighting].enumerated() {
        let name = index == 0 ? "fuzz.csv" : "fuzz.tsv"
        let file = SourceFile(path: "/fuzz/" + name, role: role)
        var csv = CSVReader(bytes: bytes, name: name)
        do {
            let source = try reader.read(file, from: &csv)
            FuzzCheck.rendered(source)
        } catch {
            FuzzCheck.sentence(error.description)
        }
    }
    return 0
}
