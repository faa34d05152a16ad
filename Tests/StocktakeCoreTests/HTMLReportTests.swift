import Foundation
import Testing

@testable import StocktakeCore

@Suite("HTMLReport: report.html")
struct HTMLReportTests {
    static let attack = "\"><img src=x onerror=alert(1)>"
    static let script = "<script>alert('x')</script>"

    /// The fixture with HTML in every text the page shows: the account's name, a file, an unmapped column, a
    /// finding's sentence, a building's name, a room, a model, a changed cell and its column.
    static var page: String {
        var details = OutputFixture.details
        details.displayName = "Tom & \"Jerry's\" \(script)\(attack)"
        details.changes = [
            SheetChange(
                row: 2, vtTag: OutputFixture.tag(4513), column: "Room \(script)", before: attack, after: script,
                reason: .overwritten)
        ]
        var inputs = OutputFixture.inputs
        inputs[1].file = SourceFile(path: "/data/a&b<c>\(attack).csv", role: .sighting)
        inputs[0].unmapped = ["<Notes>\(script)"]
        var discrepancies = OutputFixture.discrepancies
        discrepancies[0].detail = .text("\(script) & \"quoted\" \(attack)")
        var assets = OutputFixture.assets
        assets[1].values.room = "1\(attack)"
        assets[1].values.model = "AP\(script)"
        var reconciliation = Reconciliation(
            assets: assets, discrepancies: discrepancies, inputs: inputs, asOf: OutputFixture.asOf)
        reconciliation.buildings = BuildingTable([
            Building(code: "BUR", name: "Burruss \(attack)", latitude: 37.2, longitude: -80.4)
        ])
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

    @Test func injectedHTMLInTheNameAndEveryCellIsEscaped() {
        let page = Self.page
        let name =
            "Tom &amp; &quot;Jerry&#39;s&quot; &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
            + "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
        #expect(page.contains("<title>Stocktake report: \(name), 2026-11-20</title>"))
        #expect(page.contains("<h1>Stocktake report: \(name)</h1>"))
        // The page's own script is its only script; no image.
        #expect(Self.occurrences(of: "<script", in: page) == 1)
        #expect(page.contains("<script>\n(function(){"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("<Notes>"))
        #expect(!page.contains("<c>"))
        #expect(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;"))
        #expect(page.contains("<h3>BUR, Burruss &quot;&gt;&lt;img src=x onerror=alert(1)&gt;</h3>"))
        #expect(page.contains("<h4>Room 1&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</h4>"))
        #expect(page.contains("<small>AP&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</small>"))
        #expect(page.contains("<strong>Room &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</strong>"))
        #expect(page.contains("<td data-l=\"Before\">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</td>"))
        #expect(
            page.contains("<td data-l=\"File\">a&amp;b&lt;c&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;.csv</td>"))
    }

