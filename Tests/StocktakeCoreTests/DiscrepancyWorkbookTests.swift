import Foundation
import Testing

@testable import StocktakeCore

@Suite("DiscrepancyWorkbook: discrepancies.xlsx")
struct DiscrepancyWorkbookTests {
    let folder = TemporaryFolder()

    @Test func theColumnsAreThoseOfDiscrepanciesCSV() {
        #expect(DiscrepancyWorkbook.columns.map(\.name) == DiscrepancyTable.columns)
    }

    /// The workbook a run writes, from the messages made once for it and `discrepancies.csv`, is the workbook of
    /// `bytes(_:)`, which makes each message itself.
    @Test func theWrittenWorkbookFromTheMessagesMadeOnceIsTheSame() throws {
        let reconciliation = OutputFixture.reconciliation
        let path = folder.path("discrepancies.xlsx")
        let messages = DiscrepancyTable.messages(of: reconciliation)
        try PieceWriter.write([DiscrepancyWorkbook.writer(reconciliation, messages: messages, to: path)])
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(written) == DiscrepancyWorkbook.bytes(reconciliation))
        let other = messages.indices.map { "message \($0)" }
        try PieceWriter.write([DiscrepancyWorkbook.writer(reconciliation, messages: other, to: path)])
        #expect(try #require(FileManager.default.contents(atPath: path)) != written)
    }

    @Test(.enabled(if: WorkbookTools.hasOpenpyxl, "python3-openpyxl is not installed"))
    func openpyxlReadsTheCellsOfDiscrepanciesCSVWithFirstSeenAsADate() throws {
        let reconciliation = OutputFixture.reconciliation
        let path = folder.write(DiscrepancyWorkbook.bytes(reconciliation), to: "discrepancies.xlsx")
        let sheet = try #require(try WorkbookTools.openpyxl(path).first)
        #expect(sheet.title == "discrepancies")
        #expect(sheet.freeze == "A2")
        #expect(sheet.filter == "A1:N5")
        let statuses = reconciliation.statuses
        let expected = reconciliation.discrepancies.indices.map { index in
            var cells = DiscrepancyTable.row(reconciliation.discrepancies[index], status: statuses[index])
            cells[12] = "date " + statuses[index].firstSeen.description + " yyyy-mm-dd"
            return cells
        }
        #expect(sheet.rows == [DiscrepancyTable.columns] + expected)
        // Text that a CSV guards with a leading ' is plain text here: "=1+1", "-5".
        #expect(sheet.rows[3][7] == "-5")
        #expect(sheet.rows[3][8] == "=1+1")
        #expect(sheet.rows[1][2] == "004513")
    }

    @Test(.enabled(if: WorkbookTools.hasLibreOffice, "LibreOffice (soffice) is not installed"))
    func libreOfficeKeepsTagsAsTextAndShowsNoGuard() throws {
        let reconciliation = OutputFixture.reconciliation
        let path = folder.write(DiscrepancyWorkbook.bytes(reconciliation), to: "discrepancies.xlsx")
        let csv = WorkbookTools.libreOfficeCSV(path, folder: folder.path)
        let expected = String(decoding: DiscrepancyTable.csv(reconciliation), as: UTF8.self)
            .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: ",'", with: ",")
        #expect(csv == expected)
    }

    @Test(.enabled(if: WorkbookTools.hasOpenpyxl, "python3-openpyxl is not installed"))
    func noFindingsIsTheHeaderAlone() throws {
        let empty = Reconciliation(assets: [], discrepancies: [], inputs: [], asOf: OutputFixture.asOf)
        let sheet = try #require(
            try WorkbookTools.openpyxl(folder.write(DiscrepancyWorkbook.bytes(empty), to: "d.xlsx")).first)
        #expect(sheet.rows == [DiscrepancyTable.columns])
        #expect(sheet.filter == "A1:N1")
    }
}
