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

    /// A sheet of three rows and the changes of its rows' Room cells, planned as the parts `splits` make.
    private func planned(in splits: [Range<Int>]) -> (joined: SheetChanges, whole: [SheetChange]) {
        let sheet = Array("VT Tag,Room\n1,a\n2,\"b,\"\"c\"\"\"\n3,d\n".utf8)
        let labels = ["VT Tag", "Room"]
        let cells = [14..<15, 18..<27, 30..<31]
        let afters = ["A", "B,\"C\"", "D"]
        func part(_ rows: Range<Int>) -> SheetChanges {
            var part = SheetChanges(source: sheet, labels: labels)
            for row in rows {
                Array(afters[row].utf8).withUnsafeBufferPointer {
                    part.append(
                        row: row + 1, tag: VTTag(number: UInt64(row + 1), digits: 6), column: 1, cell: cells[row],
                        after: $0, reason: .normalized)
                }
            }
            return part
        }
        var joined = SheetChanges(source: sheet, labels: labels)
        for rows in splits { joined.append(contentsOf: part(rows)) }
        let whole = [("a", "A"), ("b,\"c\"", "B,\"C\""), ("d", "D")].enumerated().map { row, texts in
            SheetChange(
                row: row + 1, vtTag: VTTag(number: UInt64(row + 1), digits: 6), column: "Room", before: texts.0,
                after: texts.1, reason: .normalized)
        }
        return (joined, whole)
    }

    @Test func partsJoinedInOrderReadAsOneList() {
        // Parts as cores plan them, joined without copying, an empty one among them.
        let (joined, whole) = planned(in: [0..<1, 1..<1, 1..<3])
        #expect(joined.parts.count == 2)
        #expect(joined.count == 3)
        #expect(Array(joined) == whole)
        #expect(joined == SheetChanges(whole))
        #expect(joined == planned(in: [0..<3]).joined)
        #expect(joined.entries.map(\.row) == [1, 2, 3])
        #expect(joined.changedCellCount == 3)
        #expect(joined.addedRowCount == 0)
        #expect(joined.changedTagNumbers == [1, 2, 3])
        #expect(
            joined.indices.map { joined.withAfterText($0) { String(decoding: $0, as: UTF8.self) } }
                == whole.map(\.after))
        #expect(joined.indices.map { joined.locate($0).part } == [0, 1, 1])
        #expect(joined.indices.map { joined.locate($0).index } == [0, 0, 1])
        let three = planned(in: [0..<1, 1..<2, 2..<3]).joined
        #expect(three.indices.map { three.locate($0).part } == [0, 1, 2])
        #expect(SheetChanges(source: [], labels: []).isEmpty)
    }

    @Test func manyPartsAreFoundByHalvingAsFewAreByCounting() {
        // Parts of one, two and three changes in turn, an empty one among them: more than are counted in line.
        let sizes = (0..<(SheetChanges.partsCountedInLine + 9)).map { $0 % 3 + 1 }
        var joined = SheetChanges(source: [], labels: ["VT Tag"])
        var expected: [(part: Int, index: Int)] = []
        for (number, size) in sizes.enumerated() {
            var part = SheetChanges(source: [], labels: ["VT Tag"])
            for index in 0..<size {
                Array("\(number)".utf8).withUnsafeBufferPointer {
                    part.appendAdded(
                        row: number + 1, tag: VTTag(number: UInt64(number), digits: 6), column: 0, after: $0)
                }
                expected.append((number, index))
            }
            joined.append(contentsOf: part)
            if number == 5 { joined.append(contentsOf: SheetChanges(source: [], labels: ["VT Tag"])) }
        }
        #expect(joined.parts.count == sizes.count)
        #expect(joined.indices.map { joined.locate($0).part } == expected.map(\.part))
        #expect(joined.indices.map { joined.locate($0).index } == expected.map(\.index))
        #expect(joined.entries.map(\.row) == expected.map { UInt32($0.part + 1) })
        #expect(
            joined.indices.map { joined.withAfterText($0) { String(decoding: $0, as: UTF8.self) } }
                == expected.map { "\($0.part)" })
    }

    @Test func changesAppendedAfterJoinedPartsGoToTheLastPart() {
        var (joined, whole) = planned(in: [0..<1, 1..<3])
        Array("000004".utf8).withUnsafeBufferPointer {
            joined.appendAdded(row: 4, tag: VTTag(number: 4, digits: 6), column: 0, after: $0)
        }
        #expect(joined.parts.count == 2)
        #expect(joined.count == 4)
        #expect(Array(joined.prefix(3)) == whole)
        #expect(
            joined[3]
                == SheetChange(
                    row: 4, vtTag: VTTag(number: 4, digits: 6), column: "VT Tag", before: "", after: "000004",
                    reason: .added))
        #expect(joined.addedRowCount == 1)
    }

    @Test func aLongStretchOfChangesGoesOnInPartsMadeAtTheirFullSize() {
        // One core's changes, more than a part holds: the entries past the first part's go into a new one.
        let count = SheetChanges.entriesPerPart + 2
        let sheet = Array("VT Tag,Room\n".utf8)
        var changes = SheetChanges(source: sheet, labels: ["VT Tag", "Room"])
        for row in 1...count {
            Array("R\(row)".utf8).withUnsafeBufferPointer {
                changes.append(
                    row: row, tag: VTTag(number: UInt64(row), digits: 7), column: 1, pastEndOf: 12, cellCount: 1,
                    after: $0, reason: .filled)
            }
        }
        #expect(changes.count == count)
        #expect(changes.parts.map(\.entries.count) == [SheetChanges.entriesPerPart, 2])
        #expect(changes.parts[1].entries.capacity >= SheetChanges.entriesPerPart)
        #expect(changes.parts[1].afterTexts.capacity >= changes.parts[0].afterTexts.count)
        #expect(changes.locate(count - 3) == (part: 0, index: SheetChanges.entriesPerPart - 1))
        #expect(changes.locate(count - 2) == (part: 1, index: 0))
        for position in [0, count - 3, count - 2, count - 1] {
            #expect(
                changes[position]
                    == SheetChange(
                        row: position + 1, vtTag: VTTag(number: UInt64(position + 1), digits: 7), column: "Room",
                        before: "", after: "R\(position + 1)", reason: .filled))
        }
        #expect(changes.entries.map(\.row) == (1...count).map(UInt32.init))
        #expect(changes.changedCellCount == count)
        let table = String(decoding: ChangeTable.csv(changes), as: UTF8.self).split(separator: "\r\n")
        #expect(table.count == count + 1)
        #expect(table[count - 2].hasPrefix("\(count - 2),"))
        #expect(table[count].hasPrefix("\(count),"))
    }
}
