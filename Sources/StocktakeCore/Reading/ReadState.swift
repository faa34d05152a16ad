/// The state of one pass over a file, or over one part of it.
struct ReadState {
    var data: SourceData
    let reader: SourceReader
    /// The reader's buildings table, kept here so that a row uses it in place instead of copying it out of `reader`.
    let buildings: BuildingTable?
    var plan: [(column: Int, target: ColumnTarget)] = []
    /// The first occurrence of each row: its record (or -1 when records are not kept) and its row number.
    var fingerprints = FingerprintTable()
    /// The fingerprint of each kept record, in order, when reading a part (to join it to the parts before it).
    var recordFingerprints: [RowFingerprint]?
    var sawHeader = false
    var checksIdentifiers = false
    /// The values of the row being read.
    var values = PackedValues()
    /// The free-text and building cells of each column seen so far, by their bytes, with the ids in `SharedTexts` they
    /// became: the shared table (and its lock) is asked once per distinct cell. Serial numbers, nearly all distinct,
    /// skip it.
    var seenCellsByColumn: [SeenCells] = []
    /// The serial numbers of the records kept since `resolvedRecords` that are not numbers (`SerialCode`), added to
    /// `SharedTexts` together once there are `serialsPerBatch` of them and when the text is read: until then a
    /// record's `serialCode` holds its serial's index here.
    var serials = TextBatch()
    /// The records before this one hold ids in `SharedTexts`, those from it on indices in `serials`.
    var resolvedRecords = 0
    /// Enough serials for the shared table to be gone through in order, few enough for the batch to stay small
    /// (about 4 MB while it is added: memory a worker thread keeps once freed, so it adds to the peak).
    static let serialsPerBatch = 65_536
    /// The id in `SharedTexts` of each building's code, once used.
    var buildingIDs: [Int32] = []
    /// Where the text read starts in the file, and how many bytes it is expected to span (to presize tables).
    let startOffset: Int
    let expectedBytes: Int
    /// The row after which the tables are sized for a small file, when the rows read so far say it is small (at most
    /// `smallFileRows`), and the row after which they are sized for any file.
    static let smallFilePresizeRow = 256
    static let presizeRow = 4096
    static let smallFileRows = 16_384
    /// The rows of the source (shared by the readers of its parts) and of the account, which the rows read here
    /// are added to every `rowsPerCharge` rows and at the end.
    private let sourceRows: RowBudget
    private var uncountedRows = 0
    private static let rowsPerCharge = 1024

    /// Starts reading a file from its beginning; `expectedBytes` is its size, or 0 when unknown. `sourceRows` counts
    /// the rows of the file when it is read in parts; `nil` counts them here.
    init(
        file: SourceFile, reader: SourceReader, startOffset: Int = 0, expectedBytes: Int, sourceRows: RowBudget? = nil
    ) {
        self.data = SourceData(file: file, layout: HeaderLayout(header: [], mapping: reader.mapping))
        self.reader = reader
        self.buildings = reader.buildings
        self.startOffset = startOffset
        self.expectedBytes = expectedBytes
        self.sourceRows = sourceRows ?? RowBudget(limit: reader.limits.maxRows)
    }

    /// Starts reading a part of a file that begins at `startOffset`, after the header that gave `layout`.
    init(
        part file: SourceFile, reader: SourceReader, layout: HeaderLayout, startOffset: Int, expectedBytes: Int,
        sourceRows: RowBudget
    ) {
        self.init(
            file: file, reader: reader, startOffset: startOffset, expectedBytes: expectedBytes, sourceRows: sourceRows)
        data.layout = layout
        data.records = SourceRows(keeping: layout.plan.flatMap(\.target.fields))
        sawHeader = true
        plan = layout.plan
        checksIdentifiers = layout.hasIdentifier
        recordFingerprints = []
    }

