/// One discrepancy the reconciler must find in a generated account, as a row of `expected.csv`.
///
/// An expected row matches a found discrepancy when the codes are equal and every non-empty column from
/// `vtTag` to `expected` equals the found one; empty columns are not constrained. Identifiers are canonical.
public struct ExpectedDiscrepancy: Sendable, Hashable, Comparable {
    /// The discrepancy code, such as `MISSING`.
    public var code: String
    /// `error`, `warning` or `info`.
    public var severity: String
    /// The canonical VT tag, or empty.
    public var vtTag: String
    /// The canonical CNS number, or empty.
    public var cnsNumber: String
    /// The canonical serial number, or empty.
    public var serialNumber: String
    /// The canonical MAC address, or empty.
    public var macAddress: String
    /// The canonical field name, or empty.
    public var field: String
    /// The reported value, or empty.
    public var value: String
    /// The reported expected value, or empty.
    public var expected: String
    /// How the discrepancy was injected, in words, naming the file and row; never compared.
    public var note: String

    /// The columns of `expected.csv`, in order.
    public static let columns = [
        "code", "severity", "vt_tag", "cns_number", "serial_number", "mac_address", "field", "value", "expected",
        "note",
    ]

    /// An expected discrepancy; unconstrained columns stay empty.
    public init(
        code: String, severity: String, vtTag: String = "", cnsNumber: String = "", serialNumber: String = "",
        macAddress: String = "", field: String = "", value: String = "", expected: String = "", note: String = ""
    ) {
        self.code = code
        self.severity = severity
        self.vtTag = vtTag
        self.cnsNumber = cnsNumber
        self.serialNumber = serialNumber
        self.macAddress = macAddress
        self.field = field
        self.value = value
        self.expected = expected
        self.note = note
    }

    /// The cells of this row, in the order of ``columns``.
    public var cells: [String] {
        [code, severity, vtTag, cnsNumber, serialNumber, macAddress, field, value, expected, note]
    }

    /// Orders rows by their cells from left to right, the order of `expected.csv`.
    public static func < (lhs: ExpectedDiscrepancy, rhs: ExpectedDiscrepancy) -> Bool {
        lhs.cells.lexicographicallyPrecedes(rhs.cells)
    }
}
