import Foundation

/// Whether two runs on the same input wrote the same outputs: `cleaned.csv`, `discrepancies.csv` and
/// `changes.csv` byte for byte, `report.html` and `summary.txt` except for the lines that carry the run's start
/// time and its output folder (which differ between two runs of the same program).
struct OutputComparison: Sendable {
    /// Files compared byte for byte.
    static let exactFiles = ["cleaned.csv", "discrepancies.csv", "changes.csv"]
    /// Files compared line by line, without ``isRunSpecific(_:in:)`` lines.
    static let reportFiles = ["report.html", "summary.txt"]
    /// The most characters of a differing line quoted.
    static let quotedLength = 160

    /// One sentence per file that differs, in the order of ``exactFiles`` then ``reportFiles``.
    var differences: [String]

    /// Whether every file is the same.
    var isIdentical: Bool { differences.isEmpty }

    /// Compares the outputs in the folder `new` with those in the folder `reference`.
    init(reference: String, new: String) {
        differences = []
        for file in Self.exactFiles + Self.reportFiles {
            let old = FileManager.default.contents(atPath: reference + "/" + file)
            let current = FileManager.default.contents(atPath: new + "/" + file)
            switch (old, current) {
            case (nil, nil): continue
            case (nil, _): differences.append("\(file): written by the new run only")
            case (_, nil): differences.append("\(file): written by the reference only")
            case (let old?, let current?):
                let ignoring = Self.reportFiles.contains(file)
                if let difference = Self.firstDifference(
                    old, current, ignoringRunSpecificLinesOf: ignoring ? file : nil)
                {
                    differences.append("\(file): \(difference)")
                }
            }
        }
    }

    /// Whether `line` of the report file `file` carries what differs between two runs of the same program: the
    /// start time in `report.html` (its `Run` line), the output folder in `summary.txt`.
    static func isRunSpecific(_ line: Substring, in file: String) -> Bool {
        switch file {
        case "report.html": line.hasPrefix("<dt>Run</dt><dd>")
        case "summary.txt": line.hasPrefix("Report: ")
        default: false
        }
    }

    /// The first line that differs, as "line N: reference '…', new '…'", or `nil` when the contents are the same
    /// (without the run-specific lines of `file`, when given).
    static func firstDifference(_ old: Data, _ new: Data, ignoringRunSpecificLinesOf file: String?) -> String? {
        if old == new { return nil }
        guard let file else { return firstDifferingLine(old, new) }
        let oldLines = lines(old, ignoringRunSpecificLinesOf: file)
        let newLines = lines(new, ignoringRunSpecificLinesOf: file)
        for index in 0..<max(oldLines.count, newLines.count) {
            let oldLine = index < oldLines.count ? oldLines[index] : nil
            let newLine = index < newLines.count ? newLines[index] : nil
            guard oldLine?.text != newLine?.text else { continue }
            let number = newLine?.number ?? oldLine?.number ?? index + 1
            return "line \(number): reference \(quoted(oldLine?.text)), new \(quoted(newLine?.text))"
        }
        return nil
    }

    /// The first differing line of two byte strings, found without splitting either into lines.
    private static func firstDifferingLine(_ old: Data, _ new: Data) -> String {
        let newline = UInt8(ascii: "\n")
        let common = min(old.count, new.count)
        var offset = 0
        while offset < common, old[old.startIndex + offset] == new[new.startIndex + offset] { offset += 1 }
        var number = 1
        var start = 0
        for index in 0..<offset where old[old.startIndex + index] == newline {
            number += 1
            start = index + 1
        }
        func line(_ data: Data) -> Substring? {
            guard start < data.count else { return nil }
            let rest = data[(data.startIndex + start)...]
            let end = rest.firstIndex(of: newline) ?? rest.endIndex
            return Substring(String(decoding: rest[..<end], as: UTF8.self))
        }
        // When one file only adds a line end, the lines up to it read the same: quote the lines after it.
        if let same = line(old), same == line(new) {
            number += 1
            start += same.utf8.count + 1
        }
        return "line \(number): reference \(quoted(line(old))), new \(quoted(line(new)))"
    }

    private static func lines(_ data: Data, ignoringRunSpecificLinesOf file: String?) -> [(
        number: Int, text: Substring
    )] {
        let text = String(decoding: data, as: UTF8.self)
        var result: [(number: Int, text: Substring)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let file, isRunSpecific(line, in: file) { continue }
            result.append((index + 1, line))
        }
        return result
    }

    private static func quoted(_ line: Substring?) -> String {
        guard let line else { return "(no line)" }
        return line.count > quotedLength ? "'\(line.prefix(quotedLength))…'" : "'\(line)'"
    }
}