    /// Once a few thousand rows show how long a row is, sizes the records and the fingerprint table for the rows
    /// the rest of the text will hold, so that they grow at most once more. A file whose first few hundred rows say
    /// it is small is sized then already, so that its tables do not grow row by row, copying what they hold each
    /// time; a large file waits for the surer estimate, since sizing its fingerprint table too large fills memory.
    private mutating func presize(readUpTo offset: Int, onlyIfSmall: Bool) {
        let bytesRead = offset - startOffset
        guard expectedBytes > bytesRead, bytesRead > 0 else { return }
        let estimate = Int(Double(data.rowCount) * Double(expectedBytes) / Double(bytesRead) * 1.1)
        if onlyIfSmall && estimate > Self.smallFileRows { return }
        fingerprints.reserve(estimate)
        if reader.keepsRecords {
            if estimate > data.records.capacity { data.records.reserveCapacity(estimate) }
            if let capacity = recordFingerprints?.capacity, estimate > capacity {
                recordFingerprints?.reserveCapacity(estimate)
            }
        }
    }

    /// Takes the next record of the text: the header, or a data row, which waits in `batch` until the batch is full
    /// or `finish()` is called. Throws `.tooManyRows` or `.tooManyAccountRows` once the source's or the account's
    /// rows are more than the reader's `limits.maxRows`.
    mutating func take(_ record: borrowing CSVRecord) throws(CSVError) {
        if !sawHeader {
            // A row of empty cells above the header (`,,,` from a sheet's empty top row) is blank too.
            guard !Self.isEmpty(record, from: 0) else { return }
            sawHeader = true
            data.layout = HeaderLayout(header: record.strings, mapping: reader.mapping)
            data.headerLine = record.line
            plan = data.layout.plan
            data.records = SourceRows(keeping: plan.flatMap(\.target.fields))
            checksIdentifiers = data.layout.hasIdentifier
            return
        }
        var blank = true
        for index in 0..<record.count where ByteTrim.trimmed(record[index]).count > 0 {
            blank = false
            break
        }
        if blank { return }
        let fingerprint = record.fingerprint
        uncountedRows += 1
        if uncountedRows == Self.rowsPerCharge { try countRows() }
        // The row is looked up once its cells are read. A table too large for the processor's cache would make that
        // lookup wait for memory: its slot is fetched now, and is in the cache by then.
        if fingerprints.count >= Self.rowsTakenAtOnce { fingerprints.prefetch(fingerprint) }
        takeRow(record, fingerprint: fingerprint)
    }

    /// The distinct rows a file has before its fingerprint table (about 560 KB then, the size of the processor's
    /// second-level cache) is fetched from ahead of its lookups. Every file of a small account stays below it.
    static let rowsTakenAtOnce = 16_384

    /// Adds the last rows to the counts and the serials collected to the shared texts; call it once the reader has
    /// handed out the last record.
    mutating func finish() throws(CSVError) {
        try countRows()
        addSerials()
    }

    /// Adds the serial numbers collected to `SharedTexts` and puts their ids in the records since `resolvedRecords`,
    /// in the place of their indices in `serials`.
    private mutating func addSerials() {
        guard serials.count > 0 else { return }
        let ids = SharedTexts.shared.ids(of: serials)
        serials.removeAll()
        let first = resolvedRecords
        resolvedRecords = data.records.count
        ids.withUnsafeBufferPointer { ids in
            data.records.replaceSerialCodes(from: first) { code in
                code.pendingIndex.map { SerialCode(pooled: ids[Int($0)]) } ?? code
            }
        }
    }

    /// Adds the rows read since the last call to the source's and the account's counts; throws when either is past
    /// the limit.
    private mutating func countRows() throws(CSVError) {
        let count = uncountedRows
        uncountedRows = 0
        guard count > 0 else { return }
        let name = data.file.displayName
        if !sourceRows.add(count) { throw .tooManyRows(file: name, limit: sourceRows.limit) }
        if let accountRows = reader.accountRows, !accountRows.add(count) {
            throw .tooManyAccountRows(file: name, account: accountRows.account ?? "", limit: accountRows.limit)
        }
    }

