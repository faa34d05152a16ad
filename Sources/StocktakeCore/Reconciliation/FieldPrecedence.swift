/// The order in which sources are trusted for one field, as an account gives it (`"room": ["survey", "central"]`).
///
/// Each selector names a role (`central`, `sighting`, `register`) or the start of a file name (`survey` matches
/// `survey_zone2.csv`). Sources no selector names keep the default order, after the named ones.
public struct FieldPrecedence: Sendable, Hashable {
    public var selectors: [String]

    public init(_ selectors: [String]) {
        self.selectors = selectors
    }

    /// The position of `file` in this order, or `nil` when no selector names it. An empty selector names no file
    /// (as a prefix it would name every file, putting the central sheet first by accident).
    public func rank(of file: SourceFile) -> Int? {
        let name = file.displayName.lowercased()
        // Display names of files that share a name carry folders (`zone1/survey.csv`); the file name still counts.
        let fileName = name.split(separator: "/").last.map(String.init) ?? name
        for (index, selector) in selectors.enumerated() where !selector.isEmpty {
            let wanted = selector.lowercased()
            if wanted == file.role.rawValue || wanted == file.role.rawValue + "s" || fileName.hasPrefix(wanted)
                || name.hasPrefix(wanted)
            {
                return index
            }
        }
        return nil
    }
}
