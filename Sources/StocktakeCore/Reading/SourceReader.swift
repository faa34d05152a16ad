/// Reads a source spreadsheet in one pass into normalized records, noting every cell that cannot be used.
///
/// Rows are normalized as they stream by, so memory grows with the number of rows kept, never with the file's
/// size in text. Blank rows are skipped; rows repeated exactly are kept once and listed.
public struct SourceReader: Sendable {
    public var mapping: ColumnMapping
    public var tagDigits: Int
    public var cnsDigits: Int
    public var buildings: BuildingTable?
    /// Whether normalized rows are kept. `inspect` only counts and checks them, so it reads any size in little memory.
    public var keepsRecords = true
    /// At most this many issues are kept; the rest are only counted in `SourceData.omittedIssues`.
    public var issueLimit = Int.max

    public init(mapping: ColumnMapping, tagDigits: Int = 6, cnsDigits: Int = 6, buildings: BuildingTable? = nil) {
        self.mapping = mapping
        self.tagDigits = tagDigits
        self.cnsDigits = cnsDigits
        self.buildings = buildings
    }

    /// Reads `file` from disk.
    public func read(_ file: SourceFile) throws(StocktakeError) -> SourceData {
        var reader: CSVReader
        do {
            reader = try CSVReader(path: file.path)
        } catch {
            throw Self.translate(error, file: file)
        }
        return try read(file, from: &reader)
    }

    /// Reads `file` from an already opened reader (tests read from memory this way).
    public func read(_ file: SourceFile, from reader: inout CSVReader) throws(StocktakeError) -> SourceData {
        var state = ReadState(file: file, reader: self)
        do {
            try reader.forEachRecord { record in state.take(record) }
        } catch let error as CSVError {
            throw Self.translate(error, file: file)
        } catch {
            throw .badData(path: file.path, reason: "\(error)")
        }
        state.data.delimiter = reader.delimiter
        state.data.hadByteOrderMark = reader.hadByteOrderMark
        state.data.lineEnding = reader.lineEnding
        return state.data
    }

    static func translate(_ error: CSVError, file: SourceFile) -> StocktakeError {
        switch error {
        case .unreadable(_, let reason):
            if reason.contains("No such file") { return .missingInput(path: file.path, what: "file") }
            return .unreadableInput(path: file.path, reason: "it cannot be read (\(reason))")
        case .unterminatedQuote, .unsupportedEncoding:
            return .badData(path: file.path, reason: reason(error))
        }
    }

    /// The error's sentence without the file name it starts with, for messages that name the file by its path.
    static func reason(_ error: CSVError) -> String {
        let file: String
        switch error {
        case .unterminatedQuote(let name, _), .unsupportedEncoding(let name, _), .unreadable(let name, _):
            file = name
        }
        let text = error.description
        return text.hasPrefix(file + ": ") ? String(text.dropFirst(file.count + 2)) : text
    }
}

/// The state of one pass over a file.
private struct ReadState {
    var data: SourceData
    let reader: SourceReader
    var plan: [(column: Int, target: ColumnTarget)] = []
    /// The first occurrence of each row: its record (or -1 when records are not kept) and its row number.
    var fingerprints: [RowFingerprint: (record: Int32, row: Int32)] = [:]
    var sawHeader = false
    var checksIdentifiers = false
    /// The values of the row being read.
    var values = AssetValues()
    /// Long texts already seen, to share their storage.
    var sharedTexts: [String: String] = [:]

    init(file: SourceFile, reader: SourceReader) {
        self.data = SourceData(file: file, layout: HeaderLayout(header: [], mapping: reader.mapping))
        self.reader = reader
    }

