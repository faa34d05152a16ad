import Dispatch
import Foundation

/// Reconciles one account from local files and writes its five outputs: read → normalize → merge → reconcile → write.
public enum ReconcileJob {
    /// The output files, in the order they are written (`run.json` last, so its presence means the run finished).
    public static let outputFiles = [
        "cleaned.csv", "discrepancies.csv", "resolved.csv", "cleaned.xlsx", "discrepancies.xlsx", "changes.csv",
        "report.html", "summary.txt", "ledger.csv", "run.json",
    ]

    /// Runs the request through the local pipeline (the central sheet read from its file, nothing pushed);
    /// discrepancies are results, not errors. Throws when an input or output is unusable.
    public static func run(_ request: ReconcileRequest, log: Log) throws(StocktakeError) -> (
        Reconciliation, RunDetails
    ) {
        do {
            let result = try ReconcilePipeline(pushesCentral: false).run(request, log: log)
            return (result.reconciliation, result.details)
        } catch let error as StocktakeError {
            throw error
        } catch {
            // The local pipeline's stages throw nothing but `StocktakeError`.
            preconditionFailure("unexpected error from the local pipeline: \(error)")
        }
    }

    /// Reads every input and reconciles them: read → normalize → merge → reconcile.
    public static func reconcile(_ request: ReconcileRequest, details: inout RunDetails, log: Log)
        throws(StocktakeError) -> Reconciliation
    {
        let clock = ContinuousClock()
        let phase = clock.now
        let files = try inputFiles(request)
        var reader = try sourceReader(request)
        reader.accountRows = RowBudget(limit: request.rules.limits.maxRows, account: request.account)
        let sources = try read(files, with: reader)
        for source in sources {
            log(
                "read \(source.file.displayName): \(counted(source.rowCount, "row")), "
                    + counted(source.issues.count, "problem"))
            if let note = source.encodingNote { log("\(source.file.displayName): \(note)") }
        }
        details.durations.append(("read", seconds(since: phase, clock)))
        // The sources are handed over, so the reconciler can free their rows once it no longer reads them.
        var reconciliation = Reconciler(rules: request.rules).reconcile(consume sources, durations: &details.durations)
        reconciliation.buildings = reader.buildings
        try holdAgainstLedger(&reconciliation, request: request, log: log)
        return reconciliation
    }

    /// Holds the findings against the last run's ledger and the acknowledgements (DOMAIN.md "Findings across
    /// nights").
    static func holdAgainstLedger(_ reconciliation: inout Reconciliation, request: ReconcileRequest, log: Log)
        throws(StocktakeError)
    {
        let previous = try request.ledger.flatMap { path throws(StocktakeError) in try LedgerFile.read(path) }
        var acknowledgements = AcknowledgementFile.Contents()
        if let path = request.acknowledgements {
            acknowledgements = try AcknowledgementFile.read(path, name: (path as NSString).lastPathComponent)
        }
        reconciliation.ledger = FindingLedger(
            findings: reconciliation.discrepancies, previous: previous,
            acknowledgements: acknowledgements.acknowledgements, asOf: reconciliation.asOf)
        reconciliation.ledger.notes = acknowledgements.problems + reconciliation.ledger.notes
        for note in reconciliation.ledger.notes { log(note) }
    }

    /// The reader of a request's sheets: the built-in column names with the request's mappings, its identifier
    /// digits and its buildings table. A push plans its edit of the central sheet with the same reader.
    ///
    /// `loaded` is the request's buildings table when it was read already (the reconciliation's), so that the plan
    /// uses the very table the sources were read with instead of reading the file again.
    public static func sourceReader(_ request: ReconcileRequest, buildings loaded: BuildingTable? = nil)
        throws(StocktakeError) -> SourceReader
    {
        var mapping = ColumnMapping.builtIn
        if let columns = request.columns { mapping = mapping.adding(try ColumnMappingFile.load(path: columns)) }
        mapping = mapping.adding(request.columnMapping)
        let buildings = try request.buildings.map { path throws(StocktakeError) -> BuildingTable in
            if let loaded { return loaded }
            return try BuildingTableFile.load(path: path)
        }
        var reader = SourceReader(
            mapping: mapping, tagDigits: request.rules.tagDigits, cnsDigits: request.rules.cnsDigits,
            buildings: buildings)
        reader.limits = request.rules.limits
        return reader
    }