    /// Takes a data row that is not blank, whose fingerprint is `fingerprint`. The row is looked up once its cells
    /// are read; one that repeats an earlier row is then only noted as a repeat, and what reading its cells added
    /// (its issues, its serial waiting to be added) is taken back. Reading a repeat adds nothing else: its cells are
    /// those of the row it repeats, read before it. Repeats are rare, so reading their cells costs nothing
    /// measurable.
    private mutating func takeRow(_ record: borrowing CSVRecord, fingerprint: RowFingerprint) {
        data.rowCount += 1
        let row = data.rowCount
        if row == Self.smallFilePresizeRow || row == Self.presizeRow {
            presize(readUpTo: record.end, onlyIfSmall: row == Self.smallFilePresizeRow)
        }
        let recordIndex = data.records.count
        let firstIssue = data.issues.count
        let omittedBefore = data.omittedIssues
        let serialsBefore = serials.count
        values = PackedValues()
        var invalidIdentifier = false
        // The plan is read entry by entry: iterating it while `normalize` changes this state kept the array alive by
        // retaining it for every row, and the parts of one file, read on both cores, share that array.
        var step = 0
        while step < plan.count {
            let (column, target) = plan[step]
            step += 1
            guard column < record.count else { continue }
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
        let place = fingerprints.place(of: fingerprint)
        if let first = place.first {
            data.issues.removeSubrange(firstIssue...)
            data.omittedIssues = omittedBefore
            serials.removeTexts(from: serialsBefore)
            data.repeatedRows.append(repeatedRow(row, line: record.line, first: Int(first)))
            return
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
            fingerprints.insert(fingerprint, occurrence: Int32(clamping: row), at: place)
            return
        }
        for index in firstIssue..<data.issues.count { data.issues[index].recordIndex = recordIndex }
        fingerprints.insert(fingerprint, occurrence: Int32(recordIndex), at: place)
        recordFingerprints?.append(fingerprint)
        data.records.append(row: Int32(clamping: row), line: Int32(clamping: record.line), packed: values)
        if serials.count >= Self.serialsPerBatch { addSerials() }
    }

    /// The repeat at `row` of the row whose first occurrence is `first` in the fingerprint table: the record index
    /// when records are kept, whose row the records hold; the row otherwise, with no record.
    private func repeatedRow(_ row: Int, line: Int, first: Int) -> SourceData.RepeatedRow {
        guard reader.keepsRecords else { return .init(row: row, line: line, firstRecordIndex: -1, firstRow: first) }
        return .init(
            row: row, line: line, firstRecordIndex: first, firstRow: Int(data.records.view.row(at: first)))
    }

    /// Keeps an issue, or only counts it past the reader's limit.
    private mutating func note(_ issue: RowIssue) {
        if data.issues.count < reader.issueLimit {
            data.issues.append(issue)
        } else {
            data.omittedIssues += 1
        }
    }

    static func isEmpty(_ record: borrowing CSVRecord, from start: Int) -> Bool {
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
        case .serialNumber:
            // Nearly every serial is a number of its own. The others are nearly all distinct (one per asset), so a
            // file's own pool would only miss and grow: they are collected and added to the shared table many at a
            // time (see `addSerials`). A reader that keeps no records needs no ids, only whether there is a serial.
            let keeps = reader.keepsRecords
            let result = SerialNumber.withCanonicalBytes(cell) { bytes in
                SerialCode.inline(bytes) ?? SerialCode(pendingIndex: keeps ? serials.append(bytes) : 0)
            }
            return take(result, \.serialCode, field, cell, column, row, line)
        case .macAddress: return take(MACAddress.normalize(cell), \.macAddress, field, cell, column, row, line)
        case .model:
            return takeText(cell, style: .upperCased, \.model, column: column)
        case .description:
            return takeText(cell, style: .trimmed, \.description, column: column)
        case .building:
            guard buildings != nil else { return takeText(cell, style: .upperCased, \.building, column: column) }
            let seen = seenResult(of: cell, column: column)
            if let seen, seen != SeenCells.notKept {
                if seen >= 0 { values.building = seen }
                return true
            }
            // The table is used in place (`?.`): binding it with `guard let` copied it, retaining and releasing each of
            // its arrays for every cell.
            let result: Normalized<Int32>
            switch buildings?.index(of: cell) ?? .empty {
            case .value(let index): result = .value(buildingID(index))
            case .empty: result = .empty
            case .invalid(let reason): result = .invalid(reason: reason)
            }
            if seen == nil {
                // A building not in the table is reported on every row, so its reason is found again each time.
                let kept: Int32 =
                    switch result {
                    case .value(let id): id
                    case .empty: SeenCells.empty
                    case .invalid: SeenCells.notKept
                    }
                seenCellsByColumn[column].keep(kept)
            }
            return take(result, \.building, field, cell, column, row, line, invalidKind: .unknownBuilding)
        case .room:
            return takeText(cell, style: .upperCasedCollapsingSpaces, \.room, column: column)
        case .mount:
            return takeText(cell, style: .lowerCased, \.mount, column: column)
        case .custodian:
            return takeText(cell, style: .trimmed, \.custodian, column: column)
        case .latitude:
            return take(GeoPosition.normalizeLatitude(cell), \.latitude, field, cell, column, row, line)
        case .longitude:
            return take(GeoPosition.normalizeLongitude(cell), \.longitude, field, cell, column, row, line)
        case .lastSeen: return take(InventoryDate.normalize(cell), \.lastSeen, field, cell, column, row, line)
        case .stockNumber:
            return takeText(cell, style: .trimmed, \.stockNumber, column: column)
        case .cost: return take(UnitCost.normalize(cell), \.cost, field, cell, column, row, line)
        }
    }

