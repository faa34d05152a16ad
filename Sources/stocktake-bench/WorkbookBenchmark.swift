import Foundation
import StocktakeCore

/// What `stocktake-bench workbook` measured: one sheet read as `.xlsx` and as CSV.
struct WorkbookBenchmark: Sendable {
    var workbook: String
    var workbookBytes: Int
    var unzippedBytes: Int
    var runs: Int
    var csv: WorkbookReading
    var xlsx: WorkbookReading

    /// Whether the workbook was read as its CSV is.
    var agrees: Bool { xlsx.differences(from: csv).isEmpty }

    /// The report, one measure per line.
    var text: String {
        var table = MetricTable()
        table.add(
            "workbook",
            "\((workbook as NSString).lastPathComponent): \(grouped(xlsx.rows)) data rows, one sheet, \(Quantity.megabytes(workbookBytes)) "
                + "(\(Quantity.megabytes(unzippedBytes)) unzipped), written by XlsxWriter")
        for (label, reading) in [("read .xlsx", xlsx), ("read .csv", csv)] {
            let measure = reading.measurement
            table.add(
                label,
                "\(Quantity.seconds(measure.wallSeconds)) wall, \(Quantity.seconds(measure.cpuSeconds)) CPU, "
                    + "\(Quantity.rate(Double(reading.rows), per: measure.wallSeconds)) rows/s, peak "
                    + Quantity.megabytes(measure.peakResidentBytes))
        }
        table.add("runs", "\(runs) of each ('stocktake inspect --json FILE'); medians, largest peak")
        table.add(
            "peak / unzipped",
            Quantity.ratio(Double(xlsx.measurement.peakResidentBytes), Double(unzippedBytes)))
        table.add(".xlsx / .csv", Quantity.ratio(xlsx.measurement.wallSeconds, csv.measurement.wallSeconds))
        let met = xlsx.measurement.wallSeconds < WorkbookCommand.targetSeconds
        table.add(
            "target",
            "under \(Quantity.seconds(WorkbookCommand.targetSeconds)) for the .xlsx: \(met ? "met" : "NOT met")")
        let differences = xlsx.differences(from: csv)
        table.add(
            "read alike",
            differences.isEmpty ? "yes (rows, column mapping, unmapped columns, problems)" : "NO")
        table.note(differences)
        return table.text
    }
}
