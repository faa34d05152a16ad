/// The order a device's findings are listed in on the report: the most telling first, the finding that explains
/// the others before them.
///
/// A POSSIBLE_TYPO explains the SHARED_SERIAL or SHARED_MAC of its two tags and why the central tag was not seen, so
/// it comes first; a tag on two devices (DUPLICATE_TAG) or paired with two CNS numbers explains shared identifiers
/// next; presence findings (MISSING, UNRECORDED, STALE) say where to look before the field-level ones say what to
/// correct; a repeated row explains nothing and comes last.
public enum FindingRanking {
    /// The codes, most telling first. Every code appears once.
    public static let order: [DiscrepancyCode] = [
        .possibleTypo, .duplicateTag, .tagCNSMismatch, .missing, .unrecorded, .noTag, .sharedSerial, .sharedMAC,
        .cnsReused, .stale, .fieldConflict, .unknownBuilding, .invalidValue, .noCNS, .duplicateRow,
    ]

    private static let positions = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })

    /// The code's position in `order`: lower is more telling.
    public static func position(of code: DiscrepancyCode) -> Int {
        positions[code]!
    }

    /// Whether `lhs` is listed before `rhs` on a device: the more telling code first, then the findings' own order.
    public static func isMoreTelling(_ lhs: Discrepancy, than rhs: Discrepancy) -> Bool {
        let left = position(of: lhs.code)
        let right = position(of: rhs.code)
        return left != right ? left < right : Discrepancy.listedBefore(lhs, rhs)
    }
}
