import Testing

@testable import StocktakeCore

@Suite("HTMLReport: report.html")
struct HTMLReportTests {
    /// The fixture with awkward names: an account, a file and an unmapped column holding HTML.
    static var page: String {
        var details = OutputFixture.details
        details.account = "Tom & \"Jerry's\" <lab>"
        var inputs = OutputFixture.inputs
        inputs[1].file = SourceFile(path: "/data/a&b<c>.csv", role: .sighting)
        inputs[0].unmapped = ["<Notes>"]
        var discrepancies = OutputFixture.discrepancies
        discrepancies[0].detail = .text("<script>alert('x')</script> & \"quoted\"")
        let reconciliation = Reconciliation(
            assets: OutputFixture.assets, discrepancies: discrepancies, inputs: inputs, asOf: OutputFixture.asOf)
        return HTMLReport.html(reconciliation, details: details)
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func escapeReplacesTheFiveSpecialCharacters() {
        #expect(HTMLReport.escape("a<b>c&d\"e'f") == "a&lt;b&gt;c&amp;d&quot;e&#39;f")
        #expect(HTMLReport.escape("&amp;") == "&amp;amp;")
        #expect(HTMLReport.escape("Café ✓\r\n") == "Café ✓\r\n")
        #expect(HTMLReport.escape("") == "")
    }

    @Test func messagesAndNamesAreEscaped() {
        let page = Self.page
        #expect(
            page.contains("<title>Stocktake report: Tom &amp; &quot;Jerry&#39;s&quot; &lt;lab&gt;, 2026-11-20</title>"))
        #expect(page.contains("<h1>Stocktake report: Tom &amp; &quot;Jerry&#39;s&quot; &lt;lab&gt;</h1>"))
        #expect(page.contains("<td>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;</td>"))
        #expect(
            page.contains(
                "<td>The room &quot;-5&quot;, from survey.csv row 1, &lt;wins&gt; over =1+1 &amp; the rest.</td>"))
        #expect(page.contains("<tr><td>a&amp;b&lt;c&gt;.csv</td><td>sighting</td><td class=\"number\">3</td>"))
        #expect(page.contains("<td>&lt;Notes&gt;</td></tr>"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("<lab>"))
        #expect(!page.contains("<wins>"))
        #expect(!page.contains("<Notes>"))
        #expect(!page.contains("<c>"))
    }

    @Test func thereIsOneSectionPerCodePresent() {
        let page = Self.page
        for code in DiscrepancyCode.allCases {
            let expected = [.missing, .unrecorded, .possibleTypo, .fieldConflict].contains(code) ? 1 : 0
            #expect(Self.occurrences(of: "<h2 id=\"\(code.rawValue)\"", in: page) == expected, "\(code)")
            #expect(Self.occurrences(of: "<a href=\"#\(code.rawValue)\">", in: page) == expected, "\(code)")
        }
        #expect(page.contains("<h2 id=\"FIELD_CONFLICT\" class=\"warning\">FIELD_CONFLICT</h2>"))
        #expect(
            page.contains(
                "<tr><td>\(FindingID(code: .fieldConflict, key: "vt_tag=004512|field=room"))</td><td>new</td>"
                    + "<td>004512</td><td>The room &quot;-5&quot;, from survey.csv row 1, &lt;wins&gt; over =1+1 &amp; "
                    + "the rest.</td><td>survey.csv:1; central.csv:1</td></tr>"))
        #expect(
            Self.occurrences(
                of: "<table><tr><th>Id</th><th>State</th><th>VT tag</th><th>What to check</th><th>Rows</th></tr>",
                in: page) == 4)
        #expect(
            page.contains(
                "\n<p>Since the last run: 4 new, 0 open, 0 resolved (0 fixed by the push), 0 acknowledged (listed "
                    + "apart, not counted).</p>\n<h2>Counts</h2>\n"))
        #expect(page.contains("4 assets: 1 ok,\n1 missing, 1 unrecorded,\n1 typo, 0 in conflict."))
    }

    @Test func thePageIsSelfContained() {
        let page = Self.page
        #expect(page.hasPrefix("<!DOCTYPE html>\n"))
        #expect(page.hasSuffix("</body></html>\n"))
        #expect(Self.occurrences(of: "<html", in: page) == 1)
        #expect(!page.lowercased().contains("src="))
        #expect(!page.lowercased().contains("<link"))
        #expect(!page.lowercased().contains("@import"))
        #expect(!page.lowercased().contains("url("))
        #expect(!page.lowercased().contains("http:"))
        #expect(!page.lowercased().contains("https:"))
        let links = page.components(separatedBy: "href=\"").dropFirst()
        #expect(links.count == 4)
        #expect(links.allSatisfy { $0.hasPrefix("#") })
    }
}
