/// What one source column is read into.
public enum ColumnTarget: Sendable, Hashable, CustomStringConvertible {
    /// The column holds one canonical field.
    case field(CanonicalField)
    /// The column holds a GPS position as `lat,lon` and fills both `latitude` and `longitude`.
    case position
    /// The column was explicitly mapped to nothing and is neither read nor listed as unmapped.
    case ignored

    /// Parses the right-hand side of a column mapping: a canonical field name, `gps`, or `ignore`.
    public init?(mappingName: String) {
        let name = mappingName.trimmingSpaces.lowercased()
        if let field = CanonicalField(rawValue: name) {
            self = .field(field)
        } else if ["gps", "position", "latitude,longitude"].contains(name) {
            self = .position
        } else if ["ignore", "ignored", "-", ""].contains(name) {
            self = .ignored
        } else {
            return nil
        }
    }

    /// The name used in mappings and in `stocktake inspect` output.
    public var description: String {
        switch self {
        case .field(let field): field.rawValue
        case .position: "latitude+longitude"
        case .ignored: "(ignored)"
        }
    }

    /// The canonical fields the column fills.
    public var fields: [CanonicalField] {
        switch self {
        case .field(let field): [field]
        case .position: [.latitude, .longitude]
        case .ignored: []
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
