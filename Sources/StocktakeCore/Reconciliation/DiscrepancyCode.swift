/// The stable codes of everything a reconciliation reports. Codes and severities are a public contract.
public enum DiscrepancyCode: String, Sendable, Hashable, CaseIterable, Comparable {
    case missing = "MISSING"
    case unrecorded = "UNRECORDED"
    case noTag = "NO_TAG"
    case duplicateTag = "DUPLICATE_TAG"
    case sharedSerial = "SHARED_SERIAL"
    case sharedMAC = "SHARED_MAC"
    case tagCNSMismatch = "TAG_CNS_MISMATCH"
    case cnsReused = "CNS_REUSED"
    case noCNS = "NO_CNS"
    case possibleTypo = "POSSIBLE_TYPO"
    case fieldConflict = "FIELD_CONFLICT"
    case invalidValue = "INVALID_VALUE"
    case unknownBuilding = "UNKNOWN_BUILDING"
    case stale = "STALE"
    case duplicateRow = "DUPLICATE_ROW"

    /// The severity that goes with the code.
    public var severity: Severity {
        switch self {
        case .missing, .unrecorded, .duplicateTag, .sharedSerial, .sharedMAC, .tagCNSMismatch, .cnsReused: .error
        case .noTag, .noCNS, .possibleTypo, .fieldConflict, .invalidValue, .unknownBuilding, .stale: .warning
        case .duplicateRow: .info
        }
    }

    /// When the code is reported, in the words of the README's table.
    public var meaning: String {
        switch self {
        case .missing: "A central asset that no sighting row matches."
        case .unrecorded: "A VT tag known from some source but absent from the central sheet."
        case .noTag: "A device seen by serial number or MAC address that no VT tag can be linked to."
        case .duplicateTag: "One VT tag on two physical devices: its rows carry different serial numbers or MACs."
        case .sharedSerial: "One serial number on two or more VT tags."
        case .sharedMAC: "One MAC address on two or more VT tags."
        case .tagCNSMismatch: "One VT tag paired with two different CNS numbers."
        case .cnsReused: "One CNS number paired with two or more VT tags."
        case .noCNS: "A central asset with no CNS number in any source."
        case .possibleTypo: "An unknown VT tag one digit away from a missing central tag, in the same building."
        case .fieldConflict: "Sources disagree on the model, building, room, mount or custodian."
        case .invalidValue: "A value that cannot be read (bad MAC, tag in scientific notation, bad date or GPS)."
        case .unknownBuilding: "A building that is not in the buildings table."
        case .stale: "A central asset whose newest sighting is older than the staleness limit."
        case .duplicateRow: "The same row repeated in one file; it counts once."
        }
    }

    /// The code's position in the listing order (the order of DOMAIN.md's table).
    public var rank: Int { Self.ranks[self]! }

    private static let ranks = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })

    public static func < (lhs: DiscrepancyCode, rhs: DiscrepancyCode) -> Bool {
        lhs.rank < rhs.rank
    }
}
