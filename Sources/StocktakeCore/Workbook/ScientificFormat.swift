import Glibc

/// How a scientific number format (`0.00E+00`, `##0.0E+0`) shows a number, so that such a cell reads as the text
/// Excel shows and writes into a CSV it saves (`7.72E+04`), not as the number it holds (`77200`).
///
/// This matters because a tag Excel has turned into `7.72E+04` is damaged: the normalizers recognise the text as
/// scientific notation and say so, while the number `77200` would look like a valid tag, a different and wrong
/// finding. Formats that show a number without losing it (`0.00`, `#,##0`, `000000`, percentages) are not
/// imitated: their numbers are read whole.
///
/// The rules, as Excel and LibreOffice apply them: the placeholders (`0`, `#`, `?`) before the decimal point say
/// how many integer digits the mantissa has — with more than one, the exponent is a multiple of their count
/// (`##0.0E+0` is engineering notation, `77.2E+3`) and the `0`s among them are digits always shown; the
/// placeholders after the point are the fraction's digits (trailing zeros are left out for `#`, shown as spaces
/// for `?`); `E+` always shows the exponent's sign, `E-` only a minus; the `0`s after it are the exponent's least
/// count of digits. Rounding is half away from zero on the number's 15 significant digits, as Excel's. A code's
/// second section is for negative numbers (shown without a minus sign), its third for zero; a section without
/// placeholders shows its text (`"zero"`, or nothing). Quoted text, `\x` and other literal characters around the
/// number are kept, a minus sign goes before them, `_x` is a space (the width of `x`), and `[...]` (colors,
/// conditions) and `*x` (fill) are left out.
struct ScientificFormat: Sendable, Equatable {
    /// One scientific section of a format code.
    struct Section: Sendable, Equatable {
        var prefix: [UInt8] = []
        var suffix: [UInt8] = []
        /// The integer placeholders in order (`0`, `#` or `?`).
        var integerPlaceholders: [UInt8] = []
        var hasDecimalPoint = false
        /// The fraction placeholders in order.
        var fractionPlaceholders: [UInt8] = []
        var exponentLetter = UInt8(ascii: "E")
        var signsPositiveExponent = true
        var exponentPlaceholders = 0
        var exponentZeros = 0
    }

    /// What one section of a format code shows.
    enum Shown: Sendable, Equatable {
        /// The number in scientific notation.
        case scientific(Section)
        /// This text instead of the number (a section with no placeholder, such as `"zero"` or an empty one).
        case text([UInt8])
        /// The number as a plain number (a section with another format, or `General`).
        case number
    }

    /// The sections by which a number's sign picks: positive (or all), negative, zero.
    let sections: [Shown]

    /// The format of `code`, or nil when its first section is not scientific.
    init?(code: String) {
        let parts = Self.sections(of: Array(code.utf8))
        guard let first = parts.first, case .scientific = Self.parse(first) else { return nil }
        sections = parts.prefix(3).map { Self.parse($0) }
    }

    /// The built-in scientific formats: 11 (`0.00E+00`) and 48 (`##0.0E+0`).
    static func builtIn(_ id: Int) -> ScientificFormat? {
        switch id {
        case 11: ScientificFormat(code: "0.00E+00")
        case 48: ScientificFormat(code: "##0.0E+0")
        default: nil
        }
    }

    /// Appends `value` as the format shows it; false (nothing appended) when the format does not show it in
    /// scientific notation or as text (not finite, or its section is a plain number format).
    func append(_ value: Double, to output: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        var shown = sections[0]
        var minus = value < 0
        if value < 0 && sections.count > 1 {
            shown = sections[1]
            minus = false
        } else if value == 0 && sections.count > 2 {
            shown = sections[2]
        }
        switch shown {
        case .number:
            return false
        case .text(let text):
            output.append(contentsOf: text)
        case .scientific(let section):
            if minus { output.append(UInt8(ascii: "-")) }
            output.append(contentsOf: section.prefix)
            Self.appendNumber(abs(value), section, to: &output)
            output.append(contentsOf: section.suffix)
        }
        return true
    }

