import Testing

@testable import StocktakeCore

@Suite struct SheetChangesTests {
    private let changes = [
        SheetChange(
            row: 1, vtTag: VTTag(number: 1234, digits: 6), column: "Room", before: "b-12, \"west\"",
            after: "B-12, \"WEST\"", reason: .normalized),
        SheetChange(
            row: 1, vtTag: VTTag(number: 1234, digits: 6), column: "Custodian", before: "", after: "'=x",
            reason: .filled),
        SheetChange(row: 2, vtTag: nil, column: "Room", before: "101", after: "102", reason: .overwritten),
        SheetChange(
            row: 3, vtTag: VTTag(number: 9, digits: 7), column: "VT Tag", before: "", after: "0000009",
            reason: .added),
        SheetChange(
            row: 3, vtTag: VTTag(number: 9, digits: 7), column: "Room", before: "", after: "7",
            reason: .added),
        SheetChange(
            row: 4, vtTag: VTTag(number: 10, digits: 7), column: "VT Tag", before: "", after: "0000010",
            reason: .added),
    ]

    @Test func readsBackEveryChangeItWasMadeOf() {
        let compact = SheetChanges(changes)
        #expect(compact.count == 6)
        #expect(Array(compact) == changes)
        #expect(compact == SheetChanges(changes))
        #expect(compact != SheetChanges(changes.dropLast()))
        #expect(SheetChanges([]).isEmpty)
    }

    @Test func countsChangedCellsAndAppendedRows() {
        let compact = SheetChanges(changes)
        #expect(compact.changedCellCount == 3)
        #expect(compact.addedRowCount == 2)
    }

    @Test func namesTheTagsWhoseRowsChangeOrAreAppended() {
        #expect(SheetChanges(changes).changedTagNumbers == [1234, 9, 10])
        #expect(SheetChanges(changes.filter { $0.vtTag == nil }).changedTagNumbers.isEmpty)
        #expect(SheetChanges([]).changedTagNumbers.isEmpty)
        var compact = SheetChanges(source: Array("VT Tag,Room\n0\n".utf8), labels: ["VT Tag", "Room"])
        Array("7".utf8).withUnsafeBufferPointer {
            compact.append(
                row: 1, tag: VTTag(number: 0, digits: 6), column: 1, pastEndOf: 13, cellCount: 1, after: $0,
                reason: .filled)
            compact.appendAdded(row: 2, tag: VTTag(number: 77, digits: 6), column: 0, after: $0)
        }
        #expect(compact.changedTagNumbers == [0, 77])
    }

    @Test func keepsTheTextBeforeAsItStandsInTheSheet() {
        let sheet = Array("VT Tag,Room\n1234,\"b-12, \"\"west\"\"\"\n".utf8)
        var compact = SheetChanges(source: sheet, labels: ["VT Tag", "Room"])
        Array("B-12, \"WEST\"".utf8).withUnsafeBufferPointer {
            compact.append(
                row: 1, tag: VTTag(number: 1234, digits: 6), column: 1, cell: 17..<33, after: $0, reason: .normalized)
        }
        Array("jdoe".utf8).withUnsafeBufferPointer {
            compact.append(
                row: 1, tag: nil, column: 1, pastEndOf: 33, cellCount: 2, after: $0, reason: .filled)
        }
        #expect(
            Array(compact) == [
                SheetChange(
                    row: 1, vtTag: VTTag(number: 1234, digits: 6), column: "Room", before: "b-12, \"west\"",
                    after: "B-12, \"WEST\"", reason: .normalized),
                SheetChange(row: 1, vtTag: nil, column: "Room", before: "", after: "jdoe", reason: .filled),
            ])
    }
}
