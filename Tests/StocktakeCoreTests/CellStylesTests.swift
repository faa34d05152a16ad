import Testing

@testable import StocktakeCore

struct CellStylesTests {
    @Test func tellsDateStylesByBuiltInAndCustomFormats() throws {
        let xml = """
            <styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
            <numFmts count="3"><numFmt numFmtId="164" formatCode="dd/mm/yyyy;@"/>
            <numFmt numFmtId="165" formatCode="&quot;Tag &quot;000000"/><numFmt numFmtId="166" formatCode="[h]:mm"/></numFmts>
            <cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>
            <cellXfs count="7"><xf numFmtId="0" fontId="0"/><xf numFmtId="14" applyNumberFormat="1"><alignment/></xf>
            <xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/><xf/><xf numFmtId="47"/></cellXfs>
            </styleSheet>
            """
        let styles = try Array(xml.utf8).withUnsafeBufferPointer { try CellStyles(part: $0) }
        #expect((0..<8).map { styles.isDate(style: $0) } == [false, true, true, false, false, false, true, false])
        #expect(!styles.isDate(style: -1))
        #expect(!CellStyles().isDate(style: 0))
    }

    /// The built-in scientific formats 11 and 48, and custom codes with `E+`/`E-`, unless the custom code
    /// redefines a built-in number or is a date.
    @Test func tellsScientificStyles() throws {
        let xml = """
            <styleSheet><numFmts><numFmt numFmtId="164" formatCode="0.0E+00"/><numFmt numFmtId="11" formatCode="0.00"/>
            <numFmt numFmtId="165" formatCode="yyyy-mm-dd"/></numFmts>
            <cellXfs><xf numFmtId="0"/><xf numFmtId="11"/><xf numFmtId="48"/><xf numFmtId="164"/><xf numFmtId="165"/>
            <xf numFmtId="14"/></cellXfs></styleSheet>
            """
        let styles = try Array(xml.utf8).withUnsafeBufferPointer { try CellStyles(part: $0) }
        #expect(
            (0..<7).map { styles.scientificFormat(style: $0)?.text(77200) } == [
                nil, nil, "77.2E+3", "7.7E+04", nil, nil, nil,
            ])
        #expect(styles.scientificFormat(style: -1) == nil)
        let builtIn = try Array("<styleSheet><cellXfs><xf numFmtId=\"11\"/></cellXfs></styleSheet>".utf8)
            .withUnsafeBufferPointer { try CellStyles(part: $0) }
        #expect(builtIn.scientificFormat(style: 0)?.text(77200) == "7.72E+04")
        #expect(CellStyles().scientificFormat(style: 0) == nil)
    }

    @Test func recognisesBuiltInDateFormats() {
        #expect((0..<60).filter(CellStyles.isBuiltInDateFormat) == Array(14...22) + Array(45...47))
    }

    @Test(arguments: [
        ("yyyy-mm-dd", true), ("d/m/yy h:mm", true), ("[$-409]mmmm d, yyyy;@", true), ("hh:mm:ss AM/PM", true),
        ("[Red]dd.mm.yyyy", true), ("General", false), ("0.00", false), ("#,##0 \"days\"", false),
        ("\"Day \"0", false), ("0\\d", false), ("0_m", false), ("0*s", false), ("[h]:mm:ss", false),
        ("[mm]:ss", false), ("[Blue]0.00;[Red]-0.00", false), ("@", false), ("0.00E+00", false),
    ])
    func tellsDateFormatCodes(code: String, isDate: Bool) {
        #expect(CellStyles.isDateFormat(code) == isDate)
    }
}
