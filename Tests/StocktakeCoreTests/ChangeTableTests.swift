import Foundation
import Testing

@testable import StocktakeCore

@Suite struct ChangeTableTests {
    @Test func writesOneRowPerChangeWithCRLFQuotingAndNeutralizedFormulas() {
        let changes: SheetChanges = [
            SheetChange(
                row: 1, vtTag: VTTag(number: 1234, digits: 6), column: "Room", before: "b-12, west",
                after: "B-12, WEST", reason: .normalized),
            SheetChange(row: 2, vtTag: nil, column: "Custodian", before: "", after: "'=cmd()", reason: .filled),
            SheetChange(
                row: 3, vtTag: VTTag(number: 9999, digits: 6), column: "Notes \"x\"", before: "=HYPERLINK(\"a\")",
                after: "-80.4139", reason: .overwritten),
            SheetChange(
                row: 4, vtTag: VTTag(number: 42, digits: 6), column: "VT Tag", before: "", after: "000042",
                reason: .added),
        ]
        let text = String(decoding: ChangeTable.csv(changes), as: UTF8.self)
        #expect(
            text
                == "row,vt_tag,column,before,after,reason\r\n"
                + "1,001234,Room,\"b-12, west\",\"B-12, WEST\",normalized\r\n"
                + "2,,Custodian,,'=cmd(),filled\r\n"
                + "3,009999,\"Notes \"\"x\"\"\",\"'=HYPERLINK(\"\"a\"\")\",-80.4139,overwritten\r\n"
                + "4,000042,VT Tag,,000042,added\r\n")
    }

    @Test func noChangesIsTheHeaderAlone() {
        #expect(String(decoding: ChangeTable.csv([]), as: UTF8.self) == "row,vt_tag,column,before,after,reason\r\n")
    }

    @Test func writesTheFile() throws {
        let folder = TemporaryFolder()
        let path = folder.path("changes.csv")
        let changes: SheetChanges = [
            SheetChange(row: 7, vtTag: nil, column: "Room", before: "", after: "101", reason: .filled)
        ]
        try ChangeTable.write(changes, to: path)
        #expect(folder.read("changes.csv") == "row,vt_tag,column,before,after,reason\r\n7,,Room,,101,filled\r\n")
    }

    @Test func writesTheChangesOfAPlanFromTheSheetsBytes() throws {
        var fixture = ReconcileFixture(
            central: "VT Tag,Room,Custodian\n1234,\"b-12, \"\"west\"\"\",\n004513,=1+2,\n004514,,\n")
        fixture.sighting("survey.csv", "P-Tag,Custodian\n001234,@jdoe\n004514,\"Doe, Jane\"\n009999,x\n")
        let reconciliation = try fixture.reconcile()
        let plan = try WriteBackPlan(
            sheet: Array(fixture.files[0].text.utf8), fileName: "central.csv", reader: SourceReader(mapping: .builtIn),
            reconciliation: reconciliation, options: WriteBackOptions(addUnrecorded: true))
        let text = String(decoding: ChangeTable.csv(plan.changes), as: UTF8.self)
        #expect(
            text
                == "row,vt_tag,column,before,after,reason\r\n"
                + "1,001234,VT Tag,1234,001234,normalized\r\n"
                + "1,001234,Room,\"b-12, \"\"west\"\"\",\"B-12, \"\"WEST\"\"\",normalized\r\n"
                + "1,001234,Custodian,,'@jdoe,filled\r\n"
                + "3,004514,Custodian,,\"Doe, Jane\",filled\r\n"
                + "4,009999,VT Tag,,009999,added\r\n"
                + "4,009999,Custodian,,x,added\r\n")
        // The same rows as the changes read one by one.
        #expect(ChangeTable.csv(plan.changes) == ChangeTable.csv(SheetChanges(Array(plan.changes))))
    }
}

@Suite("ChangeTable.file: changes.csv formatted in blocks on all cores, written in order")
struct ChangeTableBlockTests {
    /// Changes of `partSizes` parts over one sheet, with every kind of cell: plain, quoted with quotes and commas
    /// inside, formulas, past the end of a short row, rows without a tag, appended rows.
    static func changes(partSizes: [Int]) -> SheetChanges {
        var source: [UInt8] = []
        let labels = ["VT Tag", "Room, \"west\"", "Notes"]
        var parts: [[(row: Int, cell: Range<Int>?, after: String, kind: Int)]] = []
        var row = 0
        for size in partSizes {
            var part: [(row: Int, cell: Range<Int>?, after: String, kind: Int)] = []
            for _ in 0..<size {
                row += 1
                let kind = row % 5
                let text =
                    switch kind {
                    case 0: "r\(row)"
                    case 1: "\"a,\"\"\(row)\"\"\""
                    case 2: "=x\(row)"
                    default: "\(row)"
                    }
                let start = source.count
                source.append(contentsOf: text.utf8)
                let cell = start..<source.count
                source.append(ASCII.lineFeed)
                let after = ["R\(row)", "-\(row)", row % 2 == 0 ? "+x" : "\tx", "\"\(row)\"\n", "@y"][kind]
                part.append((row, kind == 4 ? nil : cell, after, kind))
            }
            parts.append(part)
        }
        var joined = SheetChanges(source: source, labels: labels)
        for part in parts {
            var changes = SheetChanges(source: source, labels: labels)
            for change in part {
                let tag = change.kind == 3 ? nil : VTTag(number: UInt64(change.row * 7), digits: 6)
                Array(change.after.utf8).withUnsafeBufferPointer { after in
                    if let cell = change.cell {
                        changes.append(
                            row: change.row, tag: tag, column: change.row % 3, cell: cell, after: after,
                            reason: change.kind == 0 ? .overwritten : .normalized)
                    } else {
                        changes.append(
                            row: change.row, tag: tag, column: 2, pastEndOf: 0, cellCount: 1, after: after,
                            reason: .filled)
                    }
                }
            }
            joined.append(contentsOf: changes)
        }
        Array("0000042".utf8).withUnsafeBufferPointer {
            joined.appendAdded(row: row + 1, tag: VTTag(number: 42, digits: 7), column: 0, after: $0)
        }
        return joined
    }

