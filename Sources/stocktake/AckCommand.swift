import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake ack`: acknowledges findings of an account's latest run, so that they are listed apart and not counted
/// until their evidence changes or their date passes.
enum AckCommand: Command {
    static let note = Option(
        "--note", .text(placeholder: "TEXT"),
        help: "Why the findings are fine, for whoever reads them later (required).")
    static let until = Option(
        "--until", .date, help: "The last run date the acknowledgement covers (default: no end).")
    static let by = Option(
        "--by", .text(placeholder: "NAME"), help: "Who acknowledges them (default: the login name, $USER).")
    static let account = Option(
        "--account", .text(placeholder: "NAME"), help: "The account whose findings these are (required).")

    static let configuration = CommandConfiguration(
        name: "ack",
        abstract: """
            Acknowledge findings of an account's latest run by their ids (the id column of discrepancies.csv): each is
            recorded in the account's acknowledged.csv with tonight's evidence, then listed apart and counted neither
            as an error nor as a warning, until its evidence changes or its --until date passes. It then reopens as
            new, saying why.
            """,
        synopsis:
            "stocktake ack ID... --account NAME --note TEXT [--until YYYY-MM-DD] [--by NAME] [--jobs DIR] [--state DIR]",
        sections: [.init(options: [account, note, until, by, SharedOptions.jobs, SharedOptions.state])],
        discussion: """
            Every ID must be a finding of the latest run that still stands; otherwise nothing is written and the
            closest ids are named. An account whose "acknowledged" names a sheet on a server keeps it there: add the
            rows to that sheet instead.
            Exit status: 0 recorded; 64 bad usage or an ID that is not open; 66 the account has no run yet; 73 the
            file cannot be written; 78 the account's configuration is wrong or keeps its acknowledgements on a
            server.
            """)

    static func run(_ arguments: ParsedArguments) throws {
        let defaults = NightlyRunOptions()
        let ids = arguments.positionals
        guard !ids.isEmpty else { throw arguments.usageError("give the ids of the findings to acknowledge") }
        guard let account = arguments.value(account) else { throw arguments.usageError("--account is required") }
        guard let text = arguments.value(note), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw arguments.usageError("--note is required: say why the findings are fine")
        }
        let name =
            arguments.value(by) ?? ProcessInfo.processInfo.environment["USER"] ?? ProcessInfo.processInfo.userName
        let acknowledger = FindingAcknowledger(
            jobs: arguments.value(SharedOptions.jobs) ?? defaults.jobs,
            state: arguments.value(SharedOptions.state) ?? defaults.state)
        let recorded = try acknowledger.acknowledge(
            ids, account: account, note: text, until: arguments.date(until), by: name, today: InventoryDate.today())
        for (acknowledgement, entry) in recorded {
            let subject = [entry.code.rawValue, entry.vtTag.isEmpty ? entry.key : "VT tag \(entry.vtTag)"]
            let end = acknowledgement.until.map { " until \($0)" } ?? ""
            print(
                ControlCharacters.escaped(
                    "Acknowledged \(acknowledgement.id) (\(subject.joined(separator: " "))) for account \(account)"
                        + "\(end); it is listed apart from the next run on."))
        }
    }
}
