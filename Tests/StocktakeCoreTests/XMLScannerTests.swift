import Testing

@testable import StocktakeCore

struct XMLScannerTests {
    /// The tokens of `xml` as readable strings: `<name attrs>`, `<name attrs/>`, `</name>`, `"text"`, `[cdata]`.
    static func tokens(_ xml: String) throws(XMLError) -> [String] {
        let bytes = Array(xml.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(XMLError) in
            var scanner = try XMLScanner(bytes: buffer)
            var result: [String] = []
            func text(_ range: Range<Int>) -> String { String(decoding: buffer[range], as: UTF8.self) }
            while let token = try scanner.next() {
                switch token {
                case .start(let tag):
                    let attributes = text(tag.attributes).trimmingSpaces
                    let spaced = attributes.isEmpty ? "" : " " + attributes
                    result.append("<\(text(tag.name))\(spaced)\(tag.isEmpty ? "/" : "")>")
                case .end(let name): result.append("</\(text(name))>")
                case .text(let range): result.append("\"\(try scanner.string(range))\"")
                case .characterData(let range): result.append("[\(text(range))]")
                }
            }
            return result
        }
    }

    static func error(_ xml: String) -> XMLError? {
        do {
            _ = try tokens(xml)
            return nil
        } catch {
            return error
        }
    }

    @Test func scansTagsTextAndCharacterData() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <!-- a comment <c> -->
            <root a="1" b='x>y'><c r="A1"/><t xml:space="preserve"> a </t><v><![CDATA[<&>]]></v></root>
            """
        #expect(
            try Self.tokens(xml) == [
                "<root a=\"1\" b='x>y'>", "<c r=\"A1\"/>", "<t xml:space=\"preserve\">", "\" a \"", "</t>", "<v>",
                "[<&>]", "</v>", "</root>",
            ])
    }

    @Test func namesElementsByTheirLocalName() throws {
        #expect(try Self.tokens("<x:sst xmlns:x=\"u\"><x:si/></x:sst>") == ["<sst xmlns:x=\"u\">", "<si/>", "</sst>"])
    }

    @Test func findsAttributesByLocalNameAndDecodesThem() throws {
        let bytes = Array("<sheet name=\"A &amp; B\" sheetId=\"2\" r:id=\"rId7\" state = 'hidden'/>".utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            var scanner = try XMLScanner(bytes: buffer)
            guard case .start(let tag) = try scanner.next() else {
                Issue.record("no start tag")
                return
            }
            #expect(try scanner.attributeString("name", of: tag) == "A & B")
            #expect(try scanner.attributeString("id", of: tag) == "rId7")
            #expect(try scanner.attributeString("sheetId", of: tag) == "2")
            #expect(try scanner.attributeString("state", of: tag) == "hidden")
            #expect(scanner.attribute("missing", of: tag) == nil)
            #expect(scanner.isName(tag.name, "sheet"))
            #expect(!scanner.isName(tag.name, "sheets"))
        }
    }

    @Test func decodesThePredefinedEntitiesAndCharacterReferences() throws {
        #expect(
            try Self.tokens("<t>&lt;&gt;&amp;&quot;&apos; &#65;&#x42;&#xe9;&#x1F600;</t>")
                == ["<t>", "\"<>&\"' ABé😀\"", "</t>"])
    }

    @Test func normalizesLineEndsButKeepsReferencedCarriageReturns() throws {
        #expect(try Self.tokens("<t>a\r\nb\rc\nd&#13;&#10;e</t>") == ["<t>", "\"a\nb\nc\nd\r\ne\"", "</t>"])
    }

    @Test func refusesADocumentTypeDeclarationWithoutExpandingIt() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE sst [<!ENTITY lol "lol"><!ENTITY ext SYSTEM "http://127.0.0.1:9/x">]>
            <sst><si><t>&lol;&ext;</t></si></sst>
            """
        #expect(Self.error(xml) == .documentTypeDeclaration(offset: 22))
        #expect(Self.error("<a><!ENTITY x \"y\"></a>") == .documentTypeDeclaration(offset: 3))
    }

    @Test func refusesUndefinedEntitiesAndStrayAmpersands() {
        #expect(Self.error("<t>&nbsp;</t>") == .undefinedEntity(name: "nbsp", offset: 3))
        #expect(Self.error("<t>a & b</t>") == .malformedReference(offset: 5))
        #expect(Self.error("<t>&#0;</t>") == .malformedReference(offset: 3))
        #expect(Self.error("<t>&#xD800;</t>") == .malformedReference(offset: 3))
        #expect(Self.error("<t>&#x110000;</t>") == .malformedReference(offset: 3))
    }

    @Test func refusesTruncatedAndMalformedXML() {
        #expect(Self.error("<root><c r=\"A1") == .unexpectedEnd)
        #expect(Self.error("<root><c>") == .unexpectedEnd)
        #expect(Self.error("<root><!-- open") == .unexpectedEnd)
        #expect(Self.error("<root><![CDATA[ open") == .unexpectedEnd)
        #expect(Self.error("<root></root></x>") == .unbalancedEndTag(offset: 13))
        #expect(Self.error("<root>< c/></root>") == .malformedMarkup(offset: 6))
        #expect(Self.error("<root><c/x></root>") == .malformedMarkup(offset: 8))
        #expect(Self.error("<") == .unexpectedEnd)
    }

    @Test func refusesUTF16AndSkipsAUTF8ByteOrderMark() throws {
        let utf16: [UInt8] = [0xFF, 0xFE, 0x3C, 0x00]
        #expect(throws: XMLError.notUTF8) { try utf16.withUnsafeBufferPointer { _ = try XMLScanner(bytes: $0) } }
        #expect(try Self.tokens("\u{FEFF}<a/>") == ["<a/>"])
    }

    @Test func skipsAnElementWithItsContents() throws {
        let bytes = Array("<r><f>SUM(<x/>A1)</f><v>3</v></r>".utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            var scanner = try XMLScanner(bytes: buffer)
            _ = try scanner.next()
            _ = try scanner.next()  // <f>
            try scanner.skipElement()
            guard case .start(let tag) = try scanner.next() else {
                Issue.record("no <v>")
                return
            }
            #expect(scanner.isName(tag.name, "v"))
        }
    }
}
