/// `discrepancies.csv`: one row per finding, most severe first.
public enum DiscrepancyTable {
    /// The header of `discrepancies.csv`.
    public static let columns = [
        "code", "severity", "vt_tag", "cns_number", "serial_number", "mac_address", "field", "value", "expected",
        "sources", "message", "id", "first_seen", "state",
    ]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        let statuses = reconciliation.statuses
        return TableFile.bytes(header: columns, rowCount: reconciliation.discrepancies.count) {
            row(reconciliation.discrepancies[$0], status: statuses[$0])
        }
    }

    /// The file as `PieceWriter` writes it; `messages` are the findings' sentences (`Discrepancy.message`), made
    /// once for this file and `discrepancies.xlsx` (`messages(of:)`).
    static func writer(
        _ reconciliation: Reconciliation, messages: [String], to path: String, synchronizingFolder: Bool = false
    ) -> TableFile {
        let discrepancies = reconciliation.discrepancies
        let statuses = reconciliation.statuses
        return TableFile(
            header: columns, rowCount: discrepancies.count,
            row: {
                append(discrepancies[$0], status: statuses[$0], message: messages[$0], to: &$1)
            }, to: path, synchronizingFolder: synchronizingFolder)
    }

    /// The sentence of each finding of `reconciliation`, in order, made on all cores.
    ///
    /// A sentence costs thousands of instructions to write (its sources spoken, its values listed), and both
    /// `discrepancies.csv` and `discrepancies.xlsx` show it: a run makes each once and gives them to both.
    static func messages(of reconciliation: Reconciliation) -> [String] {
        let discrepancies = reconciliation.discrepancies
        return Parallel.map(discrepancies.count) { discrepancies[$0].message }
    }

    /// Appends the row of one discrepancy whose sentence is `message`: the bytes `CSVWriter.appendRow` writes of
    /// `row(_:status:message:)`, written straight from the finding's values instead of from an array of `String`s
    /// made for the row.
    static func append<Output: ByteSink & ~Copyable>(
        _ discrepancy: Discrepancy, status: FindingStatus, message: String, to output: inout Output
    ) {
        appendText(discrepancy.code.rawValue, to: &output)
        appendText(discrepancy.severity.rawValue, to: &output)
        // Tags, CNS numbers, MAC addresses, ids and dates are digits, letters, colons and dashes: never quoted, never
        // a formula.
        if let tag = discrepancy.vtTag { CanonicalText.append(tag, to: &output) }
        output.append(ASCII.comma)
        if let number = discrepancy.cnsNumber { CanonicalText.append(number, to: &output) }
        output.append(ASCII.comma)
        appendText(discrepancy.serialNumber?.text, to: &output)
        if let address = discrepancy.macAddress { CanonicalText.append(address, to: &output) }
        output.append(ASCII.comma)
        appendText(discrepancy.field?.rawValue, to: &output)
        appendText(discrepancy.value, to: &output)
        appendText(discrepancy.expected, to: &output)
        // The sources are one cell, quoted and neutralized as a whole: gathered first, as `description` spells each.
        var sources = ByteBuffer()
        for (index, source) in discrepancy.sources.enumerated() {
            if index > 0 { sources.append("; ") }
            sources.append(utf8: source.file)
            sources.append(UInt8(ascii: ":"))
            if source.row >= 0 {
                CanonicalText.append(UInt64(source.row), digits: 1, to: &sources)
            } else {
                sources.append(utf8: String(source.row))
            }
        }
        sources.withUnsafeBufferPointer { CSVWriter.appendField($0, to: &output) }
        output.append(ASCII.comma)
        appendText(status.note.isEmpty ? message : message + " " + status.note, to: &output)
        status.id.append(to: &output)
        output.append(ASCII.comma)
        CanonicalText.append(status.firstSeen, to: &output)
        output.append(ASCII.comma)
        CSVWriter.appendField(status.state.rawValue, to: &output)
        CSVWriter.appendLineEnd(to: &output)
    }

    /// Appends one cell of text (none for `nil`), neutralized and quoted as needed, and the comma after it.
    private static func appendText<Output: ByteSink & ~Copyable>(_ text: String?, to output: inout Output) {
        if let text { CSVWriter.appendField(text, to: &output) }
        output.append(ASCII.comma)
    }

    /// The cells of one discrepancy, in column order; the status's note, when it has one, follows the message.
    public static func row(_ discrepancy: Discrepancy, status: FindingStatus) -> [String] {
        row(discrepancy, status: status, message: discrepancy.message)
    }

    /// The cells of one discrepancy whose sentence (`Discrepancy.message`) is `message`, made already.
    static func row(_ discrepancy: Discrepancy, status: FindingStatus, message: String) -> [String] {
        let message = status.note.isEmpty ? message : message + " " + status.note
        return [
            discrepancy.code.rawValue, discrepancy.severity.rawValue, discrepancy.vtTag?.description ?? "",
            discrepancy.cnsNumber?.description ?? "", discrepancy.serialNumber?.description ?? "",
            discrepancy.macAddress?.description ?? "", discrepancy.field?.rawValue ?? "", discrepancy.value,
            discrepancy.expected, discrepancy.sources.map(\.description).joined(separator: "; "), message,
            status.id.description, status.firstSeen.description, status.state.rawValue,
        ]
    }
}
