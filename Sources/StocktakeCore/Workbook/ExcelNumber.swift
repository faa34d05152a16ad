import Glibc

/// The text of a workbook's number cells, as a CSV saved by Excel would hold it.
///
/// A cell's `v` is the number's decimal text as its producer wrote it (`12976`, `1234.0`, `4.5E+5`,
/// `0.30000000000000004`). The normalizers read CSV text, so a number becomes the shortest decimal text that
/// reads back as the same Double: an integer without `.0` and, for integers up to 2^53, never in exponent notation
/// (`12976`, `1234`, `450000`, `0.5`, `-3.25`).
enum ExcelNumber {
    /// Whether `text` is already the canonical text of an integer: an optional `-`, then 1 to 15 digits without a
    /// leading zero (or `0` itself). Such a `v` is used as it is, which is the common case and costs no parsing.
    static func isCanonicalInteger(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if text.count > 0 && text[0] == UInt8(ascii: "-") { index = 1 }
        let digits = text.count - index
        guard digits >= 1 && digits <= 15 else { return false }
        if text[index] == UInt8(ascii: "0") && (digits > 1 || index == 1) { return false }
        while index < text.count {
            guard text[index] &- UInt8(ascii: "0") < 10 else { return false }
            index += 1
        }
        return true
    }

    /// The number written in `text` (decimal, with an optional exponent), or nil when it is not a number.
    static func value(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard text.count > 0 && text.count < 64 else { return nil }
        for byte in text {
            // strtod would also read "inf", "nan" and hexadecimal, which no workbook writes in a number cell.
            guard
                (byte &- UInt8(ascii: "0") < 10) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            else { return nil }
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for index in 0..<text.count { buffer[index] = CChar(bitPattern: text[index]) }
            buffer[text.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard let end, buffer.baseAddress!.distance(to: end) == text.count else { return nil }
            return value
        }
    }

    /// Appends the shortest decimal text of `value` that reads back as `value`, without exponent notation unless
    /// the number is beyond 1e21 or below 1e-7 in magnitude (where Swift's own text is kept).
    static func append(_ value: Double, to output: inout [UInt8]) {
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            let integer = Int64(value)
            output.append(contentsOf: String(integer).utf8)  // -0 becomes 0
            return
        }
        let text = value.description
        guard let exponentIndex = text.utf8.firstIndex(of: UInt8(ascii: "e")) else {
            output.append(contentsOf: text.utf8)
            return
        }
        let mantissa = Array(text.utf8[..<exponentIndex])
        guard let exponent = Int(String(text[text.index(after: exponentIndex)...])), exponent > -8, exponent < 22
        else {
            output.append(contentsOf: text.utf8)
            return
        }
        var digits: [UInt8] = []
        var negative = false
        var pointPosition = 0
        for byte in mantissa {
            if byte == UInt8(ascii: "-") {
                negative = true
            } else if byte == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else {
                digits.append(byte)
            }
        }
        if !mantissa.contains(UInt8(ascii: ".")) { pointPosition = digits.count }
        while digits.count > 1 && digits.last == UInt8(ascii: "0") && digits.count > pointPosition {
            digits.removeLast()
        }
        let point = pointPosition + exponent
        if negative { output.append(UInt8(ascii: "-")) }
        if point <= 0 {
            output.append(contentsOf: "0.".utf8)
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -point))
            output.append(contentsOf: digits)
        } else if point >= digits.count {
            output.append(contentsOf: digits)
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - digits.count))
        } else {
            output.append(contentsOf: digits[..<point])
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: digits[point...])
        }
    }

    /// The text `append` writes, as a string (for tests).
    static func text(_ value: Double) -> String {
        var output: [UInt8] = []
        append(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
