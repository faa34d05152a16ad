import Glibc

/// A pull scanner over the bytes of one XML part of a workbook: start and end tags, text and CDATA, as byte ranges.
///
/// It is built for the few XML vocabularies of a workbook (SpreadsheetML, relationships, content types), read
/// at the speed of a byte loop and without allocating per token: names and texts are ranges of `bytes`, and
/// names are compared by their local part, so `x:c` is `c` (some producers prefix the main namespace).
/// Comments and processing instructions are skipped. A document type declaration is refused with
/// `XMLError.documentTypeDeclaration`: entities are never declared, expanded or fetched. Only XML's five predefined
/// entities and numeric character references are decoded, by `appendDecoded(_:to:)`.
struct XMLScanner {
    /// One piece of the document.
    enum Token {
        /// A start tag, or an empty-element tag (`isEmpty`), which has no matching `end`.
        case start(Tag)
        /// An end tag; `name` is its local name.
        case end(name: Range<Int>)
        /// Character data between tags, with its references still encoded (see `appendDecoded(_:to:)`).
        case text(Range<Int>)
        /// The contents of a CDATA section, taken literally.
        case characterData(Range<Int>)
    }

    /// A start or empty-element tag.
    struct Tag {
        /// The element's local name (after any `prefix:`).
        let name: Range<Int>
        /// The bytes between the name and the closing `>` or `/>`: the attributes.
        let attributes: Range<Int>
        /// Whether the tag is `<name ... />`, an element without contents or end tag.
        let isEmpty: Bool
    }

    /// The part's bytes; they must stay valid while the scanner is used.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next token starts.
    private(set) var offset: Int
    /// How many elements are open.
    private(set) var depth = 0

    /// Starts scanning `bytes`, after a UTF-8 byte-order mark if there is one.
    init(bytes: UnsafeBufferPointer<UInt8>) throws(XMLError) {
        self.bytes = bytes
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw .notUTF8
        }
        offset = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The next token, or nil at the end of the document.
    mutating func next() throws(XMLError) -> Token? {
        let count = bytes.count
        while offset < count {
            if bytes[offset] != UInt8(ascii: "<") {
                let start = offset
                let end = find(UInt8(ascii: "<"), from: start) ?? count
                offset = end
                if depth > 0 { return .text(start..<end) }
                continue  // whitespace around the root element
            }
            guard offset + 1 < count else { throw .unexpectedEnd }
            switch bytes[offset + 1] {
            case UInt8(ascii: "/"):
                return .end(name: try scanEndTag())
            case UInt8(ascii: "?"):
                offset = try position(after: "?>", from: offset + 2)
            case UInt8(ascii: "!"):
                if has("<!--", at: offset) {
                    offset = try position(after: "-->", from: offset + 4)
                } else if has("<![CDATA[", at: offset) {
                    let start = offset + 9
                    offset = try position(after: "]]>", from: start)
                    return .characterData(start..<(offset - 3))
                } else {
                    // <!DOCTYPE, and <!ENTITY or <!ELEMENT that can only stand inside one.
                    throw .documentTypeDeclaration(offset: offset)
                }
            default:
                return .start(try scanStartTag())
            }
        }
        if depth > 0 { throw .unexpectedEnd }
        return nil
    }

    /// Skips the contents of the element whose start tag was just read, up to and including its end tag.
    mutating func skipElement() throws(XMLError) {
        let target = depth - 1
        while depth > target {
            guard try next() != nil else { throw .unexpectedEnd }
        }
    }

    /// Whether `name` (a local name from a token) is `literal`.
    func isName(_ name: Range<Int>, _ literal: StaticString) -> Bool {
        guard name.count == literal.utf8CodeUnitCount else { return false }
        return memcmp(bytes.baseAddress! + name.lowerBound, literal.utf8Start, name.count) == 0
    }

