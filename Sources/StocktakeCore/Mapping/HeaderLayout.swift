/// How the columns of one spreadsheet map onto canonical fields, decided from its header row.
public struct HeaderLayout: Sendable {
    /// The header cells exactly as parsed.
    public let parsedHeader: [String]
    /// The header cells as read, without trailing empty cells.
    public let header: [String]
    /// The target of each header column; `nil` for unmapped columns and for repeats of an already-mapped field.
    public let targets: [ColumnTarget?]
    /// Names of the columns that map to nothing, in file order (empty names are shown as "(column N)").
    public let unmapped: [String]
    /// Remarks about the header a clerk should see, such as two columns mapping to the same field.
    public let notes: [String]

    public init(header rawHeader: [String], mapping: ColumnMapping) {
        var header = rawHeader
        while let last = header.last, last.trimmingSpaces.isEmpty { header.removeLast() }
        var targets: [ColumnTarget?] = []
        var unmapped: [String] = []
        var notes: [String] = []
        var filled: [CanonicalField: String] = [:]
        for (index, name) in header.enumerated() {
            let label = Self.label(name, index: index)
            guard let target = mapping.target(forHeader: name) else {
                targets.append(nil)
                unmapped.append(label)
                continue
            }
            if let taken = target.fields.first(where: { filled[$0] != nil }), let first = filled[taken] {
                notes.append(
                    "Columns \"\(first)\" and \"\(label)\" both hold \(taken.rawValue); only \"\(first)\" is read.")
                targets.append(nil)
                continue
            }
            for field in target.fields { filled[field] = label }
            targets.append(target)
        }
        self.parsedHeader = rawHeader
        self.header = header
        self.targets = targets
        self.unmapped = unmapped
        self.notes = notes
    }

    /// The number of columns the header defines.
    public var width: Int { header.count }

    /// Whether some column holds a VT tag, CNS number, serial number or MAC address.
    public var hasIdentifier: Bool {
        targets.contains { target in target?.fields.contains(where: \.isIdentifier) ?? false }
    }

    /// Whether some column holds `field`.
    public func maps(_ field: CanonicalField) -> Bool {
        targets.contains { $0?.fields.contains(field) ?? false }
    }

    /// The mapped columns as (column index, target) pairs, for reading rows.
    public var plan: [(column: Int, target: ColumnTarget)] {
        targets.enumerated().compactMap { index, target in
            guard let target, target != .ignored else { return nil }
            return (index, target)
        }
    }

    /// The name a column is shown with: its header, or "(column N)" when the header cell is empty.
    public static func label(_ name: String, index: Int) -> String {
        let trimmed = name.trimmingSpaces
        return trimmed.isEmpty ? "(column \(index + 1))" : trimmed
    }
}
