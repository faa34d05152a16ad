/// How one spreadsheet is read: the answer to the clerk's "why wasn't my column picked up?".
///
/// It shows the delimiter and encoding found (for a workbook, the sheet read and the sheets there are), each header
/// and the field it maps to, the unmapped columns, the row count, and every problem with its line number (a
/// workbook's row number); optionally every cell exactly as parsed.
public struct Inspection: Sendable {
    /// What a workbook holds: the sheet read and every worksheet in tab order.
    public struct Worksheets: Sendable, Equatable {
        public var read: WorkbookSheet
        public var all: [WorkbookSheet]
    }

    /// One problem, located.
    public struct Problem: Sendable, Hashable {
        public var line: Int
        public var row: Int?
        public var column: String?
        public var message: String
    }

    public var file: SourceFile
    /// The sheets of a workbook; `nil` for a text file.
    public var worksheets: Worksheets?
    public var layout: HeaderLayout
    public var delimiter: Delimiter
    public var hadByteOrderMark: Bool
    /// The encoding the file was read in.
    public var textEncoding: TextEncoding
    public var lineEnding: String?
    /// Lines with bytes that are not UTF-8.
    public var invalidUTF8Lines: [Int]
    /// The line the header row is on (0 for an empty file).
    public var headerLine: Int
    public var rowCount: Int
    public var problems: [Problem]
    /// Problems found beyond `problemLimit`, counted but not listed.
    public var problemsNotListed = 0
    /// Data records exactly as parsed (only filled when rows were asked for).
    public var rows: [[String]]

    /// Reads `path` with `mapping` (for a workbook, its sheet named `sheet`, else its first visible one);
    /// `keepRows` keeps every parsed cell for `--rows`.
    public static func inspect(path: String, sheet: String? = nil, mapping: ColumnMapping, keepRows: Bool)
        throws(StocktakeError) -> Inspection
    {
        let file = SourceFile(path: path, role: .sighting, sheet: sheet)
        var reader = SourceReader(mapping: mapping)
        reader.keepsRecords = false
        reader.issueLimit = problemLimit
        // Rows are counted, not kept, so any number fits in memory; cells and rows stay bounded.
        reader.limits.maxRows = Int.max
        if SourceFormat.of(path: path) == .workbook {
            return try inspectWorkbook(file, reader: reader, keepRows: keepRows)
        }
        let data = try reader.read(file)
        var raw: CSVReader
        do {
            raw = try CSVReader(path: path)
        } catch {
            throw SourceReader.translate(error, file: file)
        }
        var rows: [[String]] = []
        var invalidLines: [Int] = []
        do {
            try raw.forEachRecord { record in
                for problem in record.problems where problem.kind == .invalidUTF8 {
                    if invalidLines.last != problem.line { invalidLines.append(problem.line) }
                }
                // The header and the empty rows above it are not data rows.
                if keepRows && record.line > data.headerLine && data.headerLine > 0 {
                    rows.append(record.strings)
                }
            }
        } catch {
            throw .badData(path: path, reason: "\(error)")
        }
        let problems = problems(of: data)
        return Inspection(
            file: file, layout: data.layout, delimiter: raw.delimiter, hadByteOrderMark: raw.hadByteOrderMark,
            textEncoding: raw.encoding, lineEnding: raw.lineEnding, invalidUTF8Lines: invalidLines,
            headerLine: data.headerLine,
            rowCount: data.rowCount,
            problems: problems, problemsNotListed: data.omittedIssues + max(0, data.repeatedRows.count - problemLimit),
            rows: rows)
    }

    /// Reads the sheet of a workbook `file`: its rows are cells, not lines, so it has no delimiter, encoding or line
    /// ends, and no bytes that are not UTF-8.
    private static func inspectWorkbook(_ file: SourceFile, reader: SourceReader, keepRows: Bool)
        throws(StocktakeError) -> Inspection
    {
        let source = try WorkbookSource(file: file).opened()
        let (all, read) = try source.sheets()
        let data = try source.read(with: reader)
        var rows: [[String]] = []
        if keepRows { try source.forEachRowAfterHeader { rows.append($0) } }
        return Inspection(
            file: file, worksheets: Worksheets(read: read, all: all), layout: data.layout, delimiter: .comma,
            hadByteOrderMark: false, textEncoding: .utf8, lineEnding: nil, invalidUTF8Lines: [],
            headerLine: data.headerLine, rowCount: data.rowCount, problems: problems(of: data),
            problemsNotListed: data.omittedIssues + max(0, data.repeatedRows.count - problemLimit), rows: rows)
    }