    /// Writes `cleaned.csv`, `discrepancies.csv`, `resolved.csv`, and the workbooks `cleaned.xlsx` and
    /// `discrepancies.xlsx`, creating the output folder when needed. A simulated `disk-full` fails the first of them
    /// as a full disk does.
    ///
    /// The five files are written at once on all cores (see `PieceWriter`) and take their names in that order. Each
    /// file's bytes are flushed before it takes its name; the folder is flushed once, after all of them.
    ///
    /// Returns the findings' sentences, which `discrepancies.csv` and `.xlsx` hold, for `report.html` to use again.
    @discardableResult
    public static func writeTables(
        _ reconciliation: Reconciliation, details: inout RunDetails
    ) throws(StocktakeError) -> [String] {
        try writeTables(reconciliation, details: &details, deferringTo: nil)
    }

    /// `writeTables(_:details:)`, but with `pending` the five files are handed to it still flushing, to take their
    /// names when it is committed, and the folder is left for whoever commits them to flush (the pipeline flushes it
    /// before a push and before `run.json`). When a file fails, the files before it are in `pending` too.
    static func writeTables(
        _ reconciliation: Reconciliation, details: inout RunDetails, deferringTo pending: PendingOutputs?
    ) throws(StocktakeError) -> [String] {
        let clock = ContinuousClock()
        let start = clock.now
        try AtomicFile.makeDirectory(details.outputDirectory)
        if let label = details.simulation.label(.diskFull) {
            // The first output's write fails as on a full disk: the writer's own error, from errno ENOSPC.
            let writer = try AtomicFileWriter(path: details.path(of: "cleaned.csv"))
            throw .simulated(writer.abandon(simulating: ENOSPC), label: label)
        }
        // The building names, finding ids and repeating texts of cleaned.csv and cleaned.xlsx, gathered once for both.
        let texts = CleanedTexts(reconciliation)
        let cleaned = CleanedTable.writer(texts, to: details.path(of: "cleaned.csv"))
        let messages = DiscrepancyTable.messages(of: reconciliation)
        let discrepancies = DiscrepancyTable.writer(
            reconciliation, messages: messages, to: details.path(of: "discrepancies.csv"))
        let resolved = ResolvedTable.writer(reconciliation, to: details.path(of: "resolved.csv"))
        let cleanedWorkbook = CleanedWorkbook.writer(texts, to: details.path(of: "cleaned.xlsx"))
        let discrepancyWorkbook = DiscrepancyWorkbook.writer(
            reconciliation, messages: messages, to: details.path(of: "discrepancies.xlsx"))
        // The files take their names in this order. Both cores stay busy: while one gathers the shared strings of
        // cleaned.xlsx and cleaned.csv, the other writes the small files; then blocks of cleaned.csv and cleaned.xlsx
        // alternate, so that cleaned.csv is complete, and flushed, while cleaned.xlsx still deflates.
        let files: [any PieceFile] = [cleaned, discrepancies, resolved, cleanedWorkbook, discrepancyWorkbook]
        func pieces(_ file: Int) -> [PieceWriter.Job] {
            (0..<files[file].pieceCount).map { PieceWriter.Job(file: file, piece: $0) }
        }
        var jobs = [PieceWriter.Job(file: 3, piece: -1), PieceWriter.Job(file: 4, piece: -1)]
        jobs += pieces(1) + pieces(2) + pieces(4)
        let (table, workbook) = (pieces(0), pieces(3))
        for index in 0..<max(table.count, workbook.count) {
            if index < table.count { jobs.append(table[index]) }
            if index < workbook.count { jobs.append(workbook[index]) }
        }
        try PieceWriter.write(files, jobs: jobs, deferringTo: pending)
        if pending == nil { AtomicFile.synchronizeFolder(details.outputDirectory) }
        details.durations.append(("write", seconds(since: start, clock)))
        return messages
    }

