/// The discrepancy codes of the reconciliation contract, with their severities.
enum DiscrepancyCode: String, CaseIterable, Sendable, Hashable, Comparable {
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

    /// `error`, `warning` or `info`, as the contract assigns it.
    var severity: String {
        switch self {
        case .missing, .unrecorded, .duplicateTag, .sharedSerial, .sharedMAC, .tagCNSMismatch, .cnsReused:
            return "error"
        case .noTag, .noCNS, .possibleTypo, .fieldConflict, .invalidValue, .unknownBuilding, .stale:
            return "warning"
        case .duplicateRow:
            return "info"
        }
    }

    /// Orders codes by their text, so that sorted lists read alphabetically.
    static func < (lhs: DiscrepancyCode, rhs: DiscrepancyCode) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
