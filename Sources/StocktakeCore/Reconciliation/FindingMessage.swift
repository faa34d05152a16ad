/// Writes a finding's sentence from its data: what was found, where, and what the clerk should check.
///
/// Sentences are written when a table or report needs them, never while reconciling.
public enum FindingMessage {
    /// The sentence of `finding`.
    public static func text(of finding: Discrepancy) -> String {
        let tag = finding.vtTag.map(\.description) ?? ""
        switch finding.detail {
        case .text(let text):
            return text
        case .values(let distinct) where finding.code == .tagCNSMismatch:
            let pairs = distinct.map { "CNS \($0.text) in \(SourceLocation.spoken($0.locations))" }
            return "VT tag \(tag) is paired with " + itemList(pairs, distinct)
                + ". Check the CNS label on the device and correct the wrong record."
        case .values(let distinct):
            let noun = finding.field == .serialNumber ? "serial" : "MAC"
            let devices = distinct.map { "\(noun) \($0.text) in \(SourceLocation.spoken($0.locations))" }
            return "VT tag \(tag) is on \(distinct.count == 2 ? "two" : "\(distinct.count)") devices: "
                + itemList(devices, distinct) + ". Check which device carries the sticker."
        case .conflict(let distinct, let central):
            let field = finding.field?.spokenName ?? "value"
            let listing = distinct.map { "\($0.text) in \(SourceLocation.spoken($0.locations))" }
            var outcome = "The cleaned sheet uses \(distinct[0].text); check the device and correct the other records."
            if let central {
                outcome =
                    "The tag has no row in the cleaned sheet: it is a possible typo of central tag "
                    + "\(central). Check the device and correct the wrong records."
            }
            return "Sources disagree on the \(field) of VT tag \(tag): " + shortened(listing).joined(separator: "; ")
                + ". " + outcome
        case .holders(let key, let holders, let stray):
            let field = finding.field?.spokenName ?? "identifier"
            let named = holders.map { holder -> String in
                let subject =
                    holder.vtTag.map { "VT tag \($0)" }
                    ?? "the untagged device "
                    + identity(serial: holder.serialNumber, mac: holder.macAddress, cns: holder.cnsNumber)
                return "\(subject) (\(SourceLocation.spoken(holder.rows)))"
            }
            var message = "\(field.capitalizedFirst) \(key) is on " + sentenceList(shortened(named)) + "."
            if !stray.isEmpty {
                message += " \(SourceLocation.spoken(stray)) also carries it and could not be matched."
            }
            return message + " A \(field) belongs to one device: check the devices and correct the wrong record."
        case .typo(let scanned, let central, let building, let edit, let shared):
            let place = building.map { ", building \($0)" } ?? ""
            var carried = ""
            if !shared.isEmpty {
                let parts = shared.map { item in
                    "\(item.field.spokenName) \(item.key)"
                        + (item.stray.isEmpty ? "" : " (also in \(SourceLocation.spoken(item.stray)))")
                }
                carried = " Both carry " + sentenceList(parts) + "."
            }
            return "VT tag \(finding.value) in \(SourceLocation.spoken(scanned)) is not in the central sheet, "
                + "and central tag \(tag) (\(SourceLocation.spoken(central))\(place)) was not seen; "
                + "\(edit).\(carried) Check the sticker on the device and correct whichever number is wrong."
        case .missing(let central, let building, let room):
            var whereabouts = " Look for the device, or retire it in the central sheet."
            if let building {
                whereabouts =
                    " Look for it in building \(building)" + (room.map { " room \($0)" } ?? "")
                    + ", or retire it in the central sheet."
            }
            let detail = [finding.serialNumber.map { "serial \($0)" }, finding.cnsNumber.map { "CNS \($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
            return "VT tag \(tag)\(detail.isEmpty ? "" : " (\(detail))") is in \(SourceLocation.spoken(central)) "
                + "but no sighting file has seen it." + whereabouts
        case .rows(let rows) where finding.code == .noTag:
            let identity = identity(serial: finding.serialNumber, mac: finding.macAddress, cns: finding.cnsNumber)
            return "A device with \(identity) is in \(SourceLocation.spoken(rows)) but no VT tag "
                + "is linked to it in any file. Find the device and record its tag."
        case .rows(let rows) where finding.code == .noCNS:
            return "VT tag \(tag) (\(SourceLocation.spoken(rows))) has no CNS number in any file. "
                + "Read the CNS label on the device and add it to the central sheet."
        case .rows(let rows):
            return "VT tag \(tag) is in \(SourceLocation.spoken(rows)) but not in the central sheet. "
                + "Add it to the central sheet if the device is real, or check the tag number."
        case .stale(let seen, let days, let asOf):
            return "VT tag \(tag) was last seen on \(finding.value) (\(seen.spoken)), more than \(days) days before "
                + "\(asOf). Scan it at the next walk-through, or check that it is still there."
        case .cell(let kind, let reason, let column, let line):
            return cellMessage(finding, kind: kind, reason: reason, column: column, line: line)
        case .repeatedRow:
            let first = finding.sources.first ?? SourceLocation(file: "", row: 0)
            let repeated = finding.sources.last ?? first
            return "\(first.file) row \(repeated.row) repeats row \(first.row) exactly; it was counted once. "
                + "Remove the repeated row."
        }
    }

    private static func cellMessage(
        _ finding: Discrepancy, kind: RowIssue.Kind, reason: String, column: String?, line: Int
    ) -> String {
        var place = SourceLocation.spoken(finding.sources)
        if kind == .damagedText, finding.sources.count == 1 { place += " (line \(line))" }
        let owner = finding.vtTag.map { " (VT tag \($0))" } ?? ""
        switch kind {
        case .raggedRow, .noIdentifier:
            return "\(place)\(owner) \(reason). "
                + (kind == .raggedRow
                    ? "The row was read as far as its cells go." : "Add an identifier or remove the row.")
        case .unknownBuilding:
            return "The building \"\(finding.value)\" in \(place)\(owner) is not in the buildings table. "
                + "Correct the building or add it to the buildings table."
        case .invalidValue, .damagedText:
            let subject = finding.field?.spokenName ?? column.map { "cell in column \"\($0)\"" } ?? "cell"
            return "The \(subject) \"\(finding.value)\" in \(place)\(owner) \(reason). "
                + (kind == .damagedText ? "Check the cell." : "It was left out; correct the cell.")
        }
    }

    /// "serial X and MAC Y", or "CNS Z" for a device known by neither.
    static func identity(serial: SerialNumber?, mac: MACAddress?, cns: CNSNumber?) -> String {
        var parts: [String] = []
        if let serial { parts.append("serial \(serial)") }
        if let mac { parts.append("MAC \(mac)") }
        if parts.isEmpty, let cns { parts.append("CNS \(cns)") }
        return parts.joined(separator: " and ")
    }

    /// Items that each name their rows: joined with "and" while every item has one row, else with semicolons so
    /// the rows of one item do not run into the next.
    static func itemList(_ parts: [String], _ values: [FindingValue]) -> String {
        guard values.contains(where: { $0.locations.count > 1 }) else { return sentenceList(shortened(parts)) }
        return shortened(parts).joined(separator: "; ")
    }

    /// Items of a message, at most `limit` of them and a count of the rest, so a message stays readable (and far
    /// below a spreadsheet cell's 32,767 characters) when thousands of rows share a value.
    static func shortened(_ parts: [String], limit: Int = 6) -> [String] {
        guard parts.count > limit + 1 else { return parts }
        return Array(parts.prefix(limit)) + ["\(parts.count - limit) more"]
    }

    static func sentenceList(_ parts: [String]) -> String {
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}

extension String {
    /// The string with its first letter upper-cased ("serial number" → "Serial number").
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
