import Testing

@testable import StocktakeCore

@Suite("StateTable: small CSV files stocktake writes and reads back")
struct StateTableTests {
    let folder = TemporaryFolder()

    @Test func noFileIsNil() throws {
        #expect(try StateTable.read(folder.path("state.csv"), required: ["id"]) == nil)
    }

    @Test func readsCellsByTheirColumnNameAndLine() throws {
        let path = folder.write(
            " ID ,Note,Extra,note\r\nF7K2-Q9MD,first,x,second\r\n\r\n,,,\r\n4ET3-T8AG,\"two\nlines\"\r\nshort\r\n",
            to: "state.csv")
        let table = try #require(try StateTable.read(path, required: ["id", "note"]))
        #expect(table.rows.count == 3)
        #expect(table.rows.map(\.line) == [2, 5, 7])
        #expect(table.rows[0].cells == ["id": "F7K2-Q9MD", "note": "first", "extra": "x"])
        #expect(table.rows[1]["id"] == "4ET3-T8AG")
        #expect(table.rows[1]["note"] == "two\nlines")
        #expect(table.rows[1]["extra"] == "")
        #expect(table.rows[2]["id"] == "short")
        #expect(table.rows[2]["note"] == "")
        #expect(table.rows[2]["no such column"] == "")
    }

    @Test func aMissingRequiredColumnIsNamed() {
        let path = folder.write("id,note\n", to: "state.csv")
        let error = #expect(throws: StocktakeError.self) {
            try StateTable.read(path, required: ["id", "by", "note", "until"])
        }
        #expect(
            error == .badData(path: path, reason: "it has no by, until column (its header must have id,by,note,until).")
        )
    }

    @Test func aFolderCannotBeRead() {
        let path = folder.path("folder.csv")
        folder.write("x", to: "folder.csv/inside")
        let error = #expect(throws: StocktakeError.self) { try StateTable.read(path, required: ["id"]) }
        guard case .unreadableInput(let named, _) = error else {
            Issue.record("expected unreadableInput, got \(String(describing: error))")
            return
        }
        #expect(named == path)
    }

    @Test func writesTheHeaderThenTheRowsWithTheFormulaGuard() {
        let bytes = StateTable.bytes(
            header: ["id", "value"], rows: [["a", "=1+1"], ["b", "-5"], ["c", "x,y"], ["", ""]])
        #expect(String(decoding: bytes, as: UTF8.self) == "id,value\r\na,'=1+1\r\nb,-5\r\nc,\"x,y\"\r\n,\r\n")
    }

    @Test func removesTheGuardItAdded() {
        for cell in ["=1+1", "+x", "-x", "@sum", "\tx", "=", "-"] {
            let written = CSVWriter.neutralized(cell)
            #expect(written == "'" + cell)
            #expect(StateTable.unguarded(written) == cell)
        }
    }

    @Test func leavesOtherApostrophesAlone() {
        #expect(StateTable.unguarded("'") == "'")
        #expect(StateTable.unguarded("'quoted") == "'quoted")
        #expect(StateTable.unguarded("'-5") == "'-5")
        #expect(StateTable.unguarded("''") == "''")
        #expect(StateTable.unguarded("plain") == "plain")
        #expect(StateTable.unguarded("=raw") == "=raw")
    }

    @Test func roundTripsCellsThroughAFile() throws {
        let cells = ["=1+1", "-x", "-5", "@a", "+b", "'quoted", "two\r\nlines", "a \"quote\"", "", "é ü"]
        let path = folder.write(
            StateTable.bytes(header: ["index", "cell"], rows: cells.indices.map { ["\($0)", cells[$0]] }),
            to: "state.csv")
        let table = try #require(try StateTable.read(path, required: ["index", "cell"]))
        #expect(table.rows.map { $0["cell"] } == cells)
    }
}