    mutating func take(_ record: borrowing CSVRecord) {
        if !sawHeader {
            // A row of empty cells above the header (`,,,` from a sheet's empty top row) is blank too.
            guard !Self.isEmpty(record, from: 0) else { return }
            sawHeader = true
            data.layout = HeaderLayout(header: record.strings, mapping: reader.mapping)
            data.headerLine = record.line
            plan = data.layout.plan
            checksIdentifiers = data.layout.hasIdentifier
            return
        }
        var fingerprint = RowFingerprint()
        var blank = true
        for index in 0..<record.count {
            let cell = record[index]
            if blank, ByteTrim.trimmed(cell).count > 0 { blank = false }
            fingerprint.add(cell)
        }
        if blank { return }
        data.rowCount += 1
        let row = data.rowCount
        if let first = fingerprints[fingerprint] {
            data.repeatedRows.append(
                .init(row: row, line: record.line, firstRecordIndex: Int(first.record), firstRow: Int(first.row)))
            return
        }
        let recordIndex = data.records.count
        let firstIssue = data.issues.count
        values = AssetValues()
        var invalidIdentifier = false
        for (column, target) in plan where column < record.count {
            let cell = record[column]
            if normalize(cell, target: target, column: column, row: row, line: record.line) == false,
                target.fields.contains(where: \.isIdentifier)
            {
                invalidIdentifier = true
            }
        }
        noteDamage(record, row: row)
        let width = data.layout.width
        if record.count != width, !(record.count > width && Self.isEmpty(record, from: width)) {
            let cells = counted(record.count, "cell")
            note(
                RowIssue(
                    kind: .raggedRow, row: row, line: record.line, field: nil, column: nil, value: cells,
                    reason: "has \(cells) but the header has \(width); check for a missing or extra comma"))
        }
        guard values.hasIdentifier else {
            if checksIdentifiers && !invalidIdentifier {
                note(
                    RowIssue(
                        kind: .noIdentifier, row: row, line: record.line, field: nil, column: nil, value: "",
                        reason: "has no VT tag, CNS number, serial number or MAC address, so it cannot be matched"))
            }
            return
        }
        guard reader.keepsRecords else {
            fingerprints[fingerprint] = (-1, Int32(clamping: row))
            return
        }
        for index in firstIssue..<data.issues.count { data.issues[index].recordIndex = recordIndex }
        fingerprints[fingerprint] = (Int32(recordIndex), Int32(clamping: row))
        data.records.append(SourceRecord(row: row, line: record.line, values: values))
    }

    /// Keeps an issue, or only counts it past the reader's limit.
    private mutating func note(_ issue: RowIssue) {
        if data.issues.count < reader.issueLimit {
            data.issues.append(issue)
        } else {
            data.omittedIssues += 1
        }
    }

    private static func isEmpty(_ record: borrowing CSVRecord, from start: Int) -> Bool {
        for index in start..<record.count where ByteTrim.trimmed(record[index]).count > 0 { return false }
        return true
    }

    private mutating func noteDamage(_ record: borrowing CSVRecord, row: Int) {
        for problem in record.problems {
            let target = problem.field < data.layout.targets.count ? data.layout.targets[problem.field] : nil
            let column = problem.field < data.layout.width ? data.layout.header[problem.field] : nil
            let reason =
                switch problem.kind {
                case .strayQuote: "has a stray quote (\") outside a quoted field; it is kept as written"
                case .invalidUTF8: "holds bytes that are not UTF-8; save the file as CSV UTF-8"
                }
            note(
                RowIssue(
                    kind: .damagedText, row: row, line: problem.line, field: target?.fields.first,
                    column: column.map { HeaderLayout.label($0, index: problem.field) },
                    value: record.string(at: problem.field).trimmingSpaces, reason: reason))
        }
    }

