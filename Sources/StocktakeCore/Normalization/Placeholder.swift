/// Recognizes cells that look filled in but say nothing: blanks and the placeholders clerks and
/// vendors type instead of leaving a cell empty.
///
/// The placeholders are, ignoring case and with runs of spaces or tabs inside counted as one
/// space: `N/A`, `NA`, `none`, `-`, `TBD` and `To Be Filled By O.E.M.` (what many devices report
/// as their serial number). Placeholder values count as empty everywhere, so they never match
/// two unrelated devices to each other.
public enum Placeholder {
    /// True when the cell, trimmed of blanks, is empty or one of the placeholders.
    @inline(__always)
    public static func isEmptyOrPlaceholder(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        let trimmed = ByteTrim.trimmed(cell)
        guard let first = trimmed.first else {
            return true
        }
        // Most cells hold a real value; the first byte rules nearly all of them out at once, where the cell is read.
        switch first | 0x20 {
        case UInt8(ascii: "-"), UInt8(ascii: "n"), UInt8(ascii: "t"): return isPlaceholder(trimmed, first: first)
        default: return false
        }
    }

    /// Whether a trimmed cell starting with `-`, `n` or `t` (in either case) is one of the placeholders.
    private static func isPlaceholder(_ trimmed: UnsafeBufferPointer<UInt8>, first: UInt8) -> Bool {
        switch CellText.lowerCased(first) {
        case UInt8(ascii: "-"):
            return trimmed.count == 1
        case UInt8(ascii: "n"):
            return matches(trimmed, "n/a") || matches(trimmed, "na") || matches(trimmed, "none")
        case UInt8(ascii: "t"):
            return matches(trimmed, "tbd") || matches(trimmed, "to be filled by o.e.m.")
        default:
            return false
        }
    }

    /// True when the text, trimmed of blanks, is empty or one of the placeholders.
    public static func isEmptyOrPlaceholder(_ text: String) -> Bool {
        CellText.withBytes(of: text) { isEmptyOrPlaceholder($0) }
    }

    /// Compares a trimmed cell with a lower-case form, ignoring ASCII case and treating each run
    /// of spaces or tabs in the cell as one space.
    private static func matches(_ cell: UnsafeBufferPointer<UInt8>, _ form: StaticString) -> Bool {
        let form = UnsafeBufferPointer(start: form.utf8Start, count: form.utf8CodeUnitCount)
        var formIndex = 0
        var cellIndex = cell.startIndex
        while cellIndex < cell.endIndex {
            var byte = cell[cellIndex]
            cellIndex += 1
            if byte == 0x20 || byte == 0x09 {
                while cellIndex < cell.endIndex && (cell[cellIndex] == 0x20 || cell[cellIndex] == 0x09) {
                    cellIndex += 1
                }
                byte = 0x20
            }
            if formIndex == form.count || CellText.lowerCased(byte) != form[formIndex] {
                return false
            }
            formIndex += 1
        }
        return formIndex == form.count
    }
}
