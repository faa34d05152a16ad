import Testing

@testable import StocktakeSync

struct SheetMediaTypeTests {
    static let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]

    @Test(arguments: [
        ("central.xlsx", true, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("central.XLSM", true, "application/vnd.ms-excel.sheet.macroEnabled.12"),
        ("central.csv", true, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("central.csv", false, "text/csv; charset=utf-8"),
        ("central.TSV", false, "text/tab-separated-values; charset=utf-8"),
        ("central.xlsx", false, "text/csv; charset=utf-8"),
    ])
    func aWorkbookIsToldByItsBytesAndTextByItsName(name: String, isWorkbook: Bool, header: String) {
        let bytes = isWorkbook ? Self.zip : Array("VT Tag\n4512\n".utf8)
        #expect(SheetMediaType.header(of: bytes, fileName: name) == header)
        #expect(
            SheetMediaType.of(bytes, fileName: name) == header.replacingOccurrences(of: "; charset=utf-8", with: ""))
    }
}
