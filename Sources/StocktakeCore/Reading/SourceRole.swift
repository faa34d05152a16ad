/// What a source spreadsheet is evidence of.
public enum SourceRole: String, Sendable, Hashable, CaseIterable {
    /// The account's system of record: the central asset sheet. One per account.
    case central
    /// Evidence that a device physically exists: installer scans, controller exports, receiving lists.
    case sighting
    /// Records about assets that are not physical evidence: tag and CNS registers, custodians, billing.
    case register
}
