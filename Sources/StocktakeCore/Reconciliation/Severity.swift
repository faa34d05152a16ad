/// How urgent a discrepancy is for the clerk.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Something is wrong with the inventory itself: a device is missing, unrecorded or double-tagged.
    case error
    /// Something needs checking but the inventory can stand: conflicting or unusable values.
    case warning
    /// Worth knowing, nothing to fix: a row repeated in one file.
    case info

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