    /// The problems of a reading, in line order: notes on the header, a header without an identifier, cell
    /// problems and repeated rows.
    private static func problems(of data: SourceData) -> [Problem] {
        var problems = data.layout.notes.map { Problem(line: data.headerLine, row: nil, column: nil, message: $0) }
        if data.headerLine > 0 && !data.layout.hasIdentifier {
            problems.append(
                Problem(
                    line: data.headerLine, row: nil, column: nil,
                    message:
                        "No column holds a VT tag, CNS number, serial number or MAC address; map one with --columns."
                ))
        }
        for issue in data.issues {
            let subject = issue.column.map { "column \"\($0)\": \"\(issue.value)\" " } ?? ""
            problems.append(
                Problem(
                    line: issue.line, row: issue.row, column: issue.column,
                    message: "row \(issue.row): \(subject)\(issue.reason)"))
        }
        for repeated in data.repeatedRows.prefix(problemLimit) {
            let first = repeated.firstRow
            problems.append(
                Problem(
                    line: repeated.line, row: repeated.row, column: nil,
                    message: "row \(repeated.row) repeats row \(first) exactly; it counts once"))
        }
        problems.sort { ($0.line, $0.row ?? 0) < ($1.line, $1.row ?? 0) }
        return problems
    }

    /// Problems listed at most per kind (cell problems, repeated rows); the rest are counted.
    public static let problemLimit = 1000

    /// Calls `body` with every data row of `path`, each cell exactly as parsed, without keeping them: `--rows` on a
    /// file of any size.
    public static func forEachRow(path: String, sheet: String? = nil, _ body: ([String]) -> Void)
        throws(StocktakeError)
    {
        let file = SourceFile(path: path, role: .sighting, sheet: sheet)
        if SourceFormat.of(path: path) == .workbook {
            try WorkbookSource(file: file).forEachRowAfterHeader(body)
            return
        }
        var raw: CSVReader
        do {
            raw = try CSVReader(path: path)
        } catch {
            throw SourceReader.translate(error, file: file)
        }
        var sawHeader = false
        do {
            try raw.forEachRecord { record in
                if sawHeader {
                    body(record.strings)
                } else if (0..<record.count).contains(where: { ByteTrim.trimmed(record[$0]).count > 0 }) {
                    sawHeader = true
                }
            }
        } catch {
            throw .badData(path: path, reason: "\(error)")
        }
    }

    /// The encoding as the clerk reads it.
    public var encoding: String {
        switch textEncoding {
        case .utf16LittleEndian, .utf16BigEndian: return textEncoding.rawValue + " with byte-order mark"
        case .windows1252: return "Windows-1252 (it is not UTF-8; save it as \"CSV UTF-8\" to be sure)"
        case .utf8: break
        }
        var text = hadByteOrderMark ? "UTF-8 with byte-order mark" : "UTF-8"
        if !invalidUTF8Lines.isEmpty {
            let lines = invalidUTF8Lines.prefix(5).map(String.init).joined(separator: ", ")
            text += " (bytes that are not UTF-8 on line\(invalidUTF8Lines.count > 1 ? "s" : "") \(lines)"
            text += invalidUTF8Lines.count > 5 ? " and \(invalidUTF8Lines.count - 5) more)" : ")"
        }
        return text
    }

