import Testing

@testable import stocktake

/// How an option is written in the help and usage lines.
struct OptionTests {
    @Test func labelsNameTheValue() {
        #expect(Option("--quiet", help: "h").label == "--quiet")
        #expect(Option("--jobs", .text(placeholder: "DIR"), help: "h").label == "--jobs DIR")
        #expect(Option("--parallel", .number(placeholder: "N", range: 1...2), help: "h").label == "--parallel N")
        #expect(Option("--as-of", .date, help: "h").label == "--as-of YYYY-MM-DD")
    }

    @Test func onlyAFlagTakesNoValue() {
        #expect(!Option("--quiet", help: "h").takesValue)
        #expect(Option("--as-of", .date, help: "h").takesValue)
    }

    @Test func aRepeatableOptionSaysSo() {
        let once = Option("--account", .text(placeholder: "NAME"), help: "Only this account.")
        let many = once.repeatable()
        #expect(!once.isRepeatable)
        #expect(once.listedHelp == "Only this account.")
        #expect(many.isRepeatable)
        #expect(many.listedHelp == "Only this account. Repeat for more.")
        #expect(many.name == once.name && many.kind == once.kind && many.help == once.help)
    }
}
