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
                "\n<p>Since the last run: 4 new, 0 open, 0 resolved, 0 acknowledged (listed "
                    + "apart, not counted).</p>\n<h2>Counts</h2>\n"))
        #expect(page.contains("4 assets: 1 ok,\n1 missing, 1 unrecorded,\n1 typo, 0 in conflict."))
    }

    /// Night 2 of the fixture: the UNRECORDED finding is acknowledged, a SHARED_SERIAL of night 1 is gone.
    static var secondNight: String {
        let shared = Discrepancy(
            code: .sharedSerial, serialNumber: SerialNumber(canonical: "CNF9"), sources: [], message: "Shared.")
        let discrepancies = OutputFixture.discrepancies
        let before = FindingLedger(
            findings: [discrepancies[0], discrepancies[1], shared], previous: nil,
            asOf: InventoryDate(year: 2026, month: 11, day: 19)!)
        let unrecorded = FindingID(code: .unrecorded, key: "vt_tag=770001")
        var reconciliation = OutputFixture.reconciliation
        reconciliation.ledger = FindingLedger(
            findings: discrepancies, previous: before.entries,
            acknowledgements: [unrecorded: Acknowledgement(id: unrecorded, note: "<lab> rig", by: "Dana & co")],
            asOf: OutputFixture.asOf)
        return HTMLReport.html(reconciliation, details: OutputFixture.details)
    }

    @Test func acknowledgedFindingsAreListedApartAndNotCounted() {
        let page = Self.secondNight
        let unrecorded = FindingID(code: .unrecorded, key: "vt_tag=770001")
        #expect(
            page.contains(
                "\n<p>Since the last run: 2 new, 1 open, 1 resolved, 1 acknowledged (listed "
                    + "apart, not counted).</p>\n"))
        #expect(
            page.contains(
                "<h2 id=\"acknowledged\">Acknowledged</h2>\n"
                    + "<table><tr><th>Id</th><th>Code</th><th>VT tag</th><th>Finding</th><th>Acknowledgement</th></tr>\n"
                    + "<tr><td>\(unrecorded)</td><td>UNRECORDED</td><td>770001</td><td>VT tag 770001 is in survey.csv "
                    + "row 3 but not in the central sheet.</td><td>Acknowledged by Dana &amp; co (&lt;lab&gt; rig).</td>"
                    + "</tr>\n</table>\n"))
        // Its code has no other finding: no count, no section.
        #expect(!page.contains("<a href=\"#UNRECORDED\">"))
        #expect(!page.contains("<h2 id=\"UNRECORDED\""))
        #expect(Self.occurrences(of: "<td>\(unrecorded)</td>", in: page) == 1)
        #expect(
            page.contains(
                "<tr><td><a href=\"#MISSING\">MISSING</a></td><td class=\"error\">error</td><td class=\"number\">1</td>"
            ))
    }

    @Test func findingsGoneSinceTheLastRunAreListedAsResolved() {
        let shared = FindingID(code: .sharedSerial, key: "serial_number=CNF9")
        #expect(
            Self.secondNight.contains(
                "<h2 id=\"resolved\">Resolved since the last run</h2>\n"
                    + "<table><tr><th>Id</th><th>Code</th><th>VT tag</th><th>First seen</th><th>How</th></tr>\n"
                    + "<tr><td>\(shared)</td><td>SHARED_SERIAL</td><td></td><td>2026-11-19</td><td>resolved</td></tr>\n"
                    + "</table>\n<h2>Files read</h2>"))
        #expect(!Self.page.contains("id=\"resolved\""))
        #expect(!Self.page.contains("id=\"acknowledged\""))
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
