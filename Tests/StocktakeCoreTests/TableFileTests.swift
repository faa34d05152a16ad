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

    /// The size expected of a row only sizes the blocks rows are formatted in: with rows far longer than it (the
    /// blocks grow) or far shorter, the file holds the same bytes.
    @Test(arguments: [1, 64, 4_096])
    func theExpectedRowSizeChangesNoByte(bytesPerRow: Int) throws {
        let folder = TemporaryFolder()
        let path = folder.path("table.csv")
        let rowCount = TableFile.rowsPerPart * 2 + 7
        let table = TableFile(
            header: ["n", "text"], rowCount: rowCount, bytesPerRow: bytesPerRow,
            rows: { rows, output in for index in rows { Self.row(index, &output) } }, to: path)
        try PieceWriter.write([table])
        var expected: [UInt8] = Array("n,text\r\n".utf8)
        for index in 0..<rowCount { Self.row(index, &expected) }
        #expect(folder.read("table.csv") == String(decoding: expected, as: UTF8.self))
    }
}
