/// What makes a finding the same finding from one night to the next, and what it rests on.
///
/// The key holds the code's defining identifiers (DOMAIN.md "Findings across nights"): the tag of a `MISSING`
/// asset, the serial of a `SHARED_SERIAL`, the tag and field of a `FIELD_CONFLICT`, the file, field and cell of an
/// `INVALID_VALUE`. It never holds a row number. The evidence is a fingerprint of the finding's normalized values
/// and the files that produced it: when it changes, an acknowledgement no longer covers the finding.
public enum FindingKey {
    /// The key of `finding`, as `name=value` pairs joined by `|`, for example `vt_tag=0027205|field=room`.
    public static func key(of finding: Discrepancy) -> String {
        let tag = finding.vtTag.map { "vt_tag=\($0)" }
        switch finding.code {
        case .missing, .unrecorded, .noCNS, .stale, .tagCNSMismatch:
            return tag ?? identity(of: finding)
        case .duplicateTag, .fieldConflict:
            return join([tag ?? identity(of: finding), finding.field.map { "field=\($0.rawValue)" }])
        case .sharedSerial:
            return finding.serialNumber.map { "serial_number=\($0)" } ?? identity(of: finding)
        case .sharedMAC:
            return finding.macAddress.map { "mac_address=\($0)" } ?? identity(of: finding)
        case .cnsReused:
            return finding.cnsNumber.map { "cns_number=\($0)" } ?? identity(of: finding)
        case .noTag:
            return identity(of: finding)
        case .possibleTypo:
            return "scanned=\(finding.value)|central=\(finding.expected)"
        case .invalidValue, .unknownBuilding:
            return join([
                file(of: finding), finding.field.map { "field=\($0.rawValue)" }, "value=\(finding.value)",
                identity(of: finding),
            ])
        case .duplicateRow:
            return join([file(of: finding), identity(of: finding)])
        }
    }

    /// A fingerprint of what the finding rests on: its identifiers, field and values, and the names of the files
    /// its rows are in (not the rows, which move when a file is sorted). 16 hex digits.
    ///
    /// Values that change without the finding changing are left out: a `DUPLICATE_ROW`'s value names a row, and a
    /// `STALE` finding's expected date moves with every run date.
    public static func evidence(of finding: Discrepancy) -> String {
        let files = Set(finding.sources.map(\.file)).sorted()
        let value = finding.code == .duplicateRow ? "" : finding.value
        let expected = finding.code == .stale ? "" : finding.expected
        let parts = [
            finding.vtTag?.description ?? "", finding.cnsNumber?.description ?? "",
            finding.serialNumber?.description ?? "", finding.macAddress?.description ?? "",
            finding.field?.rawValue ?? "", value, expected, files.joined(separator: "\u{1f}"),
        ]
        let hash = FindingID.hash(parts.joined(separator: "\u{1e}"))
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The finding's first identifier: its tag, else its serial, MAC or CNS number; `""` when it has none.
    private static func identity(of finding: Discrepancy) -> String {
        if let tag = finding.vtTag { return "vt_tag=\(tag)" }
        if let serial = finding.serialNumber { return "serial_number=\(serial)" }
        if let address = finding.macAddress { return "mac_address=\(address)" }
        if let number = finding.cnsNumber { return "cns_number=\(number)" }
        return ""
    }

    /// The file of the finding's first row, for findings about one file's cells.
    private static func file(of finding: Discrepancy) -> String? {
        finding.sources.first.map { "file=\($0.file)" }
    }

    private static func join(_ parts: [String?]) -> String {
        parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "|")
    }
}
