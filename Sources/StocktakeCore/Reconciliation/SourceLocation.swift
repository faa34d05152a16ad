/// A data row of a named source file, as the clerk looks it up: `survey_zone2.csv:88`.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's display name.
    public var file: String
    /// The 1-based data row (the header is not counted).
    public var row: Int

    public init(file: String, row: Int) {
        self.file = file
        self.row = row
    }

    /// `file:row`, the form of the `sources` column.
    public var description: String { "\(file):\(row)" }

    /// "survey_zone2.csv row 88", the form used in messages.
    public var spoken: String { "\(file) row \(row)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.row) < (rhs.file, rhs.row)
    }

    /// Locations as the `sources` cell writes them (`a.csv:3; b.csv:9`), shortened after `limit` for the report.
    public static func listed(_ locations: [SourceLocation], limit: Int = 20) -> String {
        var text = locations.prefix(limit).map(\.description).joined(separator: "; ")
        if locations.count > limit { text += "; and \(locations.count - limit) more" }
        return text
    }

    /// Locations in a sentence: "a.csv row 3, a.csv row 9 and b.csv row 2", shortened after `limit`.
    public static func spoken(_ locations: [SourceLocation], limit: Int = 6) -> String {
        let shown = locations.prefix(limit).map(\.spoken)
        let rest = locations.count - shown.count
        var parts = Array(shown)
        if rest > 0 { parts.append("\(rest) more") }
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}
