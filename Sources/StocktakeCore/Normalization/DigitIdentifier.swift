/// The digit part shared by VT tags and CNS numbers: digits straight from the cell bytes into an
/// integer, with the spreadsheet damage the two have in common recognized and explained.
enum DigitIdentifier {
    /// The largest supported count of digits; 19 nines still fit in a `UInt64`.
    static let maximumDigits = 19

    /// Parses `body` (the cell with blanks and any prefix removed) as at most `digits` decimal digits,
    /// optionally followed by a spreadsheet float tail of a dot and zeros (`.0`, `.00`).
    ///
    /// - Parameters:
    ///   - kind: the name of the identifier in reasons, such as "VT tag".
    ///   - shape: what the identifier looks like, ending a reason about a stray character,
    ///     such as "a VT tag is digits, optionally after VT".
    /// Parses a cell holding an identifier written as an optional letter prefix (any case, then an optional space
    /// or hyphen) followed by digits: `VT-001234`, `c 123`.
    /// - Parameter prefix: the prefix in lower-case ASCII letters.
    static func parse(
        cell: UnsafeBufferPointer<UInt8>, prefix: StaticString, digits: Int, kind: StaticString, shape: StaticString
    ) -> Normalized<UInt64> {
        let trimmed = ByteTrim.trimmed(cell)
        // Nearly every cell is its digits alone, no more of them than the account's: such a cell is no placeholder
        // (those start with -, n or t), has no prefix and nothing after its digits, so its number is the value.
        if let number = plainNumber(trimmed, digits: digits) {
            return .value(number)
        }
        if Placeholder.isEmptyOrPlaceholder(trimmed) {
            return .empty
        }
        var start = trimmed.startIndex
        let letters = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        let hasPrefix =
            trimmed.count >= letters.count && letters.indices.allSatisfy { trimmed[start + $0] | 0x20 == letters[$0] }
        if hasPrefix {
            start += letters.count
            if start < trimmed.endIndex && (trimmed[start] == 0x20 || trimmed[start] == UInt8(ascii: "-")) {
                start += 1
            }
        }
        let body = UnsafeBufferPointer(rebasing: trimmed[start...])
        if hasPrefix && body.isEmpty {
            return .invalid(reason: "has no digits after the \(prefix.description.uppercased()) prefix")
        }
        return parse(body, digits: digits, kind: kind, shape: shape)
    }

    /// The number `text` spells when it is 1 to `digits` decimal digits and nothing else; `nil` for anything else,
    /// which `parse` then reads in full.
    @inline(__always)
    private static func plainNumber(_ text: UnsafeBufferPointer<UInt8>, digits: Int) -> UInt64? {
        guard let base = text.baseAddress, text.count > 0, text.count <= maximumDigits else { return nil }
        var number: UInt64 = 0
        for index in 0..<text.count {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            number = number &* 10 &+ UInt64(digit)
        }
        // `parse` checks the setting for every cell that holds digits; so does this.
        precondition((1...maximumDigits).contains(digits), "digits must be between 1 and \(maximumDigits)")
        return text.count <= digits ? number : nil
    }

    static func parse(
        _ body: UnsafeBufferPointer<UInt8>, digits: Int, kind: StaticString, shape: StaticString
    ) -> Normalized<UInt64> {
        precondition((1...maximumDigits).contains(digits), "digits must be between 1 and \(maximumDigits)")
        var index = body.startIndex
        let end = body.endIndex
        var number: UInt64 = 0
        var count = 0
        while index < end && CellText.isDigit(body[index]) {
            if count < maximumDigits {
                number = number &* 10 &+ UInt64(body[index] &- UInt8(ascii: "0"))
            }
            count += 1
            index += 1
        }
        if index < end, let problem = trailingProblem(body, from: index, kind: kind, shape: shape) {
            return .invalid(reason: problem)
        }
        if count == 0 {
            return .invalid(reason: "has no digits; \(shape)")
        }
        if count > digits {
            return .invalid(
                reason: "has \(counted(count, "digit")); a \(kind) has at most \(digits)")
        }
        return .value(number)
    }

    /// Why the part from `index` on, after the leading digits, spoils the identifier; `nil` when it is a harmless
    /// float tail.
    private static func trailingProblem(
        _ body: UnsafeBufferPointer<UInt8>, from index: Int, kind: StaticString, shape: StaticString
    ) -> String? {
        let problem: String
        if index > body.startIndex && body[index] == UInt8(ascii: ".") {
            guard let tailProblem = floatTailProblem(body, dot: index, kind: kind, shape: shape) else {
                return nil
            }
            problem = tailProblem
        } else {
            problem = "contains \(CellText.describeCharacter(in: body, at: index)); \(shape)"
        }
        return isScientific(body) ? "is in scientific notation (Excel reformatted it); type the full \(kind)" : problem
    }

    /// Why the part from `dot` on is not a harmless `.0` tail, or `nil` when it is a dot and only zeros.
    private static func floatTailProblem(
        _ body: UnsafeBufferPointer<UInt8>, dot: Int, kind: StaticString, shape: StaticString
    ) -> String? {
        var index = dot + 1
        if index == body.endIndex {
            return "ends with a decimal point; a \(kind) is a whole number"
        }
        var onlyZeros = true
        while index < body.endIndex {
            let byte = body[index]
            if !CellText.isDigit(byte) {
                return "contains \(CellText.describeCharacter(in: body, at: index)); \(shape)"
            }
            onlyZeros = onlyZeros && byte == UInt8(ascii: "0")
            index += 1
        }
        return onlyZeros ? nil : "has a decimal part; a \(kind) is a whole number"
    }

    /// True when `body` is a number in spreadsheet scientific notation, such as `1.23E+05` or `1.2e5`.
    static func isScientific(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = body.startIndex
        let end = body.endIndex
        let mantissaStart = index
        while index < end && CellText.isDigit(body[index]) {
            index += 1
        }
        var mantissaDigits = index - mantissaStart
        if index < end && body[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < end && CellText.isDigit(body[index]) {
                index += 1
            }
            mantissaDigits += index - fractionStart
        }
        guard mantissaDigits > 0, index < end, body[index] | 0x20 == UInt8(ascii: "e") else {
            return false
        }
        index += 1
        if index < end && (body[index] == UInt8(ascii: "+") || body[index] == UInt8(ascii: "-")) {
            index += 1
        }
        let exponentStart = index
        while index < end && CellText.isDigit(body[index]) {
            index += 1
        }
        return index == end && index > exponentStart
    }
}
