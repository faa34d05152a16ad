import Testing

@testable import StocktakeGenerator

@Suite struct DelimitedTextWriterTests {
    @Test func quotesOnlyWhenNeeded() {
        #expect(DelimitedTextWriter.line(["a", " b ", "c,d"], separator: ",") == "a, b ,\"c,d\"")
        #expect(DelimitedTextWriter.line(["say \"hi\"", "x\ny"], separator: ",") == "\"say \"\"hi\"\"\",\"x\ny\"")
        #expect(DelimitedTextWriter.line(["c,d", "e\tf"], separator: "\t") == "c,d\t\"e\tf\"")
    }
}
