import Testing

@testable import StocktakeCore

struct SharedStringsTests {
    static func strings(_ xml: String) throws(XMLError) -> SharedStrings {
        try Array(xml.utf8).withUnsafeBufferPointer { buffer throws(XMLError) in try SharedStrings(part: buffer) }
    }

    static func texts(_ table: SharedStrings) -> [String] {
        (0..<table.count).map { table.string(at: $0)! }
    }

    @Test func readsPlainRichAndEmptyItems() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="5" uniqueCount="5">
            <si><t>VT-012976</t></si>
            <si><r><rPr><b/><sz val="11"/><rFont val="Calibri"/></rPr><t>Bâtiment</t></r><r><t xml:space="preserve"> B &amp; C</t></r></si>
            <si/>
            <si><t/></si>
            <si><t xml:space="preserve">  kept  </t></si>
            </sst>
            """
        let table = try Self.strings(xml)
        #expect(Self.texts(table) == ["VT-012976", "Bâtiment B & C", "", "", "  kept  "])
        #expect(table.string(at: 5) == nil)
        #expect(table.range(at: -1) == nil)
    }

    @Test func skipsPhoneticRuns() throws {
        let xml = """
            <sst><si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si></sst>
            """
        #expect(Self.texts(try Self.strings(xml)) == ["東京"])
    }

    @Test func decodesExcelEscapesAndReadsPrefixedNames() throws {
        let xml =
            "<x:sst xmlns:x=\"m\"><x:si><x:t>a_x000D_b_x005F_x000D_</x:t></x:si><x:si><x:t><![CDATA[<i>]]></x:t></x:si></x:sst>"
        #expect(Self.texts(try Self.strings(xml)) == ["a\rb_x000D_", "<i>"])
    }

    @Test func refusesEntityDeclarations() {
        #expect(throws: XMLError.documentTypeDeclaration(offset: 0)) {
            _ = try Self.strings("<!DOCTYPE x [<!ENTITY a \"b\">]><sst><si><t>&a;</t></si></sst>")
        }
    }
}
