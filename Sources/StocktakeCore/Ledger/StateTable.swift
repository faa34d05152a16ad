import Foundation

/// A small CSV file that stocktake writes and reads back (the ledger, the acknowledgements): a header of known
/// column names, then rows of text.
///
/// Cells are written with the formula guard of every table stocktake writes (a leading `'` before `=`, `+`, `-`,
/// `@`, …), since a clerk may open the file in a spreadsheet; reading removes that guard again.
struct StateTable {
    /// One data row: its cells by column name, and its line in the file.
    struct Row {
        let cells: [String: String]
        let line: Int

        subscript(column: String) -> String { cells[column] ?? "" }
    }

    /// The header's cells as written (trimmed), in file order; rows name their cells by these in lower case.
    let header: [String]
    let rows: [Row]

    /// Reads the file at `path`, which must have every column of `required`. Returns `nil` when there is no file.
    static func read(_ path: String, required: [String]) throws(StocktakeError) -> StateTable? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var header: [String]?
        var written: [String] = []
        var rows: [Row] = []
        do {
            var reader = try CSVReader(path: path)
            try reader.forEachRecord { record in
                let cells = record.strings.map(Self.unguarded)
                guard let names = header else {
                    written = cells.map { $0.trimmingCharacters(in: .whitespaces) }
                    header = written.map { $0.lowercased() }
                    return
                }
                guard cells.contains(where: { !$0.isEmpty }) else { return }
                var byName: [String: String] = [:]
                for (name, cell) in zip(names, cells) where byName[name] == nil { byName[name] = cell }
                rows.append(Row(cells: byName, line: record.line))
            }
        } catch let error as CSVError {
            throw .unreadableInput(path: path, reason: error.description)
        } catch {
            throw .unreadableInput(path: path, reason: "\(error)")
        }
        let missing = required.filter { !(header ?? []).contains($0) }
        guard missing.isEmpty else {
            throw .badData(
                path: path,
                reason: "it has no \(missing.joined(separator: ", ")) column (its header must have "
                    + "\(required.joined(separator: ","))).")
        }
        return StateTable(header: written, rows: rows)
    }

    /// The file's bytes: `header`, then `rows`.
    static func bytes(header: [String], rows: [[String]]) -> [UInt8] {
        var writer = CSVWriter(header: header)
        for row in rows { writer.append(row) }
        return writer.drain()
    }

    /// A cell without the formula guard `CSVWriter.neutralized(_:)` added.
    static func unguarded(_ cell: String) -> String {
        guard cell.hasPrefix("'") else { return cell }
        let rest = String(cell.dropFirst())
        return CSVWriter.neutralized(rest) == cell ? rest : cell
    }
}