    /// The report for people. Paths, headers, messages and cells come from the file, so their control characters
    /// are escaped (`ControlCharacters`): a cell holding a line break cannot start a line of its own.
    public var text: String {
        let safe = ControlCharacters.escaped
        var lines = ["File:       \(safe(file.path))"]
        if let worksheets {
            lines.append("Format:     .xlsx workbook")
            lines.append("Sheet:      \(safe(worksheets.read.name))" + (worksheets.read.isHidden ? " (hidden)" : ""))
            let names = worksheets.all.map { safe($0.name) + ($0.isHidden ? " (hidden)" : "") }
            lines.append("Sheets:     " + names.joined(separator: ", "))
        } else {
            lines.append("Delimiter:  \(delimiter.name)")
            lines.append("Encoding:   \(encoding)")
            lines.append("Line ends:  \(lineEnding ?? "none")")
        }
        let place = worksheets == nil ? "line" : "row"
        lines.append(
            "Rows:       \(rowCount) data rows" + (headerLine > 0 ? " after the header on \(place) \(headerLine)" : ""))
        lines.append("")
        let width = max(
            6, layout.header.indices.map { safe(HeaderLayout.label(layout.header[$0], index: $0)).count }.max() ?? 0)
        lines.append("Column".padding(to: width) + "  Maps to")
        // `unmapped` lists, in order, the columns without a target that are not repeats of a read field.
        var unmapped = layout.unmapped[...]
        for (index, name) in layout.header.enumerated() {
            let label = HeaderLayout.label(name, index: index)
            var target = layout.targets[index].map(\.description)
            if target == nil, unmapped.first == label {
                unmapped.removeFirst()
                target = "(unmapped)"
            }
            lines.append(
                safe(label).padding(to: width) + "  " + (target ?? "(not read: an earlier column holds its field)"))
        }
        lines.append("")
        lines.append(
            "Unmapped:   " + (layout.unmapped.isEmpty ? "none" : layout.unmapped.map(safe).joined(separator: ", ")))
        if problems.isEmpty {
            lines.append("Problems:   none")
        } else {
            lines.append("Problems:   \(problems.count + problemsNotListed)")
            // A workbook's rows are numbered as Excel shows them, which is what its `line` holds.
            for problem in problems {
                lines.append("  \(worksheets == nil ? "line" : "sheet row") \(problem.line): \(safe(problem.message))")
            }
            if problemsNotListed > 0 { lines.append("  and \(problemsNotListed) more, not listed") }
        }
        if !rows.isEmpty {
            lines.append("")
            for row in rows { lines.append(row.map(safe).joined(separator: " | ")) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON: `{"header":[…],"rows":[[…],…],"mapping":{…},"unmapped":[…],"problems":[…]}`, with
    /// file facts after those keys.
    public func json(includeRows: Bool) -> String {
        var text = jsonOpening
        if includeRows {
            text += Self.jsonRowsOpening + rows.map(JSONText.array).joined(separator: ",") + Self.jsonRowsClosing
        }
        return text + jsonClosing
    }

    /// The JSON up to the header: `{"header":[…]`. Rows may follow, then `jsonClosing`.
    public var jsonOpening: String {
        "{\"header\":" + JSONText.array(layout.parsedHeader)
    }

    /// Written before and after the streamed rows, which are JSON arrays separated by commas.
    public static let jsonRowsOpening = ",\"rows\":["
    public static let jsonRowsClosing = "]"

    /// The JSON after the rows: mapping, unmapped columns, problems and file facts, and the closing brace.
    public var jsonClosing: String {
        var pairs: [(String, String)] = []
        let mapping = layout.header.indices.compactMap { index -> (String, String)? in
            guard let target = layout.targets[index] else { return nil }
            return (HeaderLayout.label(layout.header[index], index: index), JSONText.quoted(target.description))
        }
        pairs.append(("mapping", JSONText.object(mapping)))
        pairs.append(("unmapped", JSONText.array(layout.unmapped)))
        let problemObjects = problems.map { problem in
            JSONText.object(
                [("line", String(problem.line))] + (problem.row.map { [("row", String($0))] } ?? [])
                    + (problem.column.map { [("column", JSONText.quoted($0))] } ?? [])
                    + [("message", JSONText.quoted(problem.message))])
        }
        pairs.append(("problems", "[" + problemObjects.joined(separator: ",") + "]"))
        pairs.append(("problemsNotListed", String(problemsNotListed)))
        if let worksheets {
            pairs.append(("format", JSONText.quoted("xlsx")))
            pairs.append(("sheet", JSONText.quoted(worksheets.read.name)))
            pairs.append(("sheets", JSONText.array(worksheets.all.map(\.name))))
            pairs.append(("hiddenSheets", JSONText.array(worksheets.all.filter(\.isHidden).map(\.name))))
        } else {
            pairs.append(("delimiter", JSONText.quoted(delimiter.name)))
            pairs.append(("encoding", JSONText.quoted(encoding)))
            pairs.append(("lineEnding", lineEnding.map(JSONText.quoted) ?? "null"))
        }
        pairs.append(("rowCount", String(rowCount)))
        let object = JSONText.object(pairs)
        return "," + object.dropFirst() + "\n"
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
