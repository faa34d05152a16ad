import Foundation
import Testing

/// The page-break check itself: it must catch each bad break, on page texts written by hand and on a page
/// deliberately printed badly by Chromium, and pass good ones.
struct PrintedPagesTests {
    let headings = ["Findings by code", "MISSING: central assets seen nowhere"]
    let tableHeaders = [["Code", "Severity", "VT tag", "Note"]]

    func problems(_ pages: [String]) -> [String] {
        PrintedPages(pages: pages, headings: headings, tableHeaders: tableHeaders).problems.map(\.description)
    }

    @Test func goodBreaksPass() {
        #expect(
            problems([
                "Findings by code\n\n  Code    Severity   VT tag   Note\n  MISSING  error  000123  seen nowhere\n",
                "  Code    Severity   VT tag   Note\n  MISSING  error  000124  seen nowhere\n\n",
                "   MISSING: central assets seen nowhere\n  the last line\n",
            ]) == [])
    }

    @Test func aHeadingAtTheBottomOfAPageIsCaught() {
        #expect(
            problems(["Findings by code\n  row one\n\n   MISSING:   central assets   seen nowhere  \n\n", "  row\n"])
                == [
                    "page 1 ends with the heading \"MISSING: central assets seen nowhere\"; its content starts on page 2"
                ])
        // The last line of a heading that wrapped.
        #expect(
            problems(["text\nMISSING: central assets\nseen nowhere\n", "row\n"]).first?.hasPrefix(
                "page 1 ends with the heading \"seen nowhere\"") == true)
    }

    @Test func aTableHeaderAtTheBottomOfAPageIsCaught() {
        #expect(
            problems(["Findings by code\n  Code     Severity    VT tag     Note\n", "  MISSING error 1 x\n"]) == [
                "page 1 ends with the table header \"Code Severity VT tag Note\"; its rows start on page 2"
            ])
        // Cells wrapped in narrow columns: "VT" stays on the header's first line.
        #expect(
            problems(["Findings by code\n  Code  Severity  VT  Note\n", "  MISSING error 1 x\n"]).count == 1)
    }

    @Test func aPageBeginningWithAnEmptyTableIsCaught() {
        #expect(
            problems(["text\n", "  Code  Severity  VT tag  Note\n\n", "last\n"]) == [
                "page 2 begins with the table header \"Code Severity VT tag Note\" and no row under it"
            ])
        #expect(
            problems(["text\n", "  Code  Severity  VT tag  Note\nFindings by code\nrow\n"]) == [
                "page 2 begins with the table header \"Code Severity VT tag Note\" and no row under it"
            ])
    }

    /// A page printed by Chromium with a forced break after a heading and after a table that has only its
    /// header row: the check finds both breaks in the real PDF text, on A4.
    @Test(.disabled(if: HeadlessChromium.missingReason != nil, "\(HeadlessChromium.missingReason ?? "")"))
    func aBadlyPrintedPageIsCaught() throws {
        let runner = CommandRunner()
        let page = runner.write(
            """
            <!doctype html><html><head><meta charset="utf-8"><title>broken</title>
            <style>.break { break-after: page; } table { border-collapse: collapse; }</style></head><body>
            <h1>Findings by code</h1><p>Some text.</p>
            <h2 class="break">MISSING: central assets seen nowhere</h2>
            <p>The content of that heading.</p>
            <table><thead><tr><th>Code</th><th>Severity</th><th>VT tag</th><th>Note</th></tr></thead>
            <tbody><tr><td>MISSING</td><td>error</td><td>000123</td><td>seen nowhere</td></tr></tbody></table>
            <p class="break">End of the first table.</p>
            <table class="break"><tr><th>Code</th><th>Severity</th><th>VT tag</th><th>Note</th></tr></table>
            <table><tr><td>MISSING</td><td>error</td><td>000124</td><td>seen nowhere</td></tr></table>
            </body></html>
            """, to: "broken.html")
        let pdf = runner.path("broken.pdf")
        let rendering = try HeadlessChromium().render(page: page, pdf: [(.a4, pdf)])
        #expect(rendering.errors == [])
        #expect(rendering.headings == headings)
        #expect(rendering.tableHeaders == [tableHeaders[0], tableHeaders[0]])
        let pages = try HeadlessChromium.pages(ofPDF: pdf)
        #expect(pages.count == 4)
        let found = PrintedPages(
            pages: pages, headings: rendering.headings, tableHeaders: rendering.tableHeaders
        ).problems.map(\.description)
        #expect(
            found == [
                "page 1 ends with the heading \"MISSING: central assets seen nowhere\"; its content starts on page 2",
                "page 3 begins with the table header \"Code Severity VT tag Note\" and no row under it",
            ])
    }
}
