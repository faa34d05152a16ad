import Foundation
import StocktakeCore

/// A sheet in Google Sheets, read and written through the Sheets API v4 `spreadsheets.values` methods.
///
/// Pull reads the range with `values.get` (rows, formatted as the sheet shows them) and writes it as CSV. The API
/// leaves out trailing empty cells of a row, trailing empty rows, and the whole `values` key for an empty range;
/// all of that is normal and kept as it is (ragged rows, an empty file). Cells are copied verbatim: nothing is
/// formula-neutralized, so pushing a pulled sheet back changes nothing.
///
/// Push re-reads the range first and writes nothing when it differs from what was pulled (the Sheets API has no
/// conditional write, so this check is the guard). Then one `values.batchUpdate` with `valueInputOption=RAW` writes
/// only the cells whose text changes (a cell the new text no longer has is emptied), so every other cell keeps what
/// the company put there: a formula, whose formatted value was pulled, is never replaced by that value. One request
/// means a failure never leaves the sheet half-written. `RAW` stores every cell as the text given, never as a formula,
/// so the `'` that `CSVWriter` puts before formula-like cells of the text to push is taken off again: the sheet gets
/// `=SUM(A1)` as text rather than a visible `'=SUM(A1)`.
public struct GoogleSheetsProvider: SheetProvider {
    /// Where the Sheets API lives unless configured otherwise.
    public static let defaultBaseURL = EndpointURL(httpsRootOf: "sheets.googleapis.com")

    /// The account's session: its client, credentials and the origins its token may go to.
    public var session: AccountSession
    /// The spreadsheet's id, as in `https://docs.google.com/spreadsheets/d/ID/edit`.
    public var spreadsheetID: String
    /// The range in A1 notation (`Inventory`, `'Site B'!A1:K`); `nil` means the whole first visible sheet.
    public var range: String?
    /// The API's base URL; tests and companies behind a proxy point it elsewhere.
    public var baseURL: EndpointURL

    public init(
        session: AccountSession, spreadsheetID: String, range: String? = nil,
        baseURL: EndpointURL = GoogleSheetsProvider.defaultBaseURL
    ) {
        self.session = session
        self.spreadsheetID = spreadsheetID
        self.range = range
        self.baseURL = baseURL
    }

    public var location: String {
        let spreadsheet = spreadsheetURL.map(\.redacted) ?? "\(baseURL.redacted) spreadsheet \(spreadsheetID)"
        guard let range else { return spreadsheet }
        return spreadsheet + "/values/" + Self.pathSegment(range)
    }

    public func pull() throws(SyncError) -> PulledSheet {
        try session.guarded { () throws(SyncError) -> PulledSheet in try pullSheet() }
    }