    @Test func theHeaderCountsAreThoseOfDiscrepanciesCSV() throws {
        let reconciliation = OutputFixture.reconciliation
        let page = HTMLReport.html(reconciliation, details: OutputFixture.details)
        let rows = String(decoding: DiscrepancyTable.csv(reconciliation), as: UTF8.self)
            .split(separator: "\r\n").dropFirst()
        #expect(
            page.contains("<dt>Findings</dt><dd>\(rows.count), as in discrepancies.csv: 2 errors, 2 warnings, 0 info"))
        for code in DiscrepancyCode.allCases {
            let count = rows.count(where: { $0.hasPrefix(code.rawValue + ",") })
            #expect(Self.occurrences(of: "<a href=\"#\(code.rawValue)\">", in: page) == (count > 0 ? 1 : 0))
            guard count > 0 else { continue }
            #expect(
                page.contains(
                    "<a href=\"#\(code.rawValue)\">\(code.rawValue)</a></th><td data-l=\"Severity\" "
                        + "class=\"\(code.severity.rawValue)\">\(code.severity.rawValue)</td>"
                        + "<td data-l=\"Findings\" class=\"number\">\(count)</td>"), "\(code)")
        }
        #expect(
            page.contains(
                "<tfoot><tr><th scope=\"row\">Total</th><td></td><td data-l=\"Findings\" class=\"number\">4</td>"
                    + "<td data-l=\"New\" class=\"number\">4</td><td data-l=\"Open\" class=\"number\">0</td>"
                    + "<td data-l=\"Acknowledged\" class=\"number\">0</td></tr></tfoot>"))
        #expect(page.contains("<dt>Since the last run</dt><dd>4 new, 0 still open, 0 resolved, 0 acknowledged</dd>"))
        #expect(page.contains("<dd>4: 1 ok, 1 missing, 1 unrecorded, 1 typo, 0 in conflict</dd>"))
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

    @Test func stateCountsAddUpToTheCodeCounts() {
        let page = Self.secondNight
        let unrecorded = FindingID(code: .unrecorded, key: "vt_tag=770001")
        #expect(page.contains("<dt>Since the last run</dt><dd>2 new, 1 still open, 1 resolved, 1 acknowledged</dd>"))
        #expect(
            page.contains(
                "<dd>4, as in discrepancies.csv: 1 error, 2 warnings, 0 info, 1 acknowledged</dd>"))
        #expect(
            page.contains(
                "<tfoot><tr><th scope=\"row\">Total</th><td></td><td data-l=\"Findings\" class=\"number\">4</td>"
                    + "<td data-l=\"New\" class=\"number\">2</td><td data-l=\"Open\" class=\"number\">1</td>"
                    + "<td data-l=\"Acknowledged\" class=\"number\">1</td></tr></tfoot>"))
        // The acknowledged finding is still shown, once, with its state and the acknowledgement.
        #expect(
            page.contains(
                "<li id=\"f-\(unrecorded)\" data-s=\"acknowledged\"><b>"
                    + "UNRECORDED</b> \(unrecorded), acknowledged<br>VT tag 770001 is in survey.csv row 3 "
                    + "but not in the central sheet. Acknowledged by Dana &amp; co (&lt;lab&gt; rig).\n"))
        #expect(Self.occurrences(of: "id=\"f-\(unrecorded)\"", in: page) == 1)
        let shared = FindingID(code: .sharedSerial, key: "serial_number=CNF9")
        #expect(
            page.contains(
                "<tr><td data-l=\"Id\">\(shared)</td><td data-l=\"Code\">SHARED_SERIAL</td><td data-l=\"VT tag\"></td>"
                    + "<td data-l=\"First seen\">2026-11-19</td><td data-l=\"How\">resolved</td></tr>"))
        #expect(!Self.page.contains("id=\"resolved\""))
    }

    @Test func aDeviceWithThreeFindingsAppearsOnceTheMostTellingFirst() {
        var discrepancies = OutputFixture.discrepancies
        let tag = OutputFixture.tag(4512)
        discrepancies.append(
            Discrepancy(
                code: .stale, vtTag: tag, sources: [SourceLocation(file: "survey.csv", row: 1)], message: "Stale."))
        discrepancies.append(
            Discrepancy(
                code: .sharedSerial, vtTag: tag, sources: [SourceLocation(file: "survey.csv", row: 1)],
                message: "Shared."))
        var reconciliation = OutputFixture.reconciliation
        reconciliation.discrepancies = discrepancies
        let page = HTMLReport.html(reconciliation, details: OutputFixture.details)
        #expect(Self.occurrences(of: "<h5>VT tag 004512", in: page) == 1)
        let entry = page.components(separatedBy: "<h5>VT tag 004512 <small>AP-515</small></h5><ul>\n")[1]
            .components(separatedBy: "</ul></div>")[0]
        let codes = entry.split(separator: "\n").map {
            $0.components(separatedBy: "<b>")[1].prefix(while: { $0 != "<" })
        }
        #expect(codes == ["SHARED_SERIAL", "STALE", "FIELD_CONFLICT"])
        // The room heading comes before it, and the code view lists each of them, naming the device.
        #expect(page.contains("<h4>Room 101</h4>\n<div class=\"d\"><h5>VT tag 004512"))
        #expect(Self.occurrences(of: "<td>VT tag 004512<td>BUR<td>101</tr>", in: page) == 3)
    }

    @Test func longListsFold() {
        var reconciliation = OutputFixture.reconciliation
        let many = (1...(HTMLReport.foldedAfter + 1)).map { number in
            Discrepancy(
                code: .noCNS, vtTag: OutputFixture.tag(UInt64(900_000 + number)), sources: [], message: "No CNS.")
        }
        reconciliation.discrepancies += many
        let page = HTMLReport.html(reconciliation, details: OutputFixture.details)
        #expect(
            page.contains(
                "<details data-c=\"NO_CNS\"><summary><h3 id=\"NO_CNS\" class=\"warning\">NO_CNS</h3> 21 findings: "))
        #expect(
            page.contains(
                "<details open data-c=\"MISSING\"><summary><h3 id=\"MISSING\" class=\"error\">MISSING</h3> 1 finding: ")
        )
    }

    @Test func theRunTimeIsInTheAccountsTimeZone() throws {
        var details = OutputFixture.details
        #expect(
            HTMLReport.html(OutputFixture.reconciliation, details: details).contains(
                "<dt>Run</dt><dd>2026-11-20 06:00 UTC (inventory as of 2026-11-20)</dd>"))
        details.timeZone = try #require(ReportTimeZone(named: "America/New_York"))
        #expect(
            HTMLReport.html(OutputFixture.reconciliation, details: details).contains(
                "<dt>Run</dt><dd>2026-11-20 01:00 EST (inventory as of 2026-11-20)</dd>"))
    }

    @Test func thePushResultSaysWhatChangedOrThatNothingDid() {
        var details = OutputFixture.details
        #expect(
            HTMLReport.pushResult(details, changes: ChangeGroups(details.changes))
                == "No change was planned; nothing was pushed.")
        details.changes = [
            SheetChange(row: 2, vtTag: nil, column: "Room", before: "1", after: "101", reason: .normalized),
            SheetChange(row: 2, vtTag: nil, column: "Model", before: "", after: "AP", reason: .filled),
            SheetChange(
                row: 5, vtTag: OutputFixture.tag(7), column: "VT Tag", before: "", after: "000007", reason: .added),
        ]
        #expect(
            HTMLReport.pushResult(details, changes: ChangeGroups(details.changes))
                == "Planned, not pushed: 2 cells in 1 row changed, 1 row added (see changes.csv).")
        details.pushedCentral = true
        details.pushes = ["central sheet → https://dav.example.org/c.csv: 2 cells"]
        #expect(
            HTMLReport.pushResult(details, changes: ChangeGroups(details.changes))
                == "Pushed: 2 cells in 1 row changed, 1 row added (see changes.csv). central sheet → "
                + "https://dav.example.org/c.csv: 2 cells.")
    }

    @Test func theGlossaryIsTheREADMEsListOfCodes() throws {
        let readme = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md").path, encoding: .utf8)
        let listed = readme.split(separator: "\n").filter { $0.hasPrefix("- `") && $0.contains("` (") }
            .map(String.init)
        let expected = DiscrepancyCode.allCases.map { "- `\($0.rawValue)` (\($0.severity.rawValue)): \($0.meaning)" }
        #expect(listed == expected)
        let page = HTMLReport.html(OutputFixture.reconciliation, details: OutputFixture.details)
        for code in DiscrepancyCode.allCases {
            #expect(
                page.contains(
                    "<dt>\(code.rawValue) <span class=\"\(code.severity.rawValue)\">(\(code.severity.rawValue))</span>"
                        + "</dt><dd>\(HTMLReport.escape(code.meaning))</dd>"))
        }
    }

    @Test func theBillingColumnIsShownOnlyWhenAnAssetHasACost() throws {
        var reconciliation = OutputFixture.reconciliation
        #expect(!HTMLReport.html(reconciliation, details: OutputFixture.details).contains("Billing total"))
        let index = try #require(reconciliation.assets.firstIndex { $0.values.building == "BUR" })
        reconciliation.assets[index].values.cost = UnitCost(cents: 123_456_78)
        let page = HTMLReport.html(reconciliation, details: OutputFixture.details)
        #expect(page.contains("<th scope=\"col\">Billing total</th>"))
        #expect(page.contains("<td data-l=\"Billing total\" class=\"number\">123,456.78 (2 without a cost)</td>"))
    }

    @Test func thePageIsSelfContainedAndReadsOnAPhoneAndOnPaper() {
        let page = Self.page
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"))
        #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        #expect(page.hasSuffix("</script>\n</body></html>\n"))
        #expect(Self.occurrences(of: "<html", in: page) == 1)
        for outside in ["<link", "@import", "url(", "http:", "https:", " src=\"", "<iframe", "<object"] {
            #expect(!page.lowercased().contains(outside), "\(outside)")
        }
        let links = page.components(separatedBy: "href=\"").dropFirst()
        #expect(links.allSatisfy { $0.hasPrefix("#") })
        for rule in [
            "thead{display:table-header-group}", "break-after:avoid", "break-inside:avoid", "@page{size:auto;margin:",
            "@media (max-width:600px)", "td[data-l]::before{content:attr(data-l)",
        ] {
            #expect(page.contains(rule), "\(rule)")
        }
        #expect(!page.contains("<th>"))
        #expect(Self.occurrences(of: "<th scope=", in: page) > 10)
        #expect(page.contains("<svg class=\"map\" viewBox=\"0 0 640 400\" role=\"img\" aria-label=\"Map of "))
    }

    @Test func fiftyThousandFindingsGiveAPageUnderTwentyMegabytes() {
        var assets: [CleanedAsset] = []
        var discrepancies: [Discrepancy] = []
        for number in 1...50_000 {
            var values = AssetValues()
            let tag = VTTag(number: UInt64(100_000 + number), digits: 6)
            values.vtTag = tag
            values.building = "B\(number % 40)"
            values.room = String(100 + number % 300)
            values.model = "AP-515"
            assets.append(CleanedAsset(values: values, status: .missing, sources: ["central.csv"]))
            let row = SourceLocation(file: "central.csv", row: number)
            discrepancies.append(
                Discrepancy(
                    code: number % 3 == 0 ? .stale : .missing, vtTag: tag,
                    cnsNumber: CNSNumber(number: UInt64(number), digits: 6),
                    sources: [row], detail: .missing(central: [row], building: values.building, room: values.room)))
        }
        let reconciliation = Reconciliation(
            assets: assets, discrepancies: discrepancies, inputs: OutputFixture.inputs, asOf: OutputFixture.asOf)
        let page = HTMLReport.html(reconciliation, details: OutputFixture.details)
        #expect(page.utf8.count < 20_000_000)
        #expect(page.contains("<p>The other 33,134 MISSING findings are listed by building and room above"))
        #expect(Self.occurrences(of: "<li id=\"f-", in: page) == 50_000)
    }

    @Test func aFindingsRowsAreNamedOnlyWhenItsSentenceLeavesOneOut() {
        let rows = [SourceLocation(file: "a.csv", row: 4), SourceLocation(file: "b.csv", row: 9)]
        #expect(HTMLReport.mentions("Seen in a.csv row 4 and b.csv row 9.", every: rows))
        #expect(!HTMLReport.mentions("Seen in a.csv row 4 only.", every: rows))
        #expect(!HTMLReport.mentions("b.csv row", every: rows))
        #expect(HTMLReport.mentions("Nothing to name.", every: []))
        // "a.csv row 4" is in "a.csv row 40", as `contains` finds it.
        #expect(HTMLReport.mentions("a.csv row 40, b.csv row 9", every: rows))
        // Text that is not plain ASCII is searched as `contains` searches it: a name in the other Unicode form
        // of the same letters is found, and a line break inside the sentence changes nothing.
        let composed = [SourceLocation(file: "Caf\u{E9}.csv", row: 2)]
        #expect(HTMLReport.mentions("In Caf\u{E9}.csv row 2.", every: composed))
        #expect(
            HTMLReport.mentions("In Cafe\u{301}.csv row 2.", every: composed)
                == "In Cafe\u{301}.csv row 2.".contains(composed[0].spoken))
        #expect(!HTMLReport.mentions("In Caf\u{E9}.csv row 3.", every: composed))
        #expect(HTMLReport.mentions("Line one,\na.csv row 4 and b.csv row 9", every: rows))
        #expect(!HTMLReport.mentions("Line one,\na.csv row 5", every: rows))
    }

    /// A reconciliation of `count` missing and stale assets in 40 buildings and 300 rooms, one finding each.
    static func manyFindings(_ count: Int) -> Reconciliation {
        var assets: [CleanedAsset] = []
        var discrepancies: [Discrepancy] = []
        for number in 1...count {
            var values = AssetValues()
            let tag = VTTag(number: UInt64(100_000 + number), digits: 6)
            values.vtTag = tag
            values.building = number % 41 == 0 ? nil : "B\(number % 40)"
            values.room = number % 7 == 0 ? nil : String(100 + number % 300)
            values.model = "AP-515"
            values.latitude = 37 + Double(number % 40) / 100
            values.longitude = -80 - Double(number % 300) / 1000
            assets.append(CleanedAsset(values: values, status: .missing, sources: ["central.csv"]))
            let row = SourceLocation(file: "central.csv", row: number)
            discrepancies.append(
                Discrepancy(
                    code: number % 3 == 0 ? .stale : .missing, vtTag: tag,
                    cnsNumber: CNSNumber(number: UInt64(number), digits: 6),
                    sources: [row], detail: .missing(central: [row], building: values.building, room: values.room)))
        }
        return Reconciliation(
            assets: assets, discrepancies: discrepancies, inputs: OutputFixture.inputs, asOf: OutputFixture.asOf)
    }

    @Test func thePageIsTheSameOnOneThreadOrMany() {
        var details = OutputFixture.details
        details.changes = [
            SheetChange(
                row: 2, vtTag: OutputFixture.tag(4513), column: "Room", before: "1", after: "101", reason: .normalized)
        ]
        var none = OutputFixture.reconciliation
        none.discrepancies = []
        for reconciliation in [OutputFixture.reconciliation, Self.manyFindings(3_000), none] {
            let one = HTMLReport.bytes(reconciliation, details: details, threads: 1)
            #expect(String(decoding: one, as: UTF8.self) == HTMLReport.html(reconciliation, details: details))
            for threads in [2, 3, 8] {
                #expect(HTMLReport.bytes(reconciliation, details: details, threads: threads) == one)
            }
        }
        #expect(
            String(decoding: HTMLReport.bytes(none, details: details, threads: 2), as: UTF8.self).contains(
                "<h2 id=\"by-place\">Findings by building and room</h2>\n<p>No findings.</p>\n"))
    }

    /// The sentences the tables made are the report's: the page given them is the page that makes them itself, and
    /// each finding shows the sentence given for it, on one thread or several.
    @Test func theFindingsSentencesComeFromTheTablesWhenTheyHaveMadeThem() {
        let details = OutputFixture.details
        for reconciliation in [OutputFixture.reconciliation, Self.manyFindings(3_000)] {
            let messages = DiscrepancyTable.messages(of: reconciliation)
            for threads in [1, 2] {
                #expect(
                    HTMLReport.bytes(reconciliation, details: details, threads: threads, messages: messages)
                        == HTMLReport.bytes(reconciliation, details: details, threads: threads))
                let marked = messages.indices.map { "Sentence number \($0) for the clerk." }
                let page = String(
                    decoding: HTMLReport.bytes(reconciliation, details: details, threads: threads, messages: marked),
                    as: UTF8.self)
                // Every finding of the small account; a sample of the large one's (a search of the whole page each).
                let stride = messages.count <= 100 ? 1 : 499
                let sample = Array(Swift.stride(from: 0, to: messages.count, by: stride))
                #expect(sample.allSatisfy { page.contains("<br>" + marked[$0]) })
                #expect(!sample.contains { page.contains(messages[$0]) })
            }
        }
    }

    @Test func theBuildingAndRoomViewIsSplitIntoRangesOfAboutEqualFindings() {
        let devices = ReportDevice.devices(of: Self.manyFindings(3_000))
        let ranges = HTMLReport.placeRanges(of: devices, pieces: 8)
        #expect(ranges.count == 8)
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == devices.count)
        for (earlier, later) in zip(ranges, ranges.dropFirst()) { #expect(earlier.upperBound == later.lowerBound) }
        for range in ranges { #expect((370...380).contains(range.count)) }
        #expect(HTMLReport.placeRanges(of: devices, pieces: 1) == [0..<devices.count])
        #expect(HTMLReport.placeRanges(of: [], pieces: 8) == [0..<0])
        #expect(HTMLReport.placeRanges(of: Array(devices.prefix(3)), pieces: 8) == [0..<1, 1..<2, 2..<3])
    }
}
