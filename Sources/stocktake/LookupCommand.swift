import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake lookup`: finds an asset, or what a person holds, in the accounts' latest cleaned tables.
enum LookupCommand: Command {
    static let custodian = Option(
        "--custodian", .text(placeholder: "ID"),
        help: "List every asset whose custodian is ID (ignoring case), one line per asset.")

    static let configuration = CommandConfiguration(
        name: "lookup",
        abstract: """
            Find an asset in the latest run's cleaned.csv by VT tag, CNS number, serial number or MAC address, in any
            accepted form, with its findings (id, code, state, since when); a device without a VT tag (NO_TAG) is
            found by its serial number or MAC address. Or list what a person holds.
            """,
        synopsis: """
            stocktake lookup ID [--account NAME] [--jobs DIR] [--state DIR]
            stocktake lookup --custodian ID [--account NAME] [--jobs DIR] [--state DIR]
            """,
        sections: [
            .init(
                arguments: [
                    .init(
                        name: "ID",
                        help: """
                            The identifier as written anywhere: VT-1234, 1234, 001234, c-123, C000123, a serial in \
                            any case and spacing, or a MAC address as aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff, \
                            aabb.ccdd.eeff or aabbccddeeff. Every reading that is valid is tried. An ID that starts \
                            with a dash goes after --.
                            """)
                ],
                options: [custodian, SharedOptions.account, SharedOptions.jobs, SharedOptions.state])
        ],
        discussion: """
            Each account's tag and CNS digits come from its account.json under the jobs folder.
            Exit status: 0 found, 1 nothing matched, 64 bad usage, 66 the account has no run yet, 78 an account's
            configuration is wrong.
            """)

    /// The fields of a match's block, with their labels.
    private static let blockFields: [(label: String, field: CanonicalField)] = [
        ("VT tag", .vtTag), ("CNS number", .cnsNumber), ("Serial", .serialNumber), ("MAC", .macAddress),
        ("Model", .model), ("Building", .building), ("Room", .room), ("Custodian", .custodian),
        ("Last seen", .lastSeen),
    ]

    /// The columns of the custodian table after the account.
    private static let tableFields: [(label: String, field: CanonicalField)] = [
        ("VT tag", .vtTag), ("CNS", .cnsNumber), ("Serial", .serialNumber), ("MAC", .macAddress), ("Model", .model),
        ("Building", .building), ("Room", .room), ("Last seen", .lastSeen),
    ]

    static func run(_ arguments: ParsedArguments) throws {
        let defaults = NightlyRunOptions()
        let lookup = AssetLookup(
            jobs: arguments.value(SharedOptions.jobs) ?? defaults.jobs,
            state: arguments.value(SharedOptions.state) ?? defaults.state)
        let account = arguments.value(SharedOptions.account)
        let custodian = arguments.value(Self.custodian)
        let identifiers = arguments.positionals
        let query: AssetLookup.Query
        switch (custodian, identifiers.count) {
        case (let custodian?, 0):
            query = .custodian(custodian)
        case (nil, 1):
            query = .identifier(identifiers[0])
        case (nil, 0):
            throw arguments.usageError("give the ID to look up, or --custodian ID")
        case (.some, _):
            throw arguments.usageError("give either an ID or --custodian ID, not both")
        default:
            throw arguments.usageError("give one ID; quote an ID that holds spaces")
        }
        let text = custodian ?? identifiers[0]
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw arguments.usageError("the ID to look up is blank")
        }

        let result = try lookup.search(query, account: account)
        for skipped in result.skipped {
            FileHandle.standardError.write(
                Data("stocktake: skipped: \(ControlCharacters.escaped("\(skipped)"))\n".utf8))
        }
        guard !result.matches.isEmpty else {
            let safeText = ControlCharacters.escaped(text)
            let subject = custodian == nil ? safeText : "custodian \(safeText)"
            let accounts =
                result.searched.isEmpty
                ? "any account" : result.searched.map(ControlCharacters.escaped).joined(separator: ", ")
            print("No asset matches \(subject) in \(accounts).")
            throw CommandExit.nothingMatched
        }
        if custodian == nil {
            print(result.matches.map(block).joined(separator: "\n"), terminator: "")
        } else {
            print(table(result.matches), terminator: "")
        }
    }

    /// The block a clerk reads for one match, ending with a line break. Values come from cleaned.csv, so their
    /// control characters are escaped.
    static func block(_ match: AssetMatch) -> String {
        let matched = match.matchedBy.map(\.spokenName).joined(separator: ", ")
        let lines =
            [("Account", match.account), ("Matched by", matched)]
            + blockFields.map { ($0.label, match[$0.field]) }
            + [("Status", match.status), ("Sources", match.sources)]
        let findings =
            !match.findingsKnown
            ? "Findings:   not known: the latest run has no finding ids (the next stocktake run lists them)\n"
            : match.findings.isEmpty
                ? "Findings:   none\n"
                : "Findings:\n"
                    + match.findings.map { finding in
                        "  \(finding.id)  \(finding.code) (\(finding.state) since \(finding.firstSeen)): "
                            + ControlCharacters.escaped(finding.message) + "\n"
                    }.joined()
        return lines.map { label, value in
            (label + ":").padding(toLength: 12, withPad: " ", startingAt: 0)
                + (value.isEmpty ? "-" : ControlCharacters.escaped(value)) + "\n"
        }.joined() + findings
    }

    /// One line per asset under a header, columns padded to their widest cell, then a count. Cells come from
    /// cleaned.csv, so their control characters are escaped.
    static func table(_ matches: [AssetMatch]) -> String {
        let header = ["Account"] + tableFields.map(\.label) + ["Status"]
        let rows = matches.map { match in
            ([match.account] + tableFields.map { match[$0.field].isEmpty ? "-" : match[$0.field] } + [match.status])
                .map(ControlCharacters.escaped)
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        let lines = ([header] + rows).map { cells in
            let padded = cells.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            return String(padded.joined(separator: "  ").reversed().drop(while: { $0 == " " }).reversed()) + "\n"
        }
        let count = matches.count == 1 ? "1 asset" : "\(matches.count) assets"
        return lines.joined() + count + ".\n"
    }
}