    /// The raw value (references still encoded) of the attribute whose local name is `name`, or nil.
    func attribute(_ name: StaticString, of tag: Tag) -> Range<Int>? {
        var index = tag.attributes.lowerBound
        let end = tag.attributes.upperBound
        while index < end {
            while index < end && Self.isSpace(bytes[index]) { index += 1 }
            guard index < end else { return nil }
            let nameStart = index
            var localStart = index
            while index < end && bytes[index] != UInt8(ascii: "=") && !Self.isSpace(bytes[index]) {
                if bytes[index] == UInt8(ascii: ":") { localStart = index + 1 }
                index += 1
            }
            let attributeName = localStart..<index
            while index < end && bytes[index] != UInt8(ascii: "\"") && bytes[index] != UInt8(ascii: "'") {
                index += 1
            }
            guard index < end, nameStart < attributeName.upperBound else { return nil }
            let quote = bytes[index]
            let valueStart = index + 1
            var valueEnd = valueStart
            while valueEnd < end && bytes[valueEnd] != quote { valueEnd += 1 }
            if isName(attributeName, name) { return valueStart..<valueEnd }
            index = valueEnd + 1
        }
        return nil
    }

    /// The value of the attribute `name` with its references decoded, or nil when the tag does not have it.
    func attributeString(_ name: StaticString, of tag: Tag) throws(XMLError) -> String? {
        guard let range = attribute(name, of: tag) else { return nil }
        return try string(range)
    }

