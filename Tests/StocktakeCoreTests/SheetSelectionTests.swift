import StocktakeCore
import Testing

/// What each selection makes of a workbook and of a text file, as `ReconcileJob.expand` applies it to a folder
/// holding both.
struct SheetSelectionTests {
    let folder = TemporaryFolder()

    /// A folder with `north.csv` and `scans.xlsx` (sheets "Old" hidden, "Scans", "Archive" hidden, "Extra").
    func sources() throws -> String {
        folder.write("Tag\n1\n", to: "sources/north.csv")
        let parts = ReconcileJobTests.workbookParts(
            ["Old", "Scans", "Archive", "Extra"].enumerated().map { index, name in
                (name, index % 2 == 0, ReconcileJobTests.inlineRow(1, ["Tag"]))
            })
        folder.write(try pythonZip(WorkbookTests.workbookScript(parts), in: folder), to: "sources/scans.xlsx")
        return folder.path("sources")
    }

    func expanded(_ selection: SheetSelection) throws -> [String] {
        try ReconcileJob.expand(SourceEntry(try sources(), sheets: selection), role: .sighting).map {
            "\($0.displayName) \($0.sheet ?? "-")"
        }
    }

    @Test func firstLeavesTheSheetToTheReader() throws {
        #expect(try expanded(.first) == ["north.csv -", "scans.xlsx -"])
    }

    /// Every visible worksheet is a source of its own; a text file stays one source.
    @Test func allExpandsAWorkbookToItsVisibleSheets() throws {
        #expect(try expanded(.all) == ["north.csv -", "scans.xlsx[Scans] Scans", "scans.xlsx[Extra] Extra"])
    }

    /// The sheet is asked of every workbook of the entry; a text file has one table, read under its own name and
    /// in the entry's encoding.
    @Test func namedAsksEveryWorkbookForTheSheet() throws {
        #expect(try expanded(.named("Archive")) == ["north.csv -", "scans.xlsx[Archive] Archive"])
        let files = try ReconcileJob.expand(
            SourceEntry(try sources(), sheets: .named("Archive"), encoding: .windows1252), role: .sighting)
        #expect(files.map(\.encoding) == [.windows1252, nil])
    }

    @Test func selectionsAreValues() {
        #expect(SheetSelection.named("APs") == .named("APs"))
        #expect(SheetSelection.named("APs") != .named("aps"))
        #expect(Set([SheetSelection.first, .all, .named("APs"), .first]).count == 3)
    }
}
