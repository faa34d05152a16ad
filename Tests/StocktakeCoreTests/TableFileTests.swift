import Testing

@testable import StocktakeCore

@Suite struct TableFileTests {
    /// Row `index` of a test table: its number and a cell that needs quotes every third row.
    private static func row<Output: ByteSink & ~Copyable>(_ index: Int, _ output: inout Output) {
        CSVWriter.appendRow([String(index), index % 3 == 0 ? "a, \"b\"" : "plain"], to: &output)
    }

    @Test(arguments: [0, 1, 100, TableFile.rowsPerPart * 2 + 7, TableFile.rowsPerPart * 5])
    func aFileWrittenFromBothCoresHoldsEveryRowInOrder(rowCount: Int) throws {
        let folder = TemporaryFolder()
        let path = folder.path("table.csv")
        try TableFile.write(header: ["n", "text"], rowCount: rowCount, row: Self.row, to: path)
        var expected: [UInt8] = Array("n,text\r\n".utf8)
        for index in 0..<rowCount { Self.row(index, &expected) }
        #expect(folder.read("table.csv") == String(decoding: expected, as: UTF8.self))
        #expect(TableFile.bytes(header: ["n", "text"], rowCount: rowCount, row: Self.row) == expected)
    }

    @Test func aTableOfTextCellsIsWrittenAsCSVWriterWritesIt() throws {
        let folder = TemporaryFolder()
        let path = folder.path("table.csv")
        let rows = [["=1+2", "x"], [""], ["a\nb", "-5"]]
        try TableFile.write(header: ["a", "b"], rowCount: rows.count, row: { rows[$0] }, to: path)
        var writer = CSVWriter(header: ["a", "b"])
        for row in rows { writer.append(row) }
        #expect(folder.read("table.csv") == String(decoding: writer.bytes, as: UTF8.self))
        #expect(TableFile.bytes(header: ["a", "b"], rowCount: rows.count, row: { rows[$0] }) == writer.bytes)
    }
}
