import Testing

@testable import StocktakeCore

@Suite("Discrepancy: fields and the listing order")
struct DiscrepancyTests {
    static func make(
        _ code: DiscrepancyCode, tag: UInt64? = nil, serial: String? = nil, mac: UInt64? = nil, cns: UInt64? = nil,
        field: CanonicalField? = nil, value: String = "", row: Int = 1, message: String = ""
    ) -> Discrepancy {
        Discrepancy(
            code: code, vtTag: tag.map { VTTag(number: $0, digits: 6) },
            cnsNumber: cns.map { CNSNumber(number: $0, digits: 6) }, serialNumber: serial.flatMap(SerialNumber.init),
            macAddress: mac.map(MACAddress.init), field: field, value: value,
            sources: [SourceLocation(file: "a.csv", row: row)], message: message)
    }

    @Test func initializerDefaultsAndSeverity() {
        let discrepancy = Discrepancy(code: .noCNS, sources: [], message: "m")
        #expect(discrepancy.vtTag == nil)
        #expect(discrepancy.cnsNumber == nil)
        #expect(discrepancy.serialNumber == nil)
        #expect(discrepancy.macAddress == nil)
        #expect(discrepancy.field == nil)
        #expect(discrepancy.value == "")
        #expect(discrepancy.expected == "")
        #expect(discrepancy.severity == .warning)
        #expect(Self.make(.duplicateRow).severity == .info)
        #expect(Self.make(.cnsReused).severity == .error)
    }

    /// Each element is listed before the next; the test sorts every rotation of the list back into this order.
    static let ordered: [Discrepancy] = [
        // Errors first, even when the code comes later in the table than a warning's.
        make(.missing, tag: 1),
        make(.missing, tag: 2),
        make(.missing),
        make(.duplicateTag, tag: 1),
        make(.cnsReused, cns: 5),
        // Then warnings: a tag before no tag, then serial, MAC and CNS (absent before present).
        make(.noTag, tag: 3),
        make(.noTag, mac: 2),
        make(.noTag, serial: "A1", mac: 9),
        make(.noTag, serial: "B1", mac: 1),
        make(.noTag, serial: "B1", mac: 2),
        make(.noTag, serial: "B1", mac: 2, cns: 7),
        make(.noTag, serial: "B1", mac: 2, cns: 8),
        // Then the field by name, the value, and the first row.
        make(.fieldConflict, tag: 1, field: .building, value: "Z"),
        make(.fieldConflict, tag: 1, field: .mount, value: "A"),
        make(.fieldConflict, tag: 1, field: .room, value: "101"),
        make(.fieldConflict, tag: 1, field: .room, value: "99"),
        make(.invalidValue, value: "x", row: 2),
        make(.invalidValue, value: "x", row: 10),
        make(.duplicateRow, tag: 1),
    ]

    @Test func discrepanciesAreListedBySeverityCodeTagIdentifiersFieldValueAndRow() {
        for shift in Self.ordered.indices {
            let rotated = Array(Self.ordered[shift...] + Self.ordered[..<shift])
            let sorted = rotated.sorted(by: Discrepancy.listedBefore)
            #expect(sorted == Self.ordered, "rotation \(shift)")
            #expect(rotated.reversed().sorted(by: Discrepancy.listedBefore) == Self.ordered, "reversed \(shift)")
        }
    }

    @Test func theOrderIsStrict() {
        for (index, lhs) in Self.ordered.enumerated() {
            #expect(!Discrepancy.listedBefore(lhs, lhs), "\(index)")
            for rhs in Self.ordered[(index + 1)...] {
                #expect(Discrepancy.listedBefore(lhs, rhs), "\(index) before \(rhs)")
                #expect(!Discrepancy.listedBefore(rhs, lhs), "\(index) after \(rhs)")
            }
        }
        // The message does not take part in the order.
        #expect(!Discrepancy.listedBefore(Self.make(.stale, message: "a"), Self.make(.stale, message: "b")))
        #expect(!Discrepancy.listedBefore(Self.make(.stale, message: "b"), Self.make(.stale, message: "a")))
    }
}
