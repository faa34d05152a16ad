/// One worksheet of an `.xlsx` source, read into the same normalized records as a CSV file.
///
/// A workbook's rows come out of `Workbook` as records of cell texts, numbers and dates written the way a CSV saved
/// by Excel would hold them, so every normalizer, check and finding treats a workbook exactly like its CSV.
public struct WorkbookSource {
    private enum Input {
        case file(path: String)
        case memory([UInt8], name: String)
        case opened(Workbook)
    }

    /// The source: its path, role and the sheet asked for (`nil` for the first visible one).
    public let file: SourceFile
    private var input: Input

    /// The workbook in the file at `file.path`.
    public init(file: SourceFile) {
        self.file = file
        input = .file(path: file.path)
    }

    /// The workbook in `bytes` (a pulled sheet), named `name` in messages.
    public init(file: SourceFile, bytes: [UInt8], name: String) {
        self.file = file
        input = .memory(bytes, name: name)
    }

    /// The same source with its workbook opened (its package, shared strings and styles read), so that reading it
    /// again, as `stocktake inspect` does, does not open it again.
    public func opened() throws(StocktakeError) -> WorkbookSource {
        var source = self
        source.input = .opened(try open())
        return source
    }

    /// Reads the sheet's rows with `reader`'s mapping and rules.
    public func read(with reader: SourceReader) throws(StocktakeError) -> SourceData {
        let workbook = try open()
        var state = ReadState(file: file, reader: reader, expectedBytes: 0)
        do {
            let sheet =
                try file.sheet.map { name throws(WorkbookError) in try workbook.sheet(named: name) }
                ?? workbook.defaultSheet
            try workbook.forEachRecord(in: sheet, limits: reader.limits) { record in try state.take(record) }
            try state.finish()
        } catch let error as WorkbookError {
            throw translate(error)
        } catch let error as CSVError {
            throw SourceReader.translate(error, file: file)
        } catch {
            throw .badData(path: file.path, reason: "\(error)")
        }
        return state.data
    }

    /// The workbook's worksheets in tab order, hidden ones included, and the one this source reads.
    public func sheets() throws(StocktakeError) -> (all: [WorkbookSheet], read: WorkbookSheet) {
        let workbook = try open()
        do {
            let sheet =
                try file.sheet.map { name throws(WorkbookError) in try workbook.sheet(named: name) }
                ?? workbook.defaultSheet
            return (workbook.sheets, sheet)
        } catch {
            throw translate(error)
        }
    }

    /// Calls `body` with every non-blank row of the sheet after its header, each cell as the text it is read as
    /// (before normalization), without keeping them: what `stocktake inspect --rows` lists.
    public func forEachRowAfterHeader(_ body: ([String]) -> Void) throws(StocktakeError) {
        let workbook = try open()
        var sawHeader = false
        do {
            let sheet =
                try file.sheet.map { name throws(WorkbookError) in try workbook.sheet(named: name) }
                ?? workbook.defaultSheet
            try workbook.forEachRecord(in: sheet) { record in
                if sawHeader {
                    body(record.strings)
                } else if (0..<record.count).contains(where: { ByteTrim.trimmed(record[$0]).count > 0 }) {
                    sawHeader = true
                }
            }
        } catch let error as WorkbookError {
            throw translate(error)
        } catch {
            throw .badData(path: file.path, reason: "\(error)")
        }
    }

    /// The names of the visible worksheets of the workbook at `path`, in tab order: what `"sheets": "all"` reads.
    public static func visibleSheets(of path: String) throws(StocktakeError) -> [String] {
        try WorkbookSource(file: SourceFile(path: path, role: .sighting)).visibleSheets()
    }

    /// The names of the visible worksheets of the workbook in `bytes`, named `name` in messages.
    public static func visibleSheets(of bytes: [UInt8], name: String) throws(StocktakeError) -> [String] {
        try WorkbookSource(file: SourceFile(path: name, role: .sighting), bytes: bytes, name: name).visibleSheets()
    }

    private func visibleSheets() throws(StocktakeError) -> [String] {
        try open().sheets.filter { !$0.isHidden }.map(\.name)
    }

    /// The error for a source that is an OLE2 compound document: an old `.xls` workbook or a password-protected one.
    public static func refusal(of file: SourceFile) -> StocktakeError {
        WorkbookSource(file: file).translate(.encryptedOrLegacy(file: file.path))
    }

    private func open() throws(StocktakeError) -> Workbook {
        do {
            switch input {
            case .file(let path): return try Workbook(path: path, name: path)
            case .memory(let bytes, let name): return try Workbook(bytes: bytes, name: name)
            case .opened(let workbook): return workbook
            }
        } catch {
            throw translate(error)
        }
    }

    /// The workbook's sentence as a data error on the source's path: the file name it starts with becomes the path
    /// the error names ("central.xlsx is encrypted" reads "central.xlsx: it is encrypted").
    func translate(_ error: WorkbookError) -> StocktakeError {
        let name: String
        switch input {
        case .file(let path): name = path
        case .memory(_, let memoryName): name = memoryName
        case .opened(let workbook): name = workbook.name
        }
        var text = error.description
        if text.hasPrefix(name + ": ") {
            text.removeFirst(name.count + 2)
        } else if text.hasPrefix(name + " ") {
            text = "it" + text.dropFirst(name.count)
        }
        return .badData(path: file.path, reason: text)
    }
}