    /// The text `append` writes, as a string (for tests); nil when it writes nothing.
    func text(_ value: Double) -> String? {
        var output: [UInt8] = []
        return append(value, to: &output) ? String(decoding: output, as: UTF8.self) : nil
    }

    // MARK: - Showing a number

    private static func appendNumber(_ value: Double, _ section: Section, to output: inout [UInt8]) {
        var (digits, magnitude) = significantDigits(value)
        let period = max(section.integerPlaceholders.count, 1)
        var exponent = 0
        var integerCount = 1
        var kept: [UInt8] = []
        while true {
            exponent = floorDivide(magnitude, period) * period
            integerCount = magnitude - exponent + 1
            let (rounded, carried) = round(digits, to: integerCount + section.fractionPlaceholders.count)
            if carried {
                digits = [1]
                magnitude += 1
                continue
            }
            kept = rounded
            break
        }
        if value == 0 { exponent = 0 }
        var integer = Array(kept.prefix(integerCount)).map { $0 + UInt8(ascii: "0") }
        while integer.count > 1 && integer.first == UInt8(ascii: "0") { integer.removeFirst() }
        // Placeholders beyond the digits, right to left: `0` shows a zero, `?` a space, `#` nothing.
        for placeholder in section.integerPlaceholders.dropLast(integer.count).reversed() {
            if placeholder == UInt8(ascii: "0") {
                integer.insert(UInt8(ascii: "0"), at: 0)
            } else if placeholder == UInt8(ascii: "?") {
                integer.insert(UInt8(ascii: " "), at: 0)
            }
        }
        var fraction = Array(kept.dropFirst(integerCount)).map { $0 + UInt8(ascii: "0") }
        var position = fraction.count - 1
        while position >= 0 && fraction[position] == UInt8(ascii: "0")
            && section.fractionPlaceholders[position] != UInt8(ascii: "0")
        {
            if section.fractionPlaceholders[position] == UInt8(ascii: "?") {
                fraction[position] = UInt8(ascii: " ")
            } else {
                fraction.remove(at: position)
            }
            position -= 1
        }
        output.append(contentsOf: integer)
        if section.hasDecimalPoint { output.append(UInt8(ascii: ".")) }
        output.append(contentsOf: fraction)
        output.append(section.exponentLetter)
        if exponent < 0 {
            output.append(UInt8(ascii: "-"))
        } else if section.signsPositiveExponent {
            output.append(UInt8(ascii: "+"))
        }
        let exponentText = Array(String(abs(exponent)).utf8)
        if exponentText.count < section.exponentZeros {
            output.append(
                contentsOf: repeatElement(UInt8(ascii: "0"), count: section.exponentZeros - exponentText.count))
        }
        output.append(contentsOf: exponentText)
    }

