import StocktakeCore
import Testing

struct PlaceholderTests {
    @Test(arguments: [
        "", " ", "\t \r\n", "\u{A0}", "N/A", "n/a", " n/A ", "NA", "na", "None", "NONE", "-", " - ", "TBD", "tbd",
        "To Be Filled By O.E.M.", "to be filled by o.e.m.", "TO  BE\tFILLED BY   O.E.M.", "  To Be Filled By O.E.M.  ",
    ])
    func recognizesBlanksAndPlaceholders(input: String) {
        #expect(Placeholder.isEmptyOrPlaceholder(input))
    }

    @Test(arguments: [
        "N/A2", "NAN", "n a", "--", "0", "TBD later", "To Be Filled By OEM", "To Be Filled By O.E.M", "NA.", "X",
        "N / A",
    ])
    func keepsRealValues(input: String) {
        #expect(!Placeholder.isEmptyOrPlaceholder(input))
    }
}
