import Foundation
import StocktakeCore
import Testing

struct WorkbookSourceTests {
    let folder = TemporaryFolder()
    let reader = SourceReader(mapping: .builtIn)

    /// A workbook with sheets "Old" (hidden), "Scans", "Archive" (hidden) and "Extra", each a tag column.
    func workbook() throws -> [UInt8] {
        let parts = ReconcileJobTests.workbookParts(
            [("Old", "4"), ("Scans", "1"), ("Archive", "2"), ("Extra", "3")].enumerated().map { index, sheet in
                (
                    sheet.0, index % 2 == 0,
                    ReconcileJobTests.inlineRow(1, ["Tag"]) + ReconcileJobTests.inlineRow(2, [sheet.1])
                )
            })
        return try pythonZip(WorkbookTests.workbookScript(parts), in: folder)
    }

    static func tags(_ data: SourceData) -> [String] {
        data.records.compactMap { $0.values.vtTag?.description }
    }

    @Test func listsTheVisibleSheetsInTabOrder() throws {
        let bytes = try workbook()
        #expect(try WorkbookSource.visibleSheets(of: folder.write(bytes, to: "scans.xlsx")) == ["Scans", "Extra"])
        #expect(try WorkbookSource.visibleSheets(of: bytes, name: "scans.xlsx") == ["Scans", "Extra"])
    }

