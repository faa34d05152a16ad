import Testing

@testable import StocktakeCore

@Suite struct SourceRowsTests {
    /// Values in every field, each different from row to row.
    static func everything(_ index: Int) -> AssetValues {
        var values = AssetValues()
        values.vtTag = VTTag(number: UInt64(100_000 + index), digits: 6)
        values.cnsNumber = CNSNumber(number: UInt64(7_000 + index), digits: 7)
        values.serialNumber = SerialNumber(canonical: "CNF\(index)")
        values.macAddress = MACAddress(value: 0x00AA_BB00_0000 + UInt64(index))
        values.model = "AP-\(index)"
        values.description = "Ceiling \(index)"
        values.building = "Library \(index)"
        values.room = "\(100 + index)"
        values.mount = "wall \(index)"
        values.custodian = "pid\(index)"
        values.latitude = 37.25 + Double(index) / 1_000
        values.longitude = -80.5 - Double(index) / 1_000
        values.lastSeen = InventoryDate(daysSinceEpoch: Int32(20_000 + index))
        values.stockNumber = "S-\(index)"
        values.cost = UnitCost(cents: Int64(99_999_999_999 + index))
        return values
    }

    /// The values of `everything(index)` in `fields` alone.
    static func only(_ fields: [CanonicalField], _ index: Int) -> AssetValues {
        var values = AssetValues()
        for field in fields { values.copy(field, from: everything(index)) }
        return values
    }

    /// A file of tags and custodians keeps 24 bytes a row (row, line, tag and its digits, custodian, the byte of the
    /// numbers there), a file of every field 100, and both read back every value exactly.
    @Test func aRowKeepsOnlyTheBytesOfItsFilesFields() {
        var custodians = SourceRows(keeping: [.vtTag, .custodian])
        var everything = SourceRows(keeping: CanonicalField.allCases)
        for index in 0..<100 {
            custodians.append(
                SourceRecord(row: index + 1, line: index + 2, values: Self.only([.vtTag, .custodian], index)))
            everything.append(SourceRecord(row: index + 1, line: index + 2, values: Self.everything(index)))
        }
        #expect(custodians.stride == 24)
        #expect(everything.stride == 100)
        #expect(custodians.count == 100 && everything.count == 100)
        for index in 0..<100 {
            #expect(custodians[index].values == Self.only([.vtTag, .custodian], index))
            #expect(custodians[index].row == Int32(index + 1) && custodians[index].line == Int32(index + 2))
            #expect(everything[index].values == Self.everything(index))
            #expect(everything.view.row(at: index) == Int32(index + 1))
            #expect(everything.view.line(at: index) == Int32(index + 2))
        }
    }