    /// The text of `range` with its references decoded.
    func string(_ range: Range<Int>) throws(XMLError) -> String {
        var decoded: [UInt8] = []
        try appendDecoded(range, to: &decoded)
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Appends the bytes of `range` to `output` with the five predefined entities (`&lt;` `&gt;` `&amp;` `&quot;`
    /// `&apos;`) and numeric character references (`&#38;`, `&#x26;`) decoded, and line ends normalized as XML
    /// requires (CR LF and a lone CR become LF; `&#13;` stays a CR).
    func appendDecoded(_ range: Range<Int>, to output: inout [UInt8]) throws(XMLError) {
        var index = range.lowerBound
        while index < range.upperBound {
            guard let ampersand = find(UInt8(ascii: "&"), from: index, to: range.upperBound) else {
                appendNormalizingLineEnds(index..<range.upperBound, to: &output)
                return
            }
            appendNormalizingLineEnds(index..<ampersand, to: &output)
            guard
                let semicolon = find(UInt8(ascii: ";"), from: ampersand + 1, to: min(range.upperBound, ampersand + 12))
            else { throw .malformedReference(offset: ampersand) }
            let name = (ampersand + 1)..<semicolon
            if isName(name, "lt") {
                output.append(UInt8(ascii: "<"))
            } else if isName(name, "gt") {
                output.append(UInt8(ascii: ">"))
            } else if isName(name, "amp") {
                output.append(UInt8(ascii: "&"))
            } else if isName(name, "quot") {
                output.append(UInt8(ascii: "\""))
            } else if isName(name, "apos") {
                output.append(UInt8(ascii: "'"))
            } else if name.count >= 2 && bytes[name.lowerBound] == UInt8(ascii: "#") {
                guard let scalar = characterReference(name) else { throw .malformedReference(offset: ampersand) }
                output.append(contentsOf: UTF8.encode(scalar)!)
            } else {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
                throw .undefinedEntity(name: text, offset: ampersand)
            }
            index = semicolon + 1
        }
    }

    /// Appends the bytes of `range`, with CR LF and lone CRs turned into LF.
    private func appendNormalizingLineEnds(_ range: Range<Int>, to output: inout [UInt8]) {
        var index = range.lowerBound
        while let carriageReturn = find(0x0D, from: index, to: range.upperBound) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<carriageReturn]))
            output.append(0x0A)
            index = carriageReturn + 1
            if index < range.upperBound && bytes[index] == 0x0A { index += 1 }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<range.upperBound]))
    }

    /// Whether `range` holds a `&` or a CR (and so needs `appendDecoded(_:to:)`).
    func needsDecoding(_ range: Range<Int>) -> Bool {
        find(UInt8(ascii: "&"), from: range.lowerBound, to: range.upperBound) != nil
            || find(0x0D, from: range.lowerBound, to: range.upperBound) != nil
    }

    // MARK: - Scanning

    /// Reads `</name>` at `offset`; returns the local name.
    private mutating func scanEndTag() throws(XMLError) -> Range<Int> {
        let start = offset
        guard let close = find(UInt8(ascii: ">"), from: offset + 2) else { throw .unexpectedEnd }
        var nameEnd = offset + 2
        var localStart = nameEnd
        while nameEnd < close && !Self.isSpace(bytes[nameEnd]) {
            if bytes[nameEnd] == UInt8(ascii: ":") { localStart = nameEnd + 1 }
            nameEnd += 1
        }
        guard nameEnd > offset + 2 else { throw .malformedMarkup(offset: start) }
        guard depth > 0 else { throw .unbalancedEndTag(offset: start) }
        depth -= 1
        offset = close + 1
        return localStart..<nameEnd
    }

    /// Reads `<name attributes>` or `<name attributes/>` at `offset`.
    private mutating func scanStartTag() throws(XMLError) -> Tag {
        let start = offset
        let count = bytes.count
        var index = offset + 1
        var localStart = index
        while index < count {
            let byte = bytes[index]
            if Self.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            if byte == UInt8(ascii: ":") { localStart = index + 1 }
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "=") { throw .malformedMarkup(offset: start) }
            index += 1
        }
        let name = localStart..<index
        guard index > offset + 1 else { throw .malformedMarkup(offset: start) }
        let attributesStart = index
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let close = find(byte, from: index + 1) else { throw .unexpectedEnd }
                index = close + 1
            } else if byte == UInt8(ascii: ">") {
                offset = index + 1
                depth += 1
                return Tag(name: name, attributes: attributesStart..<index, isEmpty: false)
            } else if byte == UInt8(ascii: "/") {
                guard index + 1 < count else { throw .unexpectedEnd }
                guard bytes[index + 1] == UInt8(ascii: ">") else { throw .malformedMarkup(offset: index) }
                offset = index + 2
                return Tag(name: name, attributes: attributesStart..<index, isEmpty: true)
            } else if byte == UInt8(ascii: "<") {
                throw .malformedMarkup(offset: index)
            } else {
                index += 1
            }
        }
        throw .unexpectedEnd
    }

    /// The scalar of a `#123` or `#x7B` character reference, or nil when it is not a valid one.
    private func characterReference(_ name: Range<Int>) -> Unicode.Scalar? {
        var index = name.lowerBound + 1
        var radix: UInt32 = 10
        if bytes[index] == UInt8(ascii: "x") {
            radix = 16
            index += 1
        }
        guard index < name.upperBound else { return nil }
        var value: UInt32 = 0
        while index < name.upperBound {
            guard let digit = Self.digitValue(bytes[index], radix: radix), value <= 0x10FFFF else { return nil }
            value = value * radix + digit
            index += 1
        }
        guard value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Whether `literal` is at `index`.
    private func has(_ literal: StaticString, at index: Int) -> Bool {
        guard index + literal.utf8CodeUnitCount <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + index, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }

    /// The offset just past the first `literal` at or after `start`.
    private func position(after literal: StaticString, from start: Int) throws(XMLError) -> Int {
        var index = start
        let first = literal.utf8Start.pointee
        while let candidate = find(first, from: index) {
            if has(literal, at: candidate) { return candidate + literal.utf8CodeUnitCount }
            index = candidate + 1
        }
        throw .unexpectedEnd
    }

    /// The offset of the first `byte` in `start..<end` (the end of the bytes by default), or nil.
    private func find(_ byte: UInt8, from start: Int, to end: Int? = nil) -> Int? {
        let end = end ?? bytes.count
        guard start < end, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
