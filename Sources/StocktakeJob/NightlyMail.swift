import Foundation
import StocktakeCore

/// What `stocktake run` prints, which cron mails: a first line that says the whole night, the accounts that failed
/// or were suspect first (each with its reason), one line per other account, then the summary of each account with
/// new error findings.
public enum NightlyMail {
    /// The mail's text, for `outcomes` in name order.
    public static func text(_ outcomes: [AccountOutcome]) -> String {
        var lines = [headline(outcomes)]
        let failed = outcomes.filter { !$0.isReconciled && !$0.suspect }
        let suspect = outcomes.filter { !$0.isReconciled && $0.suspect }
        let reconciled = outcomes.filter(\.isReconciled)
        lines += (failed + suspect + reconciled).map(\.line)
        for outcome in reconciled where outcome.newErrors > 0 {
            lines.append("")
            lines.append(
                "== \(ControlCharacters.escaped(outcome.account)): \(counted(outcome.newErrors, "new error finding")) =="
            )
            if outcome.summary.isEmpty {
                // A result line that names no summary (a child of an older version).
                lines.append("(its run names no summary.txt; see its report)")
            } else if let summary = try? String(contentsOfFile: outcome.summary, encoding: .utf8) {
                lines += Self.lines(of: summary)
            } else {
                lines.append("(its summary \(ControlCharacters.escaped(outcome.summary)) cannot be read)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines of a summary. The file's final line break ends its last line; a file without one still has that
    /// line. Split at its line feeds' bytes: a night of a thousand accounts mails a thousand summaries, and going
    /// through them `Character` by `Character` took a quarter of a second after the last account had finished. A
    /// carriage return and line feed are one `Character`, which a split at `"\n"` leaves whole: text holding a
    /// carriage return is split that way still.
    static func lines(of summary: String) -> [String] {
        var lines: [String]
        if summary.utf8.contains(UInt8(ascii: "\r")) {
            lines = summary.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        } else {
            lines = summary.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
                String(Substring($0))
            }
        }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// "3 of 5 accounts reconciled, 1 failed, 1 suspect, 1 push pending".
    static func headline(_ outcomes: [AccountOutcome]) -> String {
        let reconciled = outcomes.count(where: \.isReconciled)
        let suspect = outcomes.count(where: { !$0.isReconciled && $0.suspect })
        let failed = outcomes.count - reconciled - suspect
        let pending = outcomes.count(where: { $0.isReconciled && $0.push.hasPrefix("push pending") })
        var parts = ["\(grouped(reconciled)) of \(counted(outcomes.count, "account")) reconciled"]
        if failed > 0 { parts.append("\(grouped(failed)) failed") }
        if suspect > 0 { parts.append("\(grouped(suspect)) suspect") }
        if pending > 0 { parts.append("\(counted(pending, "push", "pushes")) pending") }
        return parts.joined(separator: ", ")
    }
}