    /// Plans the edit a push makes to the central sheet `bytes` (named `fileName`, whose extension tells its
    /// delimiter) and writes every change it would make to `changes.csv`, pushed or not. The folder entry of
    /// `changes.csv` is flushed by `writeReports`, before `run.json` marks the run complete.
    ///
    /// The plan addresses the sheet's bytes with 32-bit offsets: a sheet of `maximumBytes` (4 GiB) or more is
    /// refused with a sentence, never planned wrong.
    public static func planWriteBack(
        _ bytes: [UInt8], fileName: String, request: ReconcileRequest, reconciliation: Reconciliation,
        details: inout RunDetails, maximumBytes: Int = Int(UInt32.max)
    ) throws(StocktakeError) -> WriteBackPlan {
        try planWriteBack(
            bytes, fileName: fileName, request: request, reconciliation: reconciliation, details: &details,
            maximumBytes: maximumBytes, deferringTo: nil)
    }

    /// `planWriteBack(_:fileName:request:reconciliation:details:maximumBytes:)`, but with `pending` `changes.csv` is
    /// handed to it still flushing, to take its name, after the files already there, when it is committed.
    static func planWriteBack(
        _ bytes: [UInt8], fileName: String, request: ReconcileRequest, reconciliation: Reconciliation,
        details: inout RunDetails, maximumBytes: Int = Int(UInt32.max), deferringTo pending: PendingOutputs?
    ) throws(StocktakeError) -> WriteBackPlan {
        guard bytes.count < maximumBytes else {
            throw .badData(
                path: fileName,
                reason: "the central sheet is \(bytes.count) bytes, too large to plan its write-back (the limit is "
                    + "\(maximumBytes) bytes). Split it into smaller sheets; cleaned.csv and discrepancies.csv are "
                    + "written, changes.csv and the push are not.")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let reader = try sourceReader(request, buildings: reconciliation.buildings)
        let plan: WriteBackPlan
        if SourceFormat.of(prefix: bytes.prefix(8)) == .workbook {
            let sheet: String? =
                switch request.centralSheet {
                case .named(let name): name
                case .first, .all: nil
                }
            plan = try WriteBackPlan(
                workbook: bytes, fileName: fileName, sheet: sheet, reader: reader, reconciliation: reconciliation,
                options: request.writeBack)
        } else {
            do throws(CSVError) {
                plan = try WriteBackPlan(
                    sheet: bytes, fileName: fileName, reader: reader, reconciliation: reconciliation,
                    options: request.writeBack)
            } catch {
                throw SourceReader.translate(error, file: SourceFile(path: fileName, role: .central))
            }
        }
        try ChangeTable.write(
            plan.changes, to: details.path(of: "changes.csv"), synchronizingFolder: false, deferringTo: pending)
        details.changes = plan.changes
        details.durations.append(("plan", seconds(since: start, clock)))
        return plan
    }

    /// The bytes of the local central sheet at `path`, read straight into the array the plan addresses. A sheet
    /// that cannot be read is refused with the sentence reading it gives (gone, or unreadable and why).
    public static func centralBytes(_ path: String) throws(StocktakeError) -> [UInt8] {
        do throws(CSVError) {
            var source = try ByteSource(path: path, name: path)
            defer { source.finish() }
            return try source.remainingBytes()
        } catch {
            throw SourceReader.translate(error, file: SourceFile(path: path, role: .central))
        }
    }

    /// Writes `report.html`, `summary.txt`, `ledger.csv` and, last, `run.json`, stamping the run's finish time.
    ///
    /// Every file's bytes are on disk before it takes its name; the three reports are flushed together
    /// (`AtomicFileGroup`). The output folder is flushed once, before `run.json` is written: whenever `run.json` has survived a power cut, so have the names of the files written before it
    /// (`changes.csv`, `report.html`, `summary.txt`, `ledger.csv`), without a flush of the folder after each one.
    ///
    /// Their time is `run.json`'s `reports` duration; when the reports are written again (after a publish), the
    /// duration is of the last writing.
    ///
    /// `messages` are the findings' sentences as `writeTables` returned them; `nil` makes them again.
    public static func writeReports(
        _ reconciliation: Reconciliation, details: inout RunDetails, messages: [String]? = nil
    ) throws(StocktakeError) {
        try writeReports(reconciliation, details: &details, messages: messages, committingFirst: nil)
    }

    /// `writeReports(_:details:messages:)`, committing `pending` (the tables and `changes.csv`, still flushing) once
    /// the three reports are written and flushing, so that those flushes wait for the disk while the reports are
    /// made, and the files take their names in the order they were written. When a report cannot be written,
    /// `pending` is committed all the same before the error is thrown: the tables are kept.
    ///
    /// `beforeWaiting` is called once the reports' bytes are written, before the waits for the disk.
    static func writeReports(
        _ reconciliation: Reconciliation, details: inout RunDetails, messages: [String]?,
        committingFirst pending: PendingOutputs?, beforeWaiting: () -> Void = {}
    ) throws(StocktakeError) {
        let clock = ContinuousClock()
        let start = clock.now
        details.finished = Date()
        let reports = AtomicFileGroup(folder: details.outputDirectory)
        // In a large account the summary and the ledger are made on a thread of their own while the page is rendered
        // on all cores: after it, they took 60 ms on one core at 1,000,000 assets while the other waited.
        let finished = details
        let (others, page) = Parallel.alongside(
            threads: HTMLReport.threads(for: reconciliation),
            {
                (
                    summary: Summary.text(reconciliation, details: finished),
                    ledger: LedgerFile.bytes(reconciliation.ledger.entries)
                )
            },
            { HTMLReport.bytes(reconciliation, details: finished, messages: messages) })
        do {
            try reports.write(page, to: details.path(of: "report.html"))
            try reports.write(others.summary, to: details.path(of: "summary.txt"))
            try reports.write(others.ledger, to: details.path(of: "ledger.csv"))
        } catch {
            try pending?.commit()
            throw error
        }
        beforeWaiting()
        try pending?.commit()
        try reports.commit()
        details.durations.removeAll { $0.phase == "reports" }
        details.durations.append(("reports", seconds(since: start, clock)))
        try AtomicFile.write(RunRecord.json(reconciliation, details: details), to: details.path(of: "run.json"))
    }

    /// The input files of a request, folders expanded to their spreadsheets in name order and workbooks to the sheets
    /// asked for, each with a display name that is unique within the run.
    public static func inputFiles(_ request: ReconcileRequest) throws(StocktakeError) -> [SourceFile] {
        if isDirectory(request.central) {
            throw .usage("--central \(request.central) is a folder; give the central sheet's file.")
        }
        var files = try expand(SourceEntry(request.central, sheets: request.centralSheet), role: .central)
        for (entries, role) in [(request.sightings, SourceRole.sighting), (request.registers, .register)] {
            for entry in entries {
                files += try expand(entry, role: role)
            }
        }
        let names = files.map(\.displayName)
        let components = files.map { $0.path.split(separator: "/") }
        for index in files.indices {
            let namesakes = files.indices.filter { $0 != index && names[$0] == names[index] }
            guard !namesakes.isEmpty else { continue }
            // Enough trailing folders to tell the file from every other file of the same name.
            var depth = 2
            while depth < components[index].count
                && namesakes.contains(where: {
                    components[$0].suffix(depth).elementsEqual(components[index].suffix(depth))
                })
            {
                depth += 1
            }
            files[index].displayName = components[index].suffix(depth).joined(separator: "/")
        }
        return files
    }

    /// The sources an entry names: the file itself, or the spreadsheets of a folder in name order (hidden files,
    /// Excel's `~$` lock files and sub-folders left out); a workbook read for `.all` its sheets gives one source per
    /// visible worksheet.
    public static func expand(_ entry: SourceEntry, role: SourceRole) throws(StocktakeError) -> [SourceFile] {
        var files: [SourceFile] = []
        for path in try expand(entry.location) {
            switch entry.sheets {
            case .first:
                files.append(SourceFile(path: path, role: role, encoding: entry.encoding))
            case .named(let sheet):
                // A text file has one table: the sheet's name is for the entry's workbooks only.
                guard SourceFormat.of(path: path) == .workbook else {
                    files.append(SourceFile(path: path, role: role, encoding: entry.encoding))
                    continue
                }
                files.append(SourceFile(path: path, role: role, sheet: sheet))
            case .all:
                guard SourceFormat.of(path: path) == .workbook else {
                    files.append(SourceFile(path: path, role: role, encoding: entry.encoding))
                    continue
                }
                files += try WorkbookSource.visibleSheets(of: path).map {
                    SourceFile(path: path, role: role, sheet: $0)
                }
            }
        }
        return files
    }

    /// The file names a folder's listing is read from: spreadsheets saved as text or as workbooks. `.xls` is listed
    /// too, so that an old binary workbook is refused with its own message instead of being silently left out.
    static let spreadsheetExtensions: Set<String> = ["csv", "tsv", "txt", "xlsx", "xlsm", "xls"]

    /// The spreadsheets a path names: the file itself, or the spreadsheets of a folder in name order, with its `.txt`
    /// files that are tab-separated text (see `isTabSeparatedText`).
    public static func expand(_ entry: String) throws(StocktakeError) -> [String] {
        guard isDirectory(entry) else { return [entry] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: entry)
        } catch {
            throw .unreadableInput(path: entry, reason: "the folder cannot be listed (check its permissions)")
        }
        let wanted = names.filter { name in
            let fileExtension = (name as NSString).pathExtension.lowercased()
            return !name.hasPrefix(".") && !name.hasPrefix("~$") && spreadsheetExtensions.contains(fileExtension)
        }
        // A sub-folder that happens to be called `something.csv` is not a spreadsheet.
        return wanted.sorted().map { (entry as NSString).appendingPathComponent($0) }.filter { path in
            !isDirectory(path) && (!path.lowercased().hasSuffix(".txt") || isTabSeparatedText(path))
        }
    }

