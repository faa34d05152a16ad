/// How urgent a discrepancy is for the clerk.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Something is wrong with the inventory itself: a device is missing, unrecorded or double-tagged.
    case error
    /// Something needs checking but the inventory can stand: conflicting or unusable values.
    case warning
    /// Worth knowing, nothing to fix: a row repeated in one file.
    case info

    /// 0 for errors, 1 for warnings, 2 for info: the listing order.
    public var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .info: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }
}
