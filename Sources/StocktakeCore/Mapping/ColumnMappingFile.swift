import Foundation

/// Reads the extra column mapping a clerk or account gives with `--columns`.
///
/// Two forms are accepted: a JSON object (`{"Asset #": "vt_tag", "Notes": "ignore"}`) or a two-column CSV
/// (`column,field`, an optional header row). Targets are canonical field names, `gps` for a `lat,lon` column,
/// or `ignore`.
public enum ColumnMappingFile {
    /// Parses the mapping in `path`.
    public static func load(path: String) throws(StocktakeError) -> [String: ColumnTarget] {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                if isFolder.boolValue {
                    throw .unreadableInput(path: path, reason: "it is a folder; give the column mapping file")
                }
                throw .unreadableInput(path: path, reason: "it cannot be read (check its permissions)")
            }
            throw .missingInput(path: path, what: "column mapping")
        }
        let text = String(decoding: data, as: UTF8.self)
        // A byte-order mark (Notepad writes one) must not hide the JSON's opening brace.
        let start = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        if start.trimmingSpaces.hasPrefix("{") || start.trimmingSpaces.hasPrefix("[") {
            return try parseJSON(Data(start.utf8), path: path)
        }
        return try parseCSV(text, path: path)
    }

    /// Turns a JSON object of header → target name into targets.
    ///
    /// Headers are checked in sorted order so the error is the same on every run. Two headers that are the same
    /// column once case and punctuation are dropped (`"Tag"`, `"TAG"`) must not map to different targets, since
    /// which one won would otherwise depend on hashing.
    public static func parse(_ pairs: [String: String], path: String) throws(StocktakeError) -> [String: ColumnTarget] {
        var result: [String: ColumnTarget] = [:]
        var byKey: [String: String] = [:]
        for header in pairs.keys.sorted() {
            let name = pairs[header]!
            guard let target = ColumnTarget(mappingName: name) else {
                throw .badColumnMapping(
                    path: path, header: header,
                    reason: "\"\(name)\" is not a field; use one of \(allowedNames)")
            }
            let key = ColumnMapping.key(header)
            if let earlier = byKey[key], result[earlier] != target {
                throw .badColumnMapping(
                    path: path, header: nil,
                    reason: "\"\(earlier)\" and \"\(header)\" name the same column (case, spaces and punctuation do "
                        + "not count) but are mapped differently; keep one")
            }
            byKey[key] = header
            result[header] = target
        }
        return result
    }

    static var allowedNames: String {
        CanonicalField.allCases.map(\.rawValue).joined(separator: ", ") + ", gps or ignore"
    }

    private static func parseJSON(_ data: Data, path: String) throws(StocktakeError) -> [String: ColumnTarget] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .badColumnMapping(path: path, header: nil, reason: "it is not valid JSON")
        }
        guard let dictionary = object as? [String: Any] else {
            throw .badColumnMapping(path: path, header: nil, reason: "it must be a JSON object of column → field")
        }
        var pairs: [String: String] = [:]
        for (header, value) in dictionary {
            guard let name = value as? String else {
                throw .badColumnMapping(path: path, header: header, reason: "the field name must be a string")
            }
            pairs[header] = name
        }
        return try parse(pairs, path: path)
    }

    private static func parseCSV(_ text: String, path: String) throws(StocktakeError) -> [String: ColumnTarget] {
        var reader = CSVReader(bytes: Array(text.utf8), name: (path as NSString).lastPathComponent)
        var pairs: [String: String] = [:]
        var first = true
        do {
            try reader.forEachRecord { record in
                let cells = record.strings
                defer { first = false }
                guard cells.count >= 2 else { return }
                if first, ColumnMapping.key(cells[1]) == "field" { return }
                pairs[cells[0]] = cells[1]
            }
        } catch let error as CSVError {
            var reason = SourceReader.reason(error)
            if reason.hasSuffix(".") { reason.removeLast() }
            throw .badColumnMapping(path: path, header: nil, reason: reason)
        } catch {
            throw .badColumnMapping(path: path, header: nil, reason: "\(error)")
        }
        return try parse(pairs, path: path)
    }
}
