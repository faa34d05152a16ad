import Testing

@testable import StocktakeCore

@Suite("DelimiterSniffer")
struct DelimiterSnifferTests {
    /// Feeds `pieces` to a new sniffer one by one; returns what each `scan` call answered and the final guess.
    private func sniff(_ pieces: [String]) -> (answers: [Bool], delimiter: Delimiter) {
        var sniffer = DelimiterSniffer()
        let answers = pieces.map { piece in
            Array(piece.utf8).withUnsafeBufferPointer { sniffer.scan($0) }
        }
        return (answers, sniffer.delimiter)
    }

    @Test func completesAtEndOfFirstNonBlankLine() {
        #expect(
            sniff(["\r\n", "\n", "a\tb", "\tc", "\r", "x,y,z\n"]) == ([false, false, false, false, true, true], .tab))
        #expect(sniff(["a;b;c"]) == ([false], .semicolon))
        #expect(sniff([]) == ([], .comma))
    }

    @Test func ignoresSeparatorsInsideQuotes() {
        #expect(sniff(["\"a,b\ttab\";c\n"]) == ([true], .semicolon))
        #expect(sniff(["\"line\n", "break, still quoted\"\tx\n"]) == ([false, true], .tab))
        #expect(sniff(["\"a\"\"b,c\";d\n"]) == ([true], .semicolon))
    }

    @Test func prefersCommaThenTabThenSemicolon() {
        #expect(sniff(["a,b\tc;d\n"]).delimiter == .comma)
        #expect(sniff(["a\tb;c\n"]).delimiter == .tab)
        #expect(sniff(["a;b\n"]).delimiter == .semicolon)
        #expect(sniff(["abc\n"]).delimiter == .comma)
    }

    @Test func choosesTabForTabSeparatedFileNames() {
        #expect(DelimiterSniffer.delimiter(forFileName: "export.tsv") == .tab)
        #expect(DelimiterSniffer.delimiter(forFileName: "EXPORT.TAB") == .tab)
        #expect(DelimiterSniffer.delimiter(forFileName: "survey.csv") == nil)
        #expect(DelimiterSniffer.delimiter(forFileName: "tsv") == nil)
        #expect(DelimiterSniffer.delimiter(forFileName: "archive.tsv.gz") == nil)
    }
}
