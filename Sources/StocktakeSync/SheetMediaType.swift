import StocktakeCore

/// The media type a sheet is pushed with, so that the server (and whoever downloads the sheet from it) knows what it
/// holds: a workbook is told by its first bytes, as the reader tells it, and text by its file name's extension.
enum SheetMediaType {
    /// An `.xlsx` workbook (Office Open XML spreadsheet).
    static let workbook = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    /// An `.xlsm` workbook, which may hold macros.
    static let macroEnabledWorkbook = "application/vnd.ms-excel.sheet.macroEnabled.12"

    /// The media type of `bytes`, a sheet named `fileName`: a workbook type for a ZIP package, else
    /// `text/tab-separated-values` for a `.tsv` name and `text/csv` for any other.
    static func of(_ bytes: [UInt8], fileName: String) -> String {
        let name = fileName.lowercased()
        if SourceFormat.of(prefix: bytes.prefix(8)) == .workbook {
            return name.hasSuffix(".xlsm") ? macroEnabledWorkbook : workbook
        }
        return name.hasSuffix(".tsv") ? "text/tab-separated-values" : "text/csv"
    }

    /// The `Content-Type` header value: a text type says its charset (stocktake pushes text only in UTF-8).
    static func header(of bytes: [UInt8], fileName: String) -> String {
        let type = of(bytes, fileName: fileName)
        return type.hasPrefix("text/") ? type + "; charset=utf-8" : type
    }
}
