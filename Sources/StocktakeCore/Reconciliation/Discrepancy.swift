/// One finding of a reconciliation, as written to `discrepancies.csv`.
public struct Discrepancy: Sendable, Hashable {
    public var code: DiscrepancyCode
    public var vtTag: VTTag?
    public var cnsNumber: CNSNumber?
    public var serialNumber: SerialNumber?
    public var macAddress: MACAddress?
    /// The field concerned, for field-level findings (`room` for a conflict, `mac_address` for a bad MAC).
    public var field: CanonicalField?
    /// The value found (a scanned tag, a winning value, a cell as typed).
    public var value: String
    /// The value expected or competing with it (the central tag, the losing values).
    public var expected: String
    /// The rows involved.
    public var sources: [SourceLocation]
    /// What the finding's sentence names beyond the columns above.
    public var detail: FindingDetail

    /// A sentence the clerk understands: what was found, where, and what to check. Written from the finding's
    /// data each time it is asked for.
    public var message: String { FindingMessage.text(of: self) }

    /// A finding whose sentence is given whole.
    public init(
        code: DiscrepancyCode, vtTag: VTTag? = nil, cnsNumber: CNSNumber? = nil, serialNumber: SerialNumber? = nil,
        macAddress: MACAddress? = nil, field: CanonicalField? = nil, value: String = "", expected: String = "",
        sources: [SourceLocation], message: String
    ) {
        self.init(
            code: code, vtTag: vtTag, cnsNumber: cnsNumber, serialNumber: serialNumber, macAddress: macAddress,
            field: field, value: value, expected: expected, sources: sources, detail: .text(message))
    }

    /// A finding whose sentence is written from its data.
    public init(
        code: DiscrepancyCode, vtTag: VTTag? = nil, cnsNumber: CNSNumber? = nil, serialNumber: SerialNumber? = nil,
        macAddress: MACAddress? = nil, field: CanonicalField? = nil, value: String = "", expected: String = "",
        sources: [SourceLocation], detail: FindingDetail
    ) {
        self.code = code
        self.vtTag = vtTag
        self.cnsNumber = cnsNumber
        self.serialNumber = serialNumber
        self.macAddress = macAddress
        self.field = field
        self.value = value
        self.expected = expected
        self.sources = sources
        self.detail = detail
    }

    public var severity: Severity { code.severity }

    /// The order discrepancies are listed in: most severe first, then by code, tag and the rest.
    public static func listedBefore(_ lhs: Discrepancy, _ rhs: Discrepancy) -> Bool {
        if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
        if lhs.code != rhs.code { return lhs.code < rhs.code }
        if lhs.vtTag != rhs.vtTag {
            guard let left = lhs.vtTag else { return false }
            guard let right = rhs.vtTag else { return true }
            return left < right
        }
        let left = [lhs.serialNumber?.description, lhs.macAddress?.description, lhs.cnsNumber?.description]
        let right = [rhs.serialNumber?.description, rhs.macAddress?.description, rhs.cnsNumber?.description]
        for (a, b) in zip(left, right) where a != b { return (a ?? "") < (b ?? "") }
        if lhs.field != rhs.field { return (lhs.field?.rawValue ?? "") < (rhs.field?.rawValue ?? "") }
        if lhs.value != rhs.value { return lhs.value < rhs.value }
        return (lhs.sources.first ?? SourceLocation(file: "", row: 0))
            < (rhs.sources.first ?? SourceLocation(file: "", row: 0))
    }
}