    /// A row holding a field its file was not expected to fill widens every row's layout: the rows before it keep
    /// their values, and the new row keeps all of its own.
    @Test func aRowWithAnUnexpectedFieldWidensTheRowsBeforeIt() {
        var rows = SourceRows(keeping: [.vtTag])
        for index in 0..<40 {
            rows.append(SourceRecord(row: index + 1, line: index + 1, values: Self.only([.vtTag], index)))
        }
        let narrow = rows.stride
        rows.append(SourceRecord(row: 41, line: 41, values: Self.only([.vtTag, .room, .cost], 40)))
        #expect(rows.stride > narrow)
        #expect(rows.fields == SourceRows.bits(of: [.vtTag, .room, .cost]))
        for index in 0..<40 { #expect(rows[index].values == Self.only([.vtTag], index)) }
        #expect(rows[40].values == Self.only([.vtTag, .room, .cost], 40))
        // Rows built with no layout at all widen as they come.
        let built: SourceRows = [SourceRecord(row: 1, line: 1, values: Self.everything(3))]
        #expect(built[0].values == Self.everything(3))
    }

    /// Rows are a value: a copy does not see rows appended or changed after it was made.
    @Test func aCopyKeepsTheRowsItWasMadeWith() {
        var rows = SourceRows(keeping: CanonicalField.allCases)
        for index in 0..<10 { rows.append(SourceRecord(row: index, line: index, values: Self.everything(index))) }
        let copy = rows
        rows.append(SourceRecord(row: 10, line: 10, values: Self.everything(10)))
        rows[0] = SourceRecord(row: 99, line: 99, values: Self.everything(99))
        rows.reserveCapacity(10_000)
        #expect(copy.count == 10)
        #expect(copy[0].values == Self.everything(0) && copy[0].row == 0)
        #expect(rows[0].values == Self.everything(99) && rows[0].row == 99)
        #expect(rows.capacity >= 10_000)
        for index in 1...10 { #expect(rows[index].values == Self.everything(index)) }
    }

    /// Growing moves the rows to a larger block: every row survives many growths, and reserving makes room once.
    @Test func growingKeepsEveryRow() {
        var rows = SourceRows(keeping: [.vtTag, .serialNumber])
        rows.reserveCapacity(3)
        #expect(rows.capacity == 3)
        for index in 0..<5_000 {
            rows.append(SourceRecord(row: index, line: index, values: Self.only([.vtTag, .serialNumber], index)))
        }
        #expect(rows.count == 5_000 && rows.capacity >= 5_000)
        for index in stride(from: 0, to: 5_000, by: 7) {
            #expect(rows[index].values == Self.only([.vtTag, .serialNumber], index))
        }
    }

    /// A row appended from other rows keeps every value under its new row number and line: its bytes are copied
    /// from rows of the same fields (the parts of one file), its values from rows of others, which widen nothing
    /// they do not hold. The rows copied from are left as they were.
    @Test func aRowAppendedFromOtherRowsKeepsItsValues() {
        var part = SourceRows(keeping: CanonicalField.allCases)
        for index in 0..<50 {
            part.append(SourceRecord(row: index + 1, line: index + 1, values: Self.everything(index)))
        }
        var joined = SourceRows(keeping: CanonicalField.allCases)
        joined.append(SourceRecord(row: 1, line: 1, values: Self.everything(1_000)))
        let copy = joined
        for index in 0..<50 { joined.append(index, of: part.view, row: Int32(index + 2), line: Int32(3 * index)) }
        #expect(joined.count == 51 && copy.count == 1)
        #expect(joined[0].values == Self.everything(1_000))
        for index in 0..<50 {
            #expect(joined[index + 1].values == Self.everything(index))
            #expect(joined[index + 1].row == Int32(index + 2) && joined[index + 1].line == Int32(3 * index))
            #expect(part[index].row == Int32(index + 1) && part[index].line == Int32(index + 1))
        }
        var narrow = SourceRows(keeping: [.vtTag, .custodian])
        narrow.append(0, of: part.view, row: 7, line: 9)
        #expect(narrow[0].values == Self.everything(0) && narrow[0].row == 7 && narrow[0].line == 9)
        var tags = SourceRows(keeping: [.vtTag])
        tags.append(SourceRecord(row: 1, line: 1, values: Self.only([.vtTag], 5)))
        var wide = SourceRows(keeping: CanonicalField.allCases)
        wide.append(0, of: tags.view, row: 4, line: 4)
        #expect(wide[0].values == Self.only([.vtTag], 5) && wide.stride == 100)
    }

    /// The identifiers read alone from a row are those its values hold, in rows of every field, of a few, and of
    /// none of them, whether a row has the identifier or not.
    @Test func identifiersReadAloneAreThoseOfTheValues() {
        let layouts: [[CanonicalField]] = [
            CanonicalField.allCases, [.vtTag, .custodian], [.macAddress, .serialNumber], [.cnsNumber], [.model],
        ]
        for fields in layouts {
            var rows = SourceRows(keeping: fields)
            for index in 0..<24 {
                // Four rows of every six each leave one identifier out.
                var values = Self.only(fields, index)
                switch index % 6 {
                case 1: values.vtTag = nil
                case 2: values.cnsNumber = nil
                case 3: values.macAddress = nil
                case 4: values.serialNumber = nil
                default: break
                }
                rows.append(SourceRecord(row: index + 1, line: index + 1, values: values))
            }
            let view = rows.view
            for index in 0..<rows.count {
                let packed = rows.packed(at: index)
                #expect(view.vtTagNumber(at: index) == packed.vtTag?.number, "\(fields) \(index)")
                #expect(view.cnsNumberValue(at: index) == packed.cnsNumber?.integerKey, "\(fields) \(index)")
                #expect(view.macAddressValue(at: index) == packed.macAddress?.integerKey, "\(fields) \(index)")
                #expect(view.serialCode(at: index) == packed.serialCode, "\(fields) \(index)")
                #expect(
                    (view.vtTagNumber(at: index) != nil) == (fields.contains(.vtTag) && index % 6 != 1),
                    "\(fields) \(index)")
            }
        }
    }

    /// The serial codes of the rows from a position on are replaced, and rows without a serial keep none.
    @Test func serialCodesAreReplacedFromAPositionOn() {
        var rows = SourceRows(keeping: [.vtTag, .serialNumber])
        var packed = PackedValues()
        for index in 0..<6 {
            packed.vtTag = VTTag(number: UInt64(index), digits: 6)
            packed.serialCode = index == 4 ? .none : SerialCode(pendingIndex: Int32(index))
            rows.append(row: Int32(index), line: Int32(index), packed: packed)
        }
        rows.replaceSerialCodes(from: 2) { SerialCode(pooled: $0.pendingIndex! + 1_000) }
        #expect((0..<6).map { rows.packed(at: $0).serialCode.pendingIndex } == [0, 1, nil, nil, nil, nil])
        #expect((0..<6).map { rows.packed(at: $0).serialCode.pooledID } == [nil, nil, 1_002, 1_003, nil, 1_005])
        #expect(rows.packed(at: 4).serialCode.isNone)
        #expect((0..<6).map { rows.packed(at: $0).vtTag?.number } == [0, 1, 2, 3, 4, 5])
    }
}