    /// Whether the `.txt` file at `path` is a sheet Excel saved as text: "Unicode Text" starts with a UTF-16
    /// byte-order mark, "Text (Tab delimited)" has a tab on its first line. Other `.txt` files in a sources folder
    /// (a clerk's notes, a README) are not sheets and are left out, as they always were. A file that starts with a
    /// UTF-32 byte-order mark, or cannot be read, is taken, so that reading it says what is wrong.
    static func isTabSeparatedText(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        let start = [UInt8]((try? handle.read(upToCount: 65_536)) ?? Data())
        let byteOrderMarks: [[UInt8]] = [[0xFF, 0xFE], [0xFE, 0xFF], [0x00, 0x00, 0xFE, 0xFF]]
        if byteOrderMarks.contains(where: { start.starts(with: $0) }) { return true }
        for byte in start {
            if byte == Delimiter.tab.rawValue { return true }
            if byte == ASCII.lineFeed || byte == ASCII.carriageReturn { return false }
        }
        return false
    }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// Reads the files in parallel and checks each can serve its role.
    ///
    /// A large file is cut into parts read at the same time (see `SourceSplit`), so that one big central sheet
    /// does not leave a core idle. Parts of all files are read largest first by one worker per core; the worker
    /// that reads the last part of a file joins its parts while the others go on reading.
    private static func read(_ files: [SourceFile], with reader: SourceReader) throws(StocktakeError) -> [SourceData] {
        let workers = Parallel.threads
        let sizes = files.map { ByteSource.size(of: $0.path) ?? 0 }
        // Parts of at least 8 MiB, and about four per worker in all, so that the largest-first order balances.
        let partSize = max(8 << 20, sizes.reduce(0, +) / (4 * workers))
        let splits = files.map { SourceSplit(file: $0, reader: reader, partSize: partSize) }
        var parts: [(file: Int, part: Int, bytes: Int)] = []
        for (file, split) in splits.enumerated() {
            for part in 0..<split.partCount {
                let end = part + 1 < split.partCount ? split.starts[part + 1] : max(sizes[file], split.starts[part])
                parts.append((file, part, end - split.starts[part]))
            }
        }
        let tasks = parts.sorted { $0.bytes > $1.bytes }
        let work = PartWork(files: splits.map(\.partCount))
        DispatchQueue.concurrentPerform(iterations: min(workers, tasks.count)) { _ in
            while let next = work.nextTask() {
                let task = tasks[next]
                let part = splits[task.file].readPart(task.part)
                KillPoint.reached(.midRead)
                // The part is handed over, so that the worker that joins the file holds no second reference to a
                // part's rows: the join appends to the first part's rows in place instead of copying them.
                guard let parts = work.finish(consume part, file: task.file, part: task.part) else { continue }
                do throws(StocktakeError) {
                    work.results[task.file] = .success(try splits[task.file].join(consume parts))
                } catch {
                    work.results[task.file] = .failure(error)
                }
            }
        }
        var sources: [SourceData] = []
        for index in files.indices {
            let source = try work.results[index]!.get()
            try check(source)
            sources.append(source)
        }
        return sources
    }

