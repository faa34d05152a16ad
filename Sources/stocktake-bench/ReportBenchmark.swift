import Foundation
import StocktakeCore

/// What `stocktake-bench report` measured: report.html's size and the time Chromium takes to render it, against
/// the issue's limits.
struct ReportBenchmark: Sendable {
    /// The generated account's folder.
    var dataFolder: String
    /// The assets the run counted.
    var assets: Int
    /// The findings asked for (`--findings`).
    var requestedFindings: Int
    /// The findings the run reported (`counts.discrepancies` of run.json, summed).
    var findings: Int
    /// report.html's size in bytes.
    var reportBytes: Int
    /// Its renderings.
    var rendering: PageRendering

    /// Whether report.html is under the size limit.
    var sizeMet: Bool { reportBytes < ReportCommand.sizeLimit }
    /// Whether the median rendering is under the time limit.
    var timeMet: Bool { rendering.medianSeconds < ReportCommand.secondsLimit }

    /// The report, one measure per line.
    var text: String {
        var table = MetricTable()
        table.add("data", dataFolder)
        table.add(
            "findings",
            "\(grouped(findings)) (asked for at least \(grouped(requestedFindings))) in \(grouped(assets)) assets")
        table.add("report.html", Quantity.megabytes(reportBytes) + " (\(grouped(reportBytes)) bytes)")
        table.add(
            "render",
            "\(Quantity.seconds(rendering.medianSeconds)) median of \(rendering.seconds.count) ("
                + rendering.seconds.map(Quantity.seconds).joined(separator: ", ")
                + "), 'chromium --headless --screenshot' from start to exit")
        table.add("blank page", "\(Quantity.seconds(rendering.blankSeconds)) (Chromium's own start and exit)")
        table.add(
            "size limit",
            "under \(Quantity.megabytes(ReportCommand.sizeLimit)): \(sizeMet ? "met" : "NOT met")")
        table.add(
            "time limit",
            "under \(Quantity.seconds(ReportCommand.secondsLimit)): \(timeMet ? "met" : "NOT met")")
        return table.text
    }
}