    /// Normalizes one cell into `values`; returns false when the cell was invalid.
    private mutating func normalize(
        _ cell: UnsafeBufferPointer<UInt8>, target: ColumnTarget, column: Int, row: Int, line: Int
    ) -> Bool {
        let field: CanonicalField
        switch target {
        case .ignored:
            return true
        case .position:
            switch GeoPosition.normalizePair(cell) {
            case .value(let position):
                values.latitude = position.latitude
                values.longitude = position.longitude
                return true
            case .empty:
                return true
            case .invalid(let reason):
                report(.invalidValue, cell, field: .latitude, column: column, row: row, line: line, reason: reason)
                return false
            }
        case .field(let mapped):
            field = mapped
        }
        switch field {
        case .vtTag:
            return take(VTTag.normalize(cell, digits: reader.tagDigits), \.vtTag, field, cell, column, row, line)
        case .cnsNumber:
            return take(
                CNSNumber.normalize(cell, digits: reader.cnsDigits), \.cnsNumber, field, cell, column, row, line)
        case .serialNumber: return take(SerialNumber.normalize(cell), \.serialNumber, field, cell, column, row, line)
        case .macAddress: return take(MACAddress.normalize(cell), \.macAddress, field, cell, column, row, line)
        case .model:
            return takeText(FreeText.normalize(cell, style: .upperCased), \.model, field, cell, column, row, line)
        case .description:
            return takeText(FreeText.normalize(cell, style: .trimmed), \.description, field, cell, column, row, line)
        case .building:
            guard let buildings = reader.buildings else {
                return takeText(
                    FreeText.normalize(cell, style: .upperCased), \.building, field, cell, column, row, line)
            }
            return take(
                buildings.normalize(cell), \.building, field, cell, column, row, line, invalidKind: .unknownBuilding)
        case .room:
            return takeText(
                FreeText.normalize(cell, style: .upperCasedCollapsingSpaces), \.room, field, cell, column, row, line)
        case .mount:
            return takeText(FreeText.normalize(cell, style: .lowerCased), \.mount, field, cell, column, row, line)
        case .custodian:
            return takeText(FreeText.normalize(cell, style: .trimmed), \.custodian, field, cell, column, row, line)
        case .latitude:
            return take(GeoPosition.normalizeLatitude(cell), \.latitude, field, cell, column, row, line)
        case .longitude:
            return take(GeoPosition.normalizeLongitude(cell), \.longitude, field, cell, column, row, line)
        case .lastSeen: return take(InventoryDate.normalize(cell), \.lastSeen, field, cell, column, row, line)
        case .stockNumber:
            return takeText(FreeText.normalize(cell, style: .trimmed), \.stockNumber, field, cell, column, row, line)
        }
    }

    /// Like `take`, for free text. Text repeats (every access point of a model has the same description), so
    /// texts too long to be stored inside a `String` value are shared: a million rows hold one copy of each.
    private mutating func takeText(
        _ result: Normalized<String>, _ keyPath: WritableKeyPath<AssetValues, String?>, _ field: CanonicalField,
        _ cell: UnsafeBufferPointer<UInt8>, _ column: Int, _ row: Int, _ line: Int
    ) -> Bool {
        guard case .value(let text) = result, text.utf8.count > 15 else {
            return take(result, keyPath, field, cell, column, row, line)
        }
        if let shared = sharedTexts[text] {
            values[keyPath: keyPath] = shared
        } else {
            if sharedTexts.count < 100_000 { sharedTexts[text] = text }
            values[keyPath: keyPath] = text
        }
        return true
    }

    private mutating func take<Value>(
        _ result: Normalized<Value>, _ keyPath: WritableKeyPath<AssetValues, Value?>, _ field: CanonicalField,
        _ cell: UnsafeBufferPointer<UInt8>, _ column: Int, _ row: Int, _ line: Int,
        invalidKind: RowIssue.Kind = .invalidValue
    ) -> Bool {
        switch result {
        case .value(let value):
            values[keyPath: keyPath] = value
            return true
        case .empty:
            return true
        case .invalid(let reason):
            report(invalidKind, cell, field: field, column: column, row: row, line: line, reason: reason)
            return false
        }
    }

    private mutating func report(
        _ kind: RowIssue.Kind, _ cell: UnsafeBufferPointer<UInt8>, field: CanonicalField, column: Int, row: Int,
        line: Int, reason: String
    ) {
        note(
            RowIssue(
                kind: kind, row: row, line: line, field: field,
                column: HeaderLayout.label(data.layout.header[column], index: column),
                value: String(decoding: ByteTrim.trimmed(cell), as: UTF8.self), reason: reason))
    }
}
