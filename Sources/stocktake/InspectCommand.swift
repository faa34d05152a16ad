import StocktakeCore

/// `stocktake inspect`: show how a spreadsheet is read.
enum InspectCommand: Command {
    static let columns = Option(
        "--columns", .text(placeholder: "FILE"), help: "Extra column mapping, as for 'stocktake reconcile'.")
    static let sheet = Option(
        "--sheet", .text(placeholder: "NAME"),
        help: "The worksheet of an .xlsx workbook to read (default: its first visible sheet).")
    static let rows = Option(
        "--rows", help: "Also print every row, each cell exactly as parsed (before normalization).")
    static let json = Option(
        "--json",
        help: #"Print JSON: {"header":[…],"rows":[[…],…],"mapping":{…},"unmapped":[…],"problems":[…]}."#)

    static let configuration = CommandConfiguration(
        name: "inspect",
        abstract: """
            Show how a spreadsheet is read: delimiter and encoding (for a workbook, the sheet read and the
            sheets there are), each header and the field it maps to, unmapped columns, row count, and problems
            with their line numbers (a workbook's row numbers).
            """,
        synopsis: "stocktake inspect FILE [--sheet NAME] [--columns FILE] [--rows] [--json]",
        sections: [.init(options: [sheet, columns, rows, json])],
        discussion: "Exit status: 0 read, 64 bad usage, 65 unreadable data, 66 missing file.")

    static func run(_ options: ParsedArguments) throws {
        var mapping = ColumnMapping.builtIn
        if let columns = options.value(Self.columns) {
            mapping = mapping.adding(try ColumnMappingFile.load(path: columns))
        }
        let rows = options.flag(Self.rows)
        let json = options.flag(Self.json)
        let files = options.positionals
        guard files.count == 1 else { throw options.usageError("give exactly one FILE to inspect") }
        let sheet = options.value(Self.sheet)
        let inspection = try Inspection.inspect(path: files[0], sheet: sheet, mapping: mapping, keepRows: false)
        guard rows else {
            print(json ? inspection.json(includeRows: false) : inspection.text, terminator: "")
            return
        }
        // Rows stream straight to standard output, so a file of any size can be listed.
        if json {
            print(inspection.jsonOpening + Inspection.jsonRowsOpening, terminator: "")
            var first = true
            try Inspection.forEachRow(path: files[0], sheet: sheet) { cells in
                print((first ? "" : ",") + JSONText.array(cells), terminator: "")
                first = false
            }
            print(Inspection.jsonRowsClosing + inspection.jsonClosing, terminator: "")
        } else {
            print(inspection.text)
            try Inspection.forEachRow(path: files[0], sheet: sheet) { cells in
                print(cells.map(ControlCharacters.escaped).joined(separator: " | "))
            }
        }
    }
}