    /// `changes.csv` as `CSVWriter` writes each change's cells: what the blocks must hold.
    static func expected(_ changes: SheetChanges) -> String {
        var writer = CSVWriter(header: ChangeTable.columns)
        for change in changes {
            writer.append([
                String(change.row), change.vtTag?.description ?? "", change.column, change.before, change.after,
                change.reason.rawValue,
            ])
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// changes.csv is written a byte at a time for speed, but by `CSVWriter`'s rules: every first byte a cell may
    /// start with, alone, before a number and before a comma or a quote, is neutralized and quoted as the other tables
    /// write it.
    @Test func everyCellIsNeutralizedAndQuotedAsCSVWriterWritesIt() {
        var changes: [SheetChange] = []
        for byte in UInt8(0)..<128 {
            let first = String(decoding: [byte], as: UTF8.self)
            for rest in ["", "1", "1e5", "x,y", "x\"y", "\n"] {
                changes.append(
                    SheetChange(
                        row: changes.count + 1, vtTag: nil, column: "Notes", before: "", after: first + rest,
                        reason: .filled))
            }
        }
        let sheet = SheetChanges(changes)
        #expect(String(decoding: ChangeTable.csv(sheet), as: UTF8.self) == Self.expected(sheet))
    }

    @Test(arguments: [1, 2, 4])
    func aFileOfManyBlocksOverSeveralPartsHoldsEveryChangeInOrder(threads: Int) throws {
        let changes = Self.changes(partSizes: [ChangeTable.changesPerBlock + 3, 5, ChangeTable.changesPerBlock * 2])
        #expect(changes.parts.count == 3)
        // The appended row ends the last part: 2 + 1 + 3 blocks.
        #expect(ChangeTable.blocks(of: changes).count == 6)
        let folder = TemporaryFolder()
        try PieceWriter.write(
            [ChangeTable.file(changes, to: folder.path("changes.csv"), synchronizingFolder: true)], threads: threads)
        let expected = Self.expected(changes)
        #expect(folder.read("changes.csv") == expected)
        #expect(String(decoding: ChangeTable.csv(changes), as: UTF8.self) == expected)
        #expect(folder.list() == ["changes.csv"])
    }

    @Test func theBlocksCoverEachPartInOrderAndNoneIsLargerThanABlock() {
        let changes = Self.changes(partSizes: [ChangeTable.changesPerBlock * 2 + 1, 1])
        let blocks = ChangeTable.blocks(of: changes)
        #expect(blocks.map(\.part) == [0, 0, 0, 1])
        #expect(
            blocks.map(\.changes) == [
                0..<ChangeTable.changesPerBlock, ChangeTable.changesPerBlock..<ChangeTable.changesPerBlock * 2,
                ChangeTable.changesPerBlock * 2..<ChangeTable.changesPerBlock * 2 + 1, 0..<2,
            ])
        #expect(ChangeTable.blocks(of: []).isEmpty)
    }

    @Test func noChangesIsTheHeaderAlone() throws {
        let folder = TemporaryFolder()
        try ChangeTable.write([], to: folder.path("changes.csv"))
        #expect(folder.read("changes.csv") == "row,vt_tag,column,before,after,reason\r\n")
    }

    @Test func aFileAbandonedAfterAFailureLeavesTheOldFileAndNoPartialFile() throws {
        let folder = TemporaryFolder()
        _ = folder.write("old changes\r\n", to: "changes.csv")
        let log = PieceWriterTests.Log()
        let failing = PieceWriterTests.FakeFile(0, pieces: 1, log: log, failing: "write 0.0")
        let changes = Self.changes(partSizes: [ChangeTable.changesPerBlock + 1])
        let file = ChangeTable.file(changes, to: folder.path("changes.csv"), synchronizingFolder: true)
        #expect(throws: PieceWriterTests.FakeFile.error(0)) {
            try PieceWriter.write([failing, file], threads: 2)
        }
        #expect(folder.read("changes.csv") == "old changes\r\n")
        #expect(folder.list() == ["changes.csv"])
    }

    @Test func aMissingFolderIsTheWritersSentenceAndWritesNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.path("gone/changes.csv")
        let error = #expect(throws: StocktakeError.self) {
            try ChangeTable.write(Self.changes(partSizes: [3]), to: path)
        }
        #expect(
            error?.description
                == "\(path): cannot write it: the folder does not exist. "
                + "Check that the folder exists, is writable and the disk is not full.")
        #expect(folder.list().isEmpty)
    }
}