    /// The 15 significant digits of `value` (not negative) as numbers 0–9, and the power of ten of the first;
    /// zero is `[0]` and 0.
    static func significantDigits(_ value: Double) -> (digits: [UInt8], magnitude: Int) {
        guard value > 0 else { return ([0], 0) }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            withVaList([value]) { vsnprintf(pointer.baseAddress!, 32, "%.14e", $0) }
        }
        // d.dddddddddddddde±x
        let text = buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }
        guard let mark = text.firstIndex(of: UInt8(ascii: "e")) else { return ([0], 0) }
        let digits = text[..<mark].filter { $0 != UInt8(ascii: ".") }.map { $0 - UInt8(ascii: "0") }
        let magnitude = Int(String(decoding: text[(mark + 1)...], as: UTF8.self)) ?? 0
        return (digits, magnitude)
    }

    /// `digits` rounded half away from zero to `count` digits (padded with zeros), and whether rounding carried
    /// past the first digit (`9.996` to three digits).
    static func round(_ digits: [UInt8], to count: Int) -> (digits: [UInt8], carried: Bool) {
        guard count < digits.count else {
            return (digits + repeatElement(0, count: count - digits.count), false)
        }
        var kept = Array(digits.prefix(count))
        guard digits[count] >= 5 else { return (kept, false) }
        var index = count - 1
        while index >= 0 {
            if kept[index] < 9 {
                kept[index] += 1
                return (kept, false)
            }
            kept[index] = 0
            index -= 1
        }
        return (kept, true)
    }

    private static func floorDivide(_ dividend: Int, _ divisor: Int) -> Int {
        dividend >= 0 ? dividend / divisor : -((-dividend + divisor - 1) / divisor)
    }

    // MARK: - Reading a format code

    /// The `;`-separated sections of a code (a `;` inside quotes or after `\` separates nothing).
    private static func sections(of code: [UInt8]) -> [ArraySlice<UInt8>] {
        var sections: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < code.count {
            switch code[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < code.count && code[index] != UInt8(ascii: "\"") { index += 1 }
            case UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "*"):
                index += 1
            case UInt8(ascii: ";"):
                sections.append(code[start..<index])
                start = index + 1
            default:
                break
            }
            index += 1
        }
        sections.append(code[start..<code.count])
        return sections
    }

    /// Where the reading of a section is: before the exponent's letter, in its mantissa or after it.
    private enum Part {
        case integer
        case fraction
        case exponent
    }

    /// What the section `code` shows: scientific notation when it has `E+`/`E-` followed by a digit placeholder,
    /// its text when it has no placeholder (and is not `General`), a plain number otherwise.
    private static func parse(_ code: ArraySlice<UInt8>) -> Shown {
        var section = Section()
        var part = Part.integer
        var seenPlaceholder = false
        var index = code.startIndex
        var literal: [UInt8] = []
        var hasLetters = false
        func flush() {
            if !seenPlaceholder { section.prefix += literal } else if part == .exponent { section.suffix += literal }
            literal = []
        }
        while index < code.endIndex {
            let byte = code[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                while index < code.endIndex && code[index] != UInt8(ascii: "\"") {
                    literal.append(code[index])
                    index += 1
                }
            case UInt8(ascii: "\\"):
                index += 1
                if index < code.endIndex { literal.append(code[index]) }
            case UInt8(ascii: "_"):
                index += 1
                literal.append(UInt8(ascii: " "))
            case UInt8(ascii: "*"):
                index += 1
            case UInt8(ascii: "["):
                while index < code.endIndex && code[index] != UInt8(ascii: "]") { index += 1 }
            case UInt8(ascii: "0"), UInt8(ascii: "#"), UInt8(ascii: "?"):
                flush()
                seenPlaceholder = true
                switch part {
                case .integer:
                    section.integerPlaceholders.append(byte)
                case .fraction:
                    section.fractionPlaceholders.append(byte)
                case .exponent:
                    section.exponentPlaceholders += 1
                    if byte == UInt8(ascii: "0") { section.exponentZeros += 1 }
                }
            case UInt8(ascii: "."):
                if part == .integer && seenPlaceholder || part == .integer && index + 1 < code.endIndex {
                    flush()
                    section.hasDecimalPoint = true
                    part = .fraction
                } else {
                    literal.append(byte)
                }
            case UInt8(ascii: "E"), UInt8(ascii: "e"):
                let next = index + 1
                guard part != .exponent, next < code.endIndex,
                    code[next] == UInt8(ascii: "+") || code[next] == UInt8(ascii: "-")
                else {
                    // A letter that is not an exponent: a date's (e is an era year), `General`'s, or text.
                    hasLetters = true
                    literal.append(byte)
                    break
                }
                flush()
                section.exponentLetter = byte
                section.signsPositiveExponent = code[next] == UInt8(ascii: "+")
                part = .exponent
                index = next
            case UInt8(ascii: ","):
                break  // a thousands separator or a scaling comma; neither is shown in a mantissa
            case UInt8(ascii: "@"):
                return .number  // a text section
            default:
                if byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z") { hasLetters = true }
                literal.append(byte)
            }
            index += 1
        }
        flush()
        if !seenPlaceholder {
            return hasLetters ? .number : .text(section.prefix)
        }
        guard part == .exponent, section.exponentPlaceholders > 0, !hasLetters else { return .number }
        section.exponentZeros = max(section.exponentZeros, 1)
        return .scientific(section)
    }
}