    /// The shared state of the workers of `read`: the next task, the parts read so far, the files joined.
    private final class PartWork: @unchecked Sendable {
        private let lock = NSLock()
        private var taken = 0
        private let taskCount: Int
        private var parts: [[SourceSplit.Part?]]
        let results: ResultSlots<Result<SourceData, StocktakeError>>

        init(files partCounts: [Int]) {
            taskCount = partCounts.reduce(0, +)
            parts = partCounts.map { Array(repeating: nil, count: $0) }
            results = ResultSlots(count: partCounts.count)
        }

        /// The index of the next task to run, or `nil` when all are taken.
        func nextTask() -> Int? {
            lock.withLock {
                guard taken < taskCount else { return nil }
                taken += 1
                return taken - 1
            }
        }

        /// Keeps a part read; returns all the file's parts, in order, when it was the last one to be read.
        func finish(_ part: SourceSplit.Part, file: Int, part index: Int) -> [SourceSplit.Part]? {
            lock.withLock {
                parts[file][index] = part
                guard parts[file].allSatisfy({ $0 != nil }) else { return nil }
                let done = parts[file].map { $0! }
                parts[file] = []
                return done
            }
        }
    }

    private static func check(_ source: SourceData) throws(StocktakeError) {
        let file = source.file
        let columns = source.layout.header.map { "\"\($0)\"" }.joined(separator: ", ")
        if file.role == .central {
            guard source.headerLine > 0 else {
                throw .badData(
                    path: file.path, reason: "the central sheet is empty. Export it again with its header row.")
            }
            guard source.layout.maps(.vtTag) else {
                throw .badData(
                    path: file.path,
                    reason: "the central sheet has no VT tag column (its columns are \(columns)). "
                        + "Map the tag column with --columns, for example {\"Asset #\": \"vt_tag\"}.")
            }
        } else if source.headerLine > 0 && !source.layout.hasIdentifier {
            throw .badData(
                path: file.path,
                reason: "no column holds a VT tag, CNS number, serial number or MAC address (its columns are "
                    + "\(columns)). Map one with --columns, for example {\"Asset #\": \"vt_tag\"}.")
        }
    }

    private static func seconds(since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Double {
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
