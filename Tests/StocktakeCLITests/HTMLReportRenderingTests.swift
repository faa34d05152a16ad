import Foundation
import Testing

/// report.html as a clerk sees and prints it: `stocktake reconcile` on the vt-nis sample, as users run it, then
/// its report loaded, screenshot and printed (A4 and Letter) by headless Chromium.
@Suite(.disabled(if: HeadlessChromium.missingReason != nil, "\(HeadlessChromium.missingReason ?? "")"))
struct HTMLReportRenderingTests {
    /// The PNG file signature.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    let runner = CommandRunner()

    /// Reconciles samples/vt-nis as `Jobs/vt-nis/account.json` describes it and returns report.html's path.
    func sampleReport() throws -> String {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../samples/vt-nis"
        ).standardizedFileURL.path
        let result = try runner.run([
            "reconcile", "--central", sample + "/central.csv", "--sighting", sample + "/sightings", "--register",
            sample + "/registers", "--buildings", sample + "/buildings.csv", "--tag-digits", "6", "--cns-digits",
            "6", "--stale-after-days", "365", "--as-of", "2026-11-20", "--account", "vt-nis", "--quiet", "--out",
            "out",
        ])
        #expect(result.standardError == "")
        try #require(result.status == 0, "stocktake reconcile: \(result.standardError)")
        let report = runner.path("out/report.html")
        try #require(FileManager.default.fileExists(atPath: report))
        return report
    }

    @Test func theReportLoadsWithoutConsoleErrors() throws {
        let rendering = try HeadlessChromium().render(page: sampleReport())
        #expect(rendering.errors == [], "report.html logged errors: \(rendering.errors)")
        #expect(!rendering.headings.isEmpty, "report.html has no headings")
    }

    @Test func theScreenshotIsAPNGOfTheWindow() throws {
        let png = runner.path("report.png")
        _ = try HeadlessChromium().render(page: sampleReport(), png: png, width: 1280, height: 900)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        try #require(bytes.count > 24, "report.png is empty")
        #expect(Array(bytes.prefix(8)) == Self.pngSignature)
        // The IHDR chunk comes first: width and height, big-endian, at bytes 16 and 20.
        let dimension = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(dimension(16) == 1280 && dimension(20) == 900)
        // A page of text is not one colour: a blank or failed screenshot compresses to almost nothing.
        #expect(bytes.count > 10_000, "report.png is \(bytes.count) bytes: is the page blank?")
    }

    /// Printed on A4 and on Letter, no page ends with a heading or a table header whose content is on the next
    /// page, and no page begins with a table header with no row under it (see ``PrintedPages``).
    @Test(arguments: [HeadlessChromium.Paper.a4, .letter])
    func printedPagesBreakWell(paper: HeadlessChromium.Paper) throws {
        let pdf = runner.path("report-\(paper.name).pdf")
        let rendering = try HeadlessChromium().render(page: sampleReport(), pdf: [(paper, pdf)])
        let size = try HeadlessChromium.pageSize(ofPDF: pdf)
        #expect(abs(size.width - paper.width * 72) < 1 && abs(size.height - paper.height * 72) < 1)
        let pages = try HeadlessChromium.pages(ofPDF: pdf)
        #expect(pages.count >= 1)
        let problems = PrintedPages(
            pages: pages, headings: rendering.headings, tableHeaders: rendering.tableHeaders
        ).problems
        #expect(problems == [], "\(paper.name): \(problems.map(\.description).joined(separator: "; "))")
    }
}
