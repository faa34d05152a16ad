import Testing

@testable import StocktakeCore

@Suite("CleanedSharedStrings: the shared strings of cleaned.xlsx")
struct CleanedSharedStringsTests {
    static var reconciliation: Reconciliation {
        var reconciliation = OutputFixture.reconciliation
        reconciliation.buildings = BuildingTable([Building(code: "BUR", name: "Burruss Hall")])
        return reconciliation
    }

    @Test func repeatedTextsAreIndexedOnceInTheOrderTheAssetsFirstUseThem() {
        let reconciliation = Self.reconciliation
        let shared = CleanedSharedStrings(
            reconciliation, annotations: CleanedAnnotations(reconciliation))
        #expect(
            shared.table.texts == [
                "AP-515", "=SUM(A1)", "BUR", "101", "ceiling", "Doe, Jane", "S-1", "ok", "central.csv; survey.csv",
                "Burruss Hall", "-48V PoE", "102", "wall", "missing", "central.csv", "typo", "@jdoe", "unrecorded",
                "survey.csv",
            ])
        #expect(shared.table.references == 25)
        let texts = shared.table.texts
        func cells(_ asset: Int) -> [String] {
            CleanedSharedStrings.Column.allCases.map { column in
                let index = shared.index(column, ofAsset: asset)
                return index < 0 ? "" : texts[Int(index)]
            }
        }
        #expect(
            cells(0) == [
                "AP-515", "=SUM(A1)", "BUR", "101", "ceiling", "Doe, Jane", "S-1", "ok", "central.csv; survey.csv",
                "Burruss Hall",
            ])
        #expect(
            cells(1) == ["AP-515", "-48V PoE", "BUR", "102", "wall", "", "", "missing", "central.csv", "Burruss Hall"])
        #expect(cells(2) == ["", "", "BUR", "", "", "", "", "typo", "central.csv", "Burruss Hall"])
        // An asset whose building is not in the buildings table has no building name.
        #expect(cells(3) == ["", "", "", "", "", "@jdoe", "", "unrecorded", "survey.csv", ""])
    }

    @Test func anEmptyTextIsAnEmptyCellNotASharedString() {
        var values = AssetValues()
        values.vtTag = OutputFixture.tag(1)
        values.model = ""
        values.room = "7"
        let reconciliation = Reconciliation(
            assets: [CleanedAsset(values: values, status: .ok, sourceList: "")], discrepancies: [], inputs: [],
            asOf: OutputFixture.asOf)
        let shared = CleanedSharedStrings(reconciliation, annotations: CleanedAnnotations(reconciliation))
        #expect(shared.table.texts == ["7", "ok"])
        #expect(shared.index(.model, ofAsset: 0) == -1)
        #expect(shared.index(.room, ofAsset: 0) == 0)
        #expect(shared.index(.sources, ofAsset: 0) == -1)
        #expect(shared.table.references == 2)
    }
}