    /// Like `take`, for free text, which never is invalid. Text repeats (every access point of a model has the same
    /// description), so a cell is looked up by its bytes as read first, in the cells its column has had.
    private mutating func takeText(
        _ cell: UnsafeBufferPointer<UInt8>, style: TextStyle, _ keyPath: WritableKeyPath<PackedValues, Int32>,
        column: Int
    ) -> Bool {
        let id: Int32
        if let seen = seenResult(of: cell, column: column) {
            id = seen
        } else {
            // A new text is asked of the shared table, whose lock is taken once per distinct cell of a column.
            id = FreeText.withNormalizedBytes(cell, style: style) { SharedTexts.shared.id(of: $0) } ?? SeenCells.empty
            seenCellsByColumn[column].keep(id)
        }
        if id >= 0 { values[keyPath: keyPath] = id }
        return true
    }

    /// What `cell` became when column `column` had it before; `nil` when it is new, which adds it (`keep` follows).
    private mutating func seenResult(of cell: UnsafeBufferPointer<UInt8>, column: Int) -> Int32? {
        if column >= seenCellsByColumn.count {
            seenCellsByColumn.append(
                contentsOf: repeatElement(SeenCells(), count: column + 1 - seenCellsByColumn.count))
        }
        return seenCellsByColumn[column].result(of: cell)
    }

    /// The id in `SharedTexts` of the code of building `index` of `buildings` (which the reader has).
    private mutating func buildingID(_ index: Int) -> Int32 {
        if buildingIDs.isEmpty { buildingIDs = Array(repeating: -1, count: buildings?.buildings.count ?? 0) }
        if buildingIDs[index] < 0, let code = buildings?.buildings[index].code {
            buildingIDs[index] = SharedTexts.shared.id(of: code)
        }
        return buildingIDs[index]
    }

    private mutating func take<Value>(
        _ result: Normalized<Value>, _ keyPath: WritableKeyPath<PackedValues, Value?>, _ field: CanonicalField,
        _ cell: UnsafeBufferPointer<UInt8>, _ column: Int, _ row: Int, _ line: Int,
        invalidKind: RowIssue.Kind = .invalidValue
    ) -> Bool {
        store(result, field, cell, column, row, line, invalidKind) { $0[keyPath: keyPath] = $1 }
    }

    /// Like `take`, for a value that is never absent: a text id, a serial code.
    private mutating func take<Value>(
        _ result: Normalized<Value>, _ keyPath: WritableKeyPath<PackedValues, Value>, _ field: CanonicalField,
        _ cell: UnsafeBufferPointer<UInt8>, _ column: Int, _ row: Int, _ line: Int,
        invalidKind: RowIssue.Kind = .invalidValue
    ) -> Bool {
        store(result, field, cell, column, row, line, invalidKind) { $0[keyPath: keyPath] = $1 }
    }

    /// Stores a normalized value with `set`, or reports why the cell could not be used; returns false for the latter.
    @inline(__always)
    private mutating func store<Value>(
        _ result: Normalized<Value>, _ field: CanonicalField, _ cell: UnsafeBufferPointer<UInt8>, _ column: Int,
        _ row: Int, _ line: Int, _ invalidKind: RowIssue.Kind, _ set: (inout PackedValues, Value) -> Void
    ) -> Bool {
        switch result {
        case .value(let value):
            set(&values, value)
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
