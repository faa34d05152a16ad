/// Trims the blank bytes a spreadsheet or CSV file leaves around a cell value.
///
/// Works on the raw UTF-8 bytes of a cell so normalizers never need to build a `String`
/// just to find where the value starts and ends.
public enum ByteTrim {
    /// Returns the part of `cell` without ASCII spaces, tabs, carriage returns, line feeds and
    /// no-break spaces (UTF-8 `C2 A0`) at either end. The result points into `cell`'s memory.
    @inline(__always)
    public static func trimmed(_ cell: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        // Nearly every cell starts and ends with a byte that is not blank: it is its own trimmed text.
        guard let base = cell.baseAddress, cell.count > 0 else { return cell }
        let first = base[0]
        let last = base[cell.count - 1]
        if first > 0x20 && first != 0xC2 && last > 0x20 && last != 0xA0 { return cell }
        return trimmedEnds(cell)
    }

    /// `trimmed(_:)` for a cell that may start or end with a blank.
    private static func trimmedEnds(_ cell: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = cell.startIndex
        var end = cell.endIndex
        while start < end {
            let byte = cell[start]
            if isBlank(byte) {
                start += 1
            } else if byte == 0xC2 && start + 1 < end && cell[start + 1] == 0xA0 {
                start += 2
            } else {
                break
            }
        }
        while end > start {
            let byte = cell[end - 1]
            if isBlank(byte) {
                end -= 1
            } else if byte == 0xA0 && end - 1 > start && cell[end - 2] == 0xC2 {
                end -= 2
            } else {
                break
            }
        }
        return UnsafeBufferPointer(rebasing: cell[start..<end])
    }

    /// True for the single-byte blanks that are trimmed: space, tab, carriage return and line feed.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