    public func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        try session.guarded { () throws(SyncError) in try pushSheet(bytes, over: pulled) }
    }

    private func pullSheet() throws(SyncError) -> PulledSheet {
        let range = try resolvedRange(phase: .pull)
        let bytes = Self.csv(try values(in: range, phase: .pull))
        return PulledSheet(
            bytes: bytes, fileName: "\(spreadsheetID).csv", version: Self.fingerprint(bytes), location: location)
    }

    private func pushSheet(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        let rows = try Self.rows(of: bytes, account: session.account, location: location)
        let range = try resolvedRange(phase: .push)
        let current = try values(in: range, phase: .push)
        guard Self.csv(current) == pulled.bytes else {
            throw .changedSincePull(account: session.account, url: location)
        }
        let data = Self.changedCells(rows, over: current, in: range)
        guard !data.isEmpty else { return }
        let body: [String: Any] = ["valueInputOption": "RAW", "data": data]
        let url = try endpoint("/values:batchUpdate", phase: .push)
        let request = HTTPRequest(
            "POST", url, headers: [(name: "Content-Type", value: "application/json; charset=utf-8")],
            body: Self.json(body))
        let response = try session.send(request, phase: .push)
        try session.check(response, phase: .push)
    }

    // MARK: Requests

    /// `range`, or the quoted title of the first visible sheet when no range is configured.
    private func resolvedRange(phase: SyncPhase) throws(SyncError) -> String {
        if let range { return range }
        let url = try endpoint("?fields=sheets.properties(title,hidden)", phase: phase)
        let response = try session.send(HTTPRequest("GET", url), phase: phase)
        try session.check(response, phase: phase)
        let object = try Self.object(response, account: session.account)
        let sheets = (object["sheets"] as? [[String: Any]] ?? []).compactMap { $0["properties"] as? [String: Any] }
        let visible = sheets.first { ($0["hidden"] as? Bool) != true } ?? sheets.first
        guard let title = visible?["title"] as? String else {
            throw .badResponse(account: session.account, url: url.redacted, reason: "the spreadsheet lists no sheets")
        }
        return Self.quotedTitle(title)
    }

    /// The rows of `range` as `values.get` answers them.
    private func values(in range: String, phase: SyncPhase) throws(SyncError) -> [[String]] {
        let url = try endpoint(
            "/values/\(Self.pathSegment(range))?majorDimension=ROWS&valueRenderOption=FORMATTED_VALUE", phase: phase)
        let response = try session.send(HTTPRequest("GET", url), phase: phase)
        try session.check(response, phase: phase)
        let object = try Self.object(response, account: session.account)
        guard let values = object["values"] else { return [] }
        guard let rows = values as? [Any] else {
            throw .badResponse(account: session.account, url: url.redacted, reason: "`values` is not a list of rows")
        }
        var result: [[String]] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            guard let cells = row as? [Any] else {
                throw .badResponse(
                    account: session.account, url: url.redacted, reason: "row \(result.count + 1) is not a list")
            }
            result.append(cells.map(Self.text(of:)))
        }
        return result
    }

    private var spreadsheetURL: EndpointURL? {
        try? baseURL.appending(path: "/v4/spreadsheets/\(Self.pathSegment(spreadsheetID))")
    }

    /// The spreadsheet's URL followed by `suffix` (a path under it and/or a query).
    private func endpoint(_ suffix: String, phase: SyncPhase) throws(SyncError) -> EndpointURL {
        do {
            return try baseURL.appending(path: "/v4/spreadsheets/\(Self.pathSegment(spreadsheetID))\(suffix)")
        } catch {
            throw .unreachable(account: session.account, error: error, phase: phase)
        }
    }

    // MARK: Conversions

    /// A cell as text: strings as they are (the API sends formatted values as strings), booleans as the sheet
    /// shows them, numbers without a needless `.0`.
    static func text(of cell: Any) -> String {
        switch cell {
        case let text as String:
            return text
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return number.boolValue ? "TRUE" : "FALSE" }
            let value = number.doubleValue
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        default:
            return ""
        }
    }

    /// Rows as CSV text, cells verbatim; no rows give no bytes.
    static func csv(_ rows: [[String]]) -> [UInt8] {
        guard let header = rows.first else { return [] }
        var writer = CSVWriter(header: header, lineEnding: .crlf, protectsFormulas: false)
        for row in rows.dropFirst() { writer.append(row) }
        return writer.bytes
    }

    /// The rows of CSV text to push.
    static func rows(of bytes: [UInt8], account: String, location: String) throws(SyncError) -> [[String]] {
        var reader = CSVReader(bytes: bytes, name: "pushed.csv", delimiter: .comma)
        var rows: [[String]] = []
        do {
            try reader.forEachRecord { record in rows.append(record.strings.map(unprotected)) }
        } catch {
            throw .badResponse(account: account, url: location, reason: "the text to push is not valid CSV: \(error)")
        }
        return rows
    }

    /// A cell without the `'` that `CSVWriter.neutralized(_:)` put before it: with `valueInputOption=RAW` the sheet
    /// stores text as it is, so a formula-like cell is safe without it and the `'` would only show.
    static func unprotected(_ cell: String) -> String {
        guard cell.hasPrefix("'") else { return cell }
        let original = String(cell.dropFirst())
        return CSVWriter.neutralized(original) == cell ? original : cell
    }

    /// One `values.batchUpdate` entry per cell of `rows` that differs from `old`, the grid `range` held when it was
    /// read: only what the push changes is written, so every other cell (a formula, a format, a note) stays as the
    /// company made it. A cell `rows` no longer has is emptied.
    static func changedCells(_ rows: [[String]], over old: [[String]], in range: String) -> [[String: Any]] {
        let (sheet, column0, row0) = origin(of: range)
        var data: [[String: Any]] = []
        for index in 0..<max(rows.count, old.count) {
            let new = index < rows.count ? rows[index] : []
            let before = index < old.count ? old[index] : []
            for column in 0..<max(new.count, before.count) {
                let value = column < new.count ? new[column] : ""
                let previous = column < before.count ? before[column] : ""
                guard value != previous else { continue }
                let cell = sheet + "!" + columnLetters(column0 + column + 1) + String(row0 + index + 1)
                data.append(["range": cell, "majorDimension": "ROWS", "values": [[value]]])
            }
        }
        return data
    }

    /// The sheet part of `range` (ready to put before `!`) and its first cell as 0-based column and row: a range
    /// without cells starts at A1.
    static func origin(of range: String) -> (sheet: String, column: Int, row: Int) {
        guard let bang = range.lastIndex(of: "!") else { return (range, 0, 0) }
        let sheet = String(range[..<bang])
        let start = range[range.index(after: bang)...].prefix { $0 != ":" }
        var column = 0
        var row = 0
        for scalar in start.unicodeScalars {
            if let letter = Character(scalar).uppercased().unicodeScalars.first, ("A"..."Z").contains(letter) {
                column = column * 26 + Int(letter.value - UnicodeScalar("A").value + 1)
            } else if let digit = Int(String(scalar)) {
                row = row * 10 + digit
            }
        }
        return (sheet, max(0, column - 1), max(0, row - 1))
    }

    /// `1` → `A`, `27` → `AA`: a column number as the sheet names it.
    static func columnLetters(_ number: Int) -> String {
        var number = number
        var letters = ""
        while number > 0 {
            let remainder = (number - 1) % 26
            letters = String(UnicodeScalar(UInt8(65 + remainder))) + letters
            number = (number - 1) / 26
        }
        return letters
    }

    /// A sheet title as a range: quoted unless it is letters, digits and underscores only.
    static func quotedTitle(_ title: String) -> String {
        let plain =
            !title.isEmpty
            && title.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            }
        return plain ? title : "'" + title.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `text` percent-encoded as one path segment (everything but unreserved characters escaped).
    static func pathSegment(_ text: String) -> String {
        var unreserved = CharacterSet(charactersIn: "-._~")
        unreserved.formUnion(CharacterSet(charactersIn: "a"..."z"))
        unreserved.formUnion(CharacterSet(charactersIn: "A"..."Z"))
        unreserved.formUnion(CharacterSet(charactersIn: "0"..."9"))
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// A fingerprint of the pulled text (64-bit FNV-1a), recorded as the sheet's version.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        "fnv1a64:" + ContentHash.hex(ContentHash.fnv1a64(bytes))
    }

    /// The response body as a JSON object.
    static func object(_ response: HTTPResponse, account: String) throws(SyncError) -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
            throw .badResponse(account: account, url: response.url.redacted, reason: "the answer is not a JSON object")
        }
        return object
    }

    static func json(_ object: [String: Any]) -> [UInt8] {
        // The body is made of strings and lists only, which always serialize.
        [UInt8]((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }
}
