import Foundation
import StocktakeCore
import Testing

@testable import stocktake

/// `stocktake ack` run as a clerk runs it, against a latest run with a ledger.
struct AckCommandTests {
    let runner = CommandRunner()
    static let missing = FindingID(code: .missing, key: "vt_tag=100001")

    init() throws {
        runner.write(#"{"central": {"provider": "file", "url": "central.csv"}}"#, to: "Jobs/acme/account.json")
        runner.write("VT Tag\n100001\n", to: "Jobs/acme/central.csv")
        let seen = InventoryDate(year: 2026, month: 11, day: 20)!
        let entry = LedgerEntry(
            id: Self.missing, code: .missing, key: "vt_tag=100001", firstSeen: seen, lastSeen: seen, state: .open,
            evidence: "00000000000000aa", vtTag: "100001")
        runner.write(
            String(decoding: LedgerFile.bytes([entry]), as: UTF8.self),
            to: "state/acme/runs/20261120T021500Z/ledger.csv")
        try FileManager.default.createSymbolicLink(
            atPath: runner.path("state/acme/latest"), withDestinationPath: "runs/20261120T021500Z")
    }

    @Test func recordsTheAcknowledgementAndSaysSo() throws {
        let result = try runner.run([
            "ack", Self.missing.description, "--account", "acme", "--note", "sent for repair", "--until",
            "2027-01-31", "--by", "dana",
        ])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(
            result.standardOutput
                == "Acknowledged \(Self.missing) (MISSING VT tag 100001) for account acme until 2027-01-31; it is "
                + "listed apart from the next run on.\n")
        let file = try #require(runner.read("Jobs/acme/acknowledged.csv"))
        #expect(
            file.hasSuffix(
                "\(Self.missing),sent for repair,2027-01-31,dana,\(InventoryDate.today()),00000000000000aa\r\n"))
    }

    @Test func anIdThatIsNotOpenIsRefusedWithTheClosestAndNothingIsWritten() throws {
        let result = try runner.run(["ack", "ZZZZ-ZZZZ", "--account", "acme", "--note", "x"])
        #expect(result.status == 64)
        #expect(
            result.standardError
                == "stocktake: ZZZZ-ZZZZ is not a finding of account acme's latest run 20261120T021500Z; the closest "
                + "open ids are \(Self.missing).\n")
        #expect(runner.read("Jobs/acme/acknowledged.csv") == nil)
    }

    @Test(arguments: [
        (["ack", "--account", "acme", "--note", "x"], "give the ids of the findings to acknowledge"),
        (["ack", "AAAA-BBBB", "--note", "x"], "--account is required"),
        (["ack", "AAAA-BBBB", "--account", "acme"], "--note is required: say why the findings are fine"),
        (
            ["ack", "AAAA-BBBB", "--account", "acme", "--note", "x", "--until", "soon"],
            "--until must be a date as YYYY-MM-DD, not \"soon\""
        ),
    ])
    func badUsage(arguments: [String], problem: String) throws {
        let result = try runner.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "stocktake: ack: \(problem). See 'stocktake ack --help'.\n")
    }

    @Test func helpNamesEveryOption() throws {
        let result = try runner.run(["ack", "--help"])
        #expect(result.status == 0)
        for option in ["--account NAME", "--note TEXT", "--until YYYY-MM-DD", "--by NAME", "--jobs DIR", "--state DIR"]
        {
            #expect(result.standardOutput.contains(option), "\(option)")
        }
    }
}