    @Test func readsTheFirstVisibleSheetOrTheOneNamed() throws {
        let path = folder.write(try workbook(), to: "scans.xlsx")
        #expect(
            Self.tags(try WorkbookSource(file: SourceFile(path: path, role: .sighting)).read(with: reader)) == [
                "000001"
            ])
        let archive = SourceFile(path: path, role: .sighting, sheet: "Archive")
        let data = try WorkbookSource(file: archive).read(with: reader)
        #expect(Self.tags(data) == ["000002"])
        #expect(data.file.displayName == "scans.xlsx[Archive]")
        let pulled = try WorkbookSource(file: archive, bytes: try workbook(), name: "pulled.xlsx").read(with: reader)
        #expect(Self.tags(pulled) == ["000002"])
    }

    /// A workbook's text may hold a NUL (`_x0000_`), which no CSV cell can: two rows whose cells differ only in where
    /// a NUL and a cell's end fall are two rows, not one repeated, and both are kept.
    @Test func rowsThatDifferOnlyByANULAgainstACellsEndAreNotRepeats() throws {
        let parts = ReconcileJobTests.workbookParts([
            (
                "Scans", false,
                ReconcileJobTests.inlineRow(1, ["Tag", "Model", "Room"])
                    + ReconcileJobTests.inlineRow(2, ["1", "A_x0000_B", "C"])
                    + ReconcileJobTests.inlineRow(3, ["1", "A", "B_x0000_C"])
            )
        ])
        let path = folder.write(try pythonZip(WorkbookTests.workbookScript(parts), in: folder), to: "nul.xlsx")
        let data = try WorkbookSource(file: SourceFile(path: path, role: .sighting)).read(with: reader)
        #expect(data.repeatedRows.isEmpty)
        #expect(data.records.count == 2)
        #expect(data.records.map(\.row) == [1, 2])
    }

    @Test func aMissingSheetNamesTheSheetsThereAre() throws {
        let path = folder.write(try workbook(), to: "scans.xlsx")
        let file = SourceFile(path: path, role: .sighting, sheet: "APs")
        let sentence =
            "the workbook has no sheet named \"APs\"; its sheets are \"Old\", \"Scans\", \"Archive\", \"Extra\". "
            + "Check the sheet's name where it is given (the account's sources, --central-sheet or --sheet)."
        #expect(throws: StocktakeError.badData(path: path, reason: sentence)) {
            try WorkbookSource(file: file).read(with: reader)
        }
        #expect(throws: StocktakeError.badData(path: path, reason: sentence)) { try reader.read(file) }
        // From memory the sentence names the source's path too, not the name the bytes were pulled as.
        #expect(throws: StocktakeError.badData(path: path, reason: sentence)) {
            try reader.read(file, bytes: try workbook(), name: "pulled.xlsx")
        }
    }

    static let refusal =
        "it is encrypted or password-protected, or is an old .xls workbook: open it in Excel and save it as an "
        + "unprotected .xlsx (or as CSV UTF-8)."

    /// An old `.xls` and a password-protected `.xlsx` are both OLE2 compound documents: refused naming the file.
    @Test(arguments: ["old.xls", "locked.xlsx", "central.csv"])
    func refusesACompoundDocument(name: String) throws {
        let bytes = SourceFormatTests.compoundSignature + [UInt8](repeating: 0, count: 504)
        let path = folder.write(bytes, to: name)
        let file = SourceFile(path: path, role: .central)
        #expect(WorkbookSource.refusal(of: file) == .badData(path: path, reason: Self.refusal))
        #expect(WorkbookSource.refusal(of: file).description == "\(path): " + Self.refusal)
        #expect(WorkbookSource.refusal(of: file).exitStatus == .dataError)
        #expect(throws: StocktakeError.badData(path: path, reason: Self.refusal)) { try reader.read(file) }
        #expect(throws: StocktakeError.badData(path: path, reason: Self.refusal)) {
            try reader.read(file, bytes: bytes, name: name)
        }
        #expect(throws: StocktakeError.badData(path: path, reason: Self.refusal)) {
            try WorkbookSource.visibleSheets(of: path)
        }
    }

    /// A real `.xls` that LibreOffice saves, and the calamine suite's password-protected workbook.
    @Test(.enabled(if: WorkbookTools.hasLibreOffice, "needs LibreOffice (soffice), which the Makefile installs"))
    func refusesARealXLSWorkbook() throws {
        let csv = folder.write("Tag,Serial\n1,S1\n", to: "scans.csv")
        let result = WorkbookTools.run(
            "/usr/bin/env",
            [
                "soffice", "-env:UserInstallation=file://" + folder.path("profile"), "--headless", "--convert-to",
                "xls", "--outdir", folder.path("old"), csv,
            ])
        let path = folder.path("old/scans.xls")
        try #require(FileManager.default.fileExists(atPath: path), "\(result.output)")
        #expect(SourceFormat.of(path: path) == .compoundDocument)
        #expect(throws: StocktakeError.badData(path: path, reason: Self.refusal)) {
            try reader.read(SourceFile(path: path, role: .sighting))
        }
    }

    @Test(.enabled(if: WorkbookTests.hasCalamine, "needs ../shared/testdata/xlsx-calamine"))
    func refusesAPasswordProtectedWorkbook() throws {
        let path = WorkbookTests.calamineFolder + "/pass_protected.xlsx"
        #expect(throws: StocktakeError.badData(path: path, reason: Self.refusal)) {
            try reader.read(SourceFile(path: path, role: .sighting))
        }
    }

    /// A workbook's own sentence about the file is turned into one about the source's path.
    @Test func aDamagedWorkbookIsNamedByTheSourcesPath() throws {
        let bytes = try workbook()
        let path = folder.write(Array(bytes.prefix(bytes.count / 2)), to: "cut.xlsx")
        let reason =
            "the workbook file is cut off (it ends before its ZIP directory does); it was not read. Copy the file "
            + "again from where it came from, or open it in a spreadsheet and save it again."
        #expect(throws: StocktakeError.badData(path: path, reason: reason)) {
            try WorkbookSource.visibleSheets(of: path)
        }
        #expect(throws: StocktakeError.badData(path: "pulled.xlsx", reason: reason)) {
            try WorkbookSource.visibleSheets(of: Array(bytes.prefix(bytes.count / 2)), name: "pulled.xlsx")
        }
        let file = SourceFile(path: "https://files.example.edu/scans.xlsx", role: .sighting)
        #expect(throws: StocktakeError.badData(path: file.path, reason: reason)) {
            try WorkbookSource(file: file, bytes: Array(bytes.prefix(bytes.count / 2)), name: "scans.xlsx")
                .read(with: reader)
        }
    }
}
