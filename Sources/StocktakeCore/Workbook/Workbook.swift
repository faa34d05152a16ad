/// An `.xlsx` workbook (Office Open XML, transitional or strict): its worksheets, read row by row as `CSVRecord`s.
///
/// Opening a workbook reads its package parts (`[Content_Types].xml`, `_rels/.rels`, the workbook part and its
/// relationships), the shared strings and the styles. Each worksheet is then read on demand by
/// `forEachRecord(in:_:)`, which inflates that one part and delivers its rows exactly as a CSV saved by Excel
/// would hold them (see `WorksheetReader`). Chart sheets and macro sheets are not worksheets and are left out.
public struct Workbook: Sendable {
    /// The ZIP file the workbook is in.
    public let archive: ZipArchive
    /// The worksheets in workbook (tab) order.
    public let sheets: [WorkbookSheet]
    /// The name of the workbook part, such as `xl/workbook.xml`.
    public let workbookPart: String
    /// Whether the workbook counts dates from 1904 (`workbookPr date1904`) instead of 1900.
    public let usesDate1904: Bool
    private let sharedStrings: SharedStrings
    private let styles: CellStyles

    /// The file name used in messages.
    public var name: String { archive.name }

    /// The sheet read when a source names none: the first visible worksheet, or the first one when all are hidden.
    public var defaultSheet: WorkbookSheet {
        sheets.first { !$0.isHidden } ?? sheets[0]
    }

    /// Opens the workbook in the file at `path`; `name` (the path by default) names it in messages.
    public init(path: String, name: String? = nil) throws(WorkbookError) {
        do {
            try self.init(archive: ZipArchive(path: path, name: name))
        } catch let error as ZipError {
            throw WorkbookError(error)
        } catch let error as WorkbookError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Opens the workbook in `bytes` (a pulled sheet, say); `name` names it in messages.
    public init(bytes: [UInt8], name: String) throws(WorkbookError) {
        let archive: ZipArchive
        do { archive = try ZipArchive(bytes: bytes, name: name) } catch { throw WorkbookError(error) }
        try self.init(archive: archive)
    }

    /// Opens the workbook in `archive`: finds its worksheets and reads its shared strings and styles.
    ///
    /// Throws `WorkbookError.noWorksheet` for a package without a worksheet (or without a workbook part).
    public init(archive: ZipArchive) throws(WorkbookError) {
        self.archive = archive
        let package = PackageReader(archive: archive)
        guard let workbookPart = try package.workbookPart() else { throw .noWorksheet(file: archive.name) }
        self.workbookPart = workbookPart
        let relationships = try package.relationships(of: workbookPart)
        let (sheetList, usesDate1904) = try package.sheetList(workbookPart: workbookPart)
        var sheets: [WorkbookSheet] = []
        for sheet in sheetList {
            guard let relationship = relationships.first(where: { $0.id == sheet.relationship }),
                relationship.hasType("worksheet")
            else { continue }
            sheets.append(WorkbookSheet(name: sheet.name, isHidden: sheet.isHidden, part: relationship.target))
        }
        guard !sheets.isEmpty else { throw .noWorksheet(file: archive.name) }
        self.sheets = sheets
        self.usesDate1904 = usesDate1904
        if let part = relationships.first(where: { $0.hasType("sharedStrings") }).map(\.target),
            let bytes = try package.contents(of: part, required: false)
        {
            sharedStrings = try package.parse(bytes, part: part) { buffer throws(XMLError) in
                try SharedStrings(part: buffer)
            }
        } else {
            sharedStrings = SharedStrings()
        }
        if let part = relationships.first(where: { $0.hasType("styles") }).map(\.target),
            let bytes = try package.contents(of: part, required: false)
        {
            styles = try package.parse(bytes, part: part) { buffer throws(XMLError) in try CellStyles(part: buffer) }
        } else {
            styles = CellStyles()
        }
    }

    /// The worksheet named `name` (exactly, then ignoring case as Excel does); throws `WorkbookError.noSuchSheet`,
    /// which lists the sheets there are.
    public func sheet(named name: String) throws(WorkbookError) -> WorkbookSheet {
        if let sheet = sheets.first(where: { $0.name == name }) { return sheet }
        if let sheet = sheets.first(where: { $0.name.lowercased() == name.lowercased() }) { return sheet }
        throw .noSuchSheet(file: self.name, sheet: name, available: sheets.map(\.name))
    }

    /// Calls `body` with each non-blank row of `sheet`, in order (see `WorksheetReader` for the cell texts).
    ///
    /// The record's buffers are reused for the next row: they are valid only inside `body`. Throws `WorkbookError`
    /// for a missing or damaged part (after delivering the rows before the damage), and rethrows whatever `body`
    /// throws, which stops reading.
    public func forEachRecord(
        in sheet: WorkbookSheet, limits: ReadLimits = ReadLimits(), _ body: (borrowing CSVRecord) throws -> Void
    ) throws {
        let package = PackageReader(archive: archive)
        guard let bytes = try package.contents(of: sheet.part, required: true) else { return }
        var reader = WorksheetReader(
            file: name, part: sheet.part, sharedStrings: sharedStrings, styles: styles,
            dateSystem: usesDate1904 ? .from1904 : .from1900)
        reader.limits = limits
        try reader.forEachRecord(in: bytes, body)
    }

    /// Calls `body` with each non-blank row of the sheet named `sheetName`, or of `defaultSheet` when it is nil.
    public func forEachRecord(inSheet sheetName: String? = nil, _ body: (borrowing CSVRecord) throws -> Void) throws {
        let sheet = try sheetName.map { name throws(WorkbookError) in try self.sheet(named: name) } ?? defaultSheet
        try forEachRecord(in: sheet, body)
    }
}
