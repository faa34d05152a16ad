import Foundation
import Testing

@testable import stocktake_bench

/// `--check-against`: a changed byte in any output is found; the start time and output folder are not differences.
struct OutputComparisonTests {
    let runner = BenchRunner()

    static let outputs = [
        "cleaned.csv": "vt_tag,status\n0000001,ok\n0000002,missing\n",
        "discrepancies.csv": "code,severity\nMISSING,error\n",
        "changes.csv": "row,column,old,new\n",
        "report.html":
            "<h1>stocktake</h1>\n<dt>Run</dt><dd>2026-11-24 05:36 UTC (inventory as of 2026-11-20)</dd>\n<p>2 assets\n",
        "summary.txt": "stocktake: account a, as of 2026-11-20\nAssets: 2\nReport: old/report.html\n",
    ]

    /// Writes the outputs into `folder`, with `changes` replacing some files.
    func write(_ folder: String, _ changes: [String: String] = [:]) throws -> String {
        let path = runner.path(folder)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in Self.outputs.merging(changes, uniquingKeysWith: { $1 }) {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        }
        return path
    }

    @Test func theSameOutputsAreIdentical() throws {
        let comparison = OutputComparison(reference: try write("old"), new: try write("new"))
        #expect(comparison.isIdentical)
        #expect(comparison.differences == [])
    }

    @Test func theStartTimeAndTheOutputFolderAreIgnored() throws {
        let new = try write(
            "new",
            [
                "report.html":
                    "<h1>stocktake</h1>\n<dt>Run</dt><dd>2026-11-25 01:02 UTC (inventory as of 2026-11-20)</dd>\n<p>2 assets\n",
                "summary.txt": "stocktake: account a, as of 2026-11-20\nAssets: 2\nReport: new/report.html\n",
            ])
        #expect(OutputComparison(reference: try write("old"), new: new).isIdentical)
    }

    @Test func aChangedByteIsFoundWithItsLine() throws {
        let new = try write("new", ["cleaned.csv": "vt_tag,status\n0000001,ok\n0000002,misSing\n"])
        let comparison = OutputComparison(reference: try write("old"), new: new)
        #expect(!comparison.isIdentical)
        #expect(comparison.differences == ["cleaned.csv: line 3: reference '0000002,missing', new '0000002,misSing'"])
    }

    @Test func everyDifferingFileIsNamedWithItsFirstDifferingLine() throws {
        let new = try write(
            "new",
            [
                "discrepancies.csv": "code,severity\nMISSING,error\nSTALE,warning\n",
                "changes.csv": "row,column,old,new\r\n",
                "report.html":
                    "<h1>stocktake</h1>\n<dt>Run</dt><dd>2026-11-24 05:36 UTC (inventory as of 2026-11-21)</dd>\n<p>3 assets\n",
                "summary.txt": "stocktake: account a, as of 2026-11-20\nAssets: 3\nReport: old/report.html\n",
            ])
        let comparison = OutputComparison(reference: try write("old"), new: new)
        #expect(
            comparison.differences == [
                "discrepancies.csv: line 3: reference (no line), new 'STALE,warning'",
                "changes.csv: line 1: reference 'row,column,old,new', new 'row,column,old,new\r'",
                "report.html: line 3: reference '<p>2 assets', new '<p>3 assets'",
                "summary.txt: line 2: reference 'Assets: 2', new 'Assets: 3'",
            ])
    }

    @Test func aFileOnlyOneRunWroteIsADifference() throws {
        let old = try write("old")
        let new = try write("new")
        try FileManager.default.removeItem(atPath: new + "/changes.csv")
        #expect(
            OutputComparison(reference: old, new: new).differences == ["changes.csv: written by the reference only"])
        try FileManager.default.removeItem(atPath: old + "/changes.csv")
        #expect(OutputComparison(reference: old, new: new).isIdentical)
        try FileManager.default.removeItem(atPath: old + "/summary.txt")
        #expect(OutputComparison(reference: old, new: new).differences == ["summary.txt: written by the new run only"])
    }

    @Test func aStartTimeLineInAnExactFileIsNotIgnored() throws {
        let new = try write("new", ["cleaned.csv": "vt_tag,status\n0000001,ok; run started today\n0000002,missing\n"])
        let old = try write(
            "old", ["cleaned.csv": "vt_tag,status\n0000001,ok; run started yesterday\n0000002,missing\n"])
        #expect(
            OutputComparison(reference: old, new: new).differences == [
                "cleaned.csv: line 2: reference '0000001,ok; run started yesterday', new '0000001,ok; run started today'"
            ])
    }
}
