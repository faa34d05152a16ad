/// Which cell styles of a workbook (`xl/styles.xml`) show numbers as dates, and which in scientific notation.
///
/// A cell's `s` attribute is an index into `cellXfs`, whose `xf` elements name a number format by `numFmtId`:
/// a built-in one, or a custom `numFmt` with its format code. Excel stores dates as numbers, so this is the only
/// way to know that `45292` in a cell means 2024-01-01; and it shows `77200` in a scientific format as
/// `7.72E+04`, the text a CSV it saves holds (see `ScientificFormat`).
struct CellStyles: Sendable {
    /// Whether each style, by its index in `cellXfs`, has a date format.
    private var dateStyles: [Bool] = []
    /// The scientific format of each style, by its index in `cellXfs`; empty when no style has one.
    private var scientificStyles: [ScientificFormat?] = []

    /// No styles: every number is a number.
    init() {}

    /// Reads the styles from the bytes of the styles part.
    init(part: UnsafeBufferPointer<UInt8>) throws(XMLError) {
        var scanner = try XMLScanner(bytes: part)
        var customDates: [Int: Bool] = [:]
        var customScientific: [Int: ScientificFormat] = [:]
        var formatIDs: [Int] = []
        var inCellFormats = false
        var xfDepth = 0
        while let token = try scanner.next() {
            switch token {
            case .start(let tag):
                if scanner.isName(tag.name, "numFmt") {
                    if let id = try scanner.attributeString("numFmtId", of: tag).flatMap({ Int($0) }),
                        let code = try scanner.attributeString("formatCode", of: tag)
                    {
                        customDates[id] = Self.isDateFormat(code)
                        customScientific[id] = ScientificFormat(code: code)
                    }
                } else if scanner.isName(tag.name, "cellXfs") {
                    inCellFormats = !tag.isEmpty
                } else if inCellFormats && scanner.isName(tag.name, "xf") {
                    if xfDepth == 0 {
                        formatIDs.append(try scanner.attributeString("numFmtId", of: tag).flatMap { Int($0) } ?? 0)
                    }
                    if !tag.isEmpty { xfDepth += 1 }
                }
            case .end(let name):
                if scanner.isName(name, "cellXfs") {
                    inCellFormats = false
                } else if inCellFormats && scanner.isName(name, "xf") {
                    xfDepth -= 1
                }
            case .text, .characterData:
                break
            }
        }
        dateStyles = formatIDs.map { customDates[$0] ?? Self.isBuiltInDateFormat($0) }
        let scientific = formatIDs.map { id in
            customDates[id] == nil ? ScientificFormat.builtIn(id) : customScientific[id]
        }
        if scientific.contains(where: { $0 != nil }) { scientificStyles = scientific }
    }

    /// Whether style `index` (a cell's `s`) shows its number as a date or a time.
    func isDate(style index: Int) -> Bool {
        index >= 0 && index < dateStyles.count && dateStyles[index]
    }

    /// The scientific format of style `index` (a cell's `s`), or nil when it has none (or a date format).
    func scientificFormat(style index: Int) -> ScientificFormat? {
        guard index >= 0 && index < scientificStyles.count && !isDate(style: index) else { return nil }
        return scientificStyles[index]
    }

    /// The built-in date and time formats: 14–22 (`m/d/yyyy` … `m/d/yy h:mm`) and 45–47 (`mm:ss`, `[h]:mm:ss`,
    /// `mmss.0`).
    static func isBuiltInDateFormat(_ id: Int) -> Bool {
        (14...22).contains(id) || (45...47).contains(id)
    }

    /// Whether a custom format code shows a date or a time: it has a `d`, `m`, `y`, `h` or `s` outside quoted
    /// text, `[...]` brackets (colors, conditions, locales) and escaped characters (`\x`, `_x`, `*x`).
    /// Elapsed-time formats (`[h]:mm`, `[mm]:ss`) count durations, not dates, so they are not dates.
    static func isDateFormat(_ code: String) -> Bool {
        let bytes = Array(code.utf8)
        var index = 0
        var hasDatePart = false
        while index < bytes.count {
            let byte = bytes[index] | 0x20  // ASCII lowercase
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") { index += 1 }
            case UInt8(ascii: "["):
                let start = index + 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "]") { index += 1 }
                let inside = bytes[start..<min(index, bytes.count)].map { $0 | 0x20 }
                if let first = inside.first, [UInt8(ascii: "h"), UInt8(ascii: "m"), UInt8(ascii: "s")].contains(first),
                    inside.allSatisfy({ $0 == first })
                {
                    return false
                }
            case UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "*"):
                index += 1
            default:
                if byte == UInt8(ascii: "d") || byte == UInt8(ascii: "m") || byte == UInt8(ascii: "y")
                    || byte == UInt8(ascii: "h") || byte == UInt8(ascii: "s")
                {
                    hasDatePart = true
                }
            }
            index += 1
        }
        return hasDatePart
    }
}
