/// One worksheet of a workbook, as `workbook.xml` lists it.
public struct WorkbookSheet: Sendable, Equatable {
    /// The name on the sheet's tab.
    public let name: String
    /// Whether the sheet is hidden (`state="hidden"` or `"veryHidden"`), so a clerk does not see it in Excel.
    public let isHidden: Bool
    /// The name of the sheet's part in the ZIP file, such as `xl/worksheets/sheet1.xml`.
    public let part: String

    public init(name: String, isHidden: Bool, part: String) {
        self.name = name
        self.isHidden = isHidden
        self.part = part
    }
}
