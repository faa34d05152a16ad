import Foundation
import Testing

@testable import StocktakeCore

@Suite("RunRecord: run.json")
struct RunRecordTests {
    /// The documented keys of run.json (README "Outputs"), in the documented order.
    static let documentedOrder = [
        "account", "asOf", "started", "finished", "inputs", "counts", "durations", "push", "exitStatus",
    ]

    static func parse(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    /// The top-level keys in the order they are written (top-level keys are indented by two spaces).
    static func topLevelKeys(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  \""), !line.hasPrefix("   ") else { return nil }
            return String(line.dropFirst(3).prefix { $0 != "\"" })
        }
    }

    @Test func theRecordHoldsTheRunsFacts() throws {
        let text = RunRecord.json(OutputFixture.reconciliation, details: OutputFixture.details)
        #expect(text.hasSuffix("}\n"))
        let record = try Self.parse(text)
        #expect(record["account"] as? String == "vt-nis")
        #expect(record["asOf"] as? String == "2026-11-20")
        #expect(record["started"] as? String == "2026-11-20T06:00:00Z")
        #expect(record["finished"] as? String == "2026-11-20T06:00:02Z")
        #expect(record["exitStatus"] as? Int == 0)
        #expect(record["push"] as? [String] == [])
        #expect(record["outputDirectory"] as? String == "/srv/stocktake/out/vt-nis")
        #expect(
            record["outputs"] as? [String] == [
                "cleaned.csv", "discrepancies.csv", "resolved.csv", "cleaned.xlsx", "discrepancies.xlsx",
                "changes.csv", "report.html", "summary.txt", "ledger.csv", "run.json",
            ])
        let counts = try #require(record["counts"] as? [String: Any])
        #expect(counts["assets"] as? Int == 4)
        #expect(counts["ok"] as? Int == 1)
        #expect(counts["missing"] as? Int == 1)
        #expect(counts["unrecorded"] as? Int == 1)
        #expect(counts["typo"] as? Int == 1)
        #expect(counts["conflict"] as? Int == 0)
        #expect(counts["errors"] as? Int == 2)
        #expect(counts["warnings"] as? Int == 2)
        #expect(counts["info"] as? Int == 0)
        #expect(
            counts["discrepancies"] as? [String: Int] == [
                "MISSING": 1, "UNRECORDED": 1, "POSSIBLE_TYPO": 1, "FIELD_CONFLICT": 1,
            ])
        let durations = try #require(record["durations"] as? [String: Double])
        #expect(durations == ["read": 1.25, "reconcile": 0.75, "write": 0.5, "total": 2.5])
    }

    /// `finished` is stamped as the reports begin, since they state it: the total still counts their writing.
    @Test func theTotalRunsUntilTheReportsAreWritten() throws {
        var details = OutputFixture.details
        details.durations = [("read", 1.25), ("write", 0.5), ("plan", 0.25), ("reports", 0.125)]
        let record = try Self.parse(RunRecord.json(OutputFixture.reconciliation, details: details))
        let durations = try #require(record["durations"] as? [String: Double])
        #expect(durations == ["read": 1.25, "write": 0.5, "plan": 0.25, "reports": 0.125, "total": 2.625])
    }

    @Test func inputsListEveryFileInOrder() throws {
        let record = try Self.parse(RunRecord.json(OutputFixture.reconciliation, details: OutputFixture.details))
        let inputs = try #require(record["inputs"] as? [[String: Any]])
        #expect(inputs.count == 2)
        #expect(inputs[0]["file"] as? String == "central.csv")
        #expect(inputs[0]["path"] as? String == "/data/vt-nis/central.csv")
        #expect(inputs[0]["role"] as? String == "central")
        #expect(inputs[0]["rows"] as? Int == 2)
        #expect(inputs[0]["unmapped"] as? [String] == ["Notes", "AP Name"])
        #expect(inputs[1]["file"] as? String == "survey.csv")
        #expect(inputs[1]["role"] as? String == "sighting")
        #expect(inputs[1]["rows"] as? Int == 3)
        #expect(inputs[1]["unmapped"] as? [String] == [])
    }

    @Test func keysAreWrittenInTheDocumentedOrder() {
        let keys = Self.topLevelKeys(RunRecord.json(OutputFixture.reconciliation, details: OutputFixture.details))
        #expect(keys.filter(Self.documentedOrder.contains) == Self.documentedOrder)
        #expect(keys == Self.documentedOrder + ["outputDirectory", "outputs"])
    }

    @Test func discrepancyCountsFollowTheCodeOrder() {
        let text = RunRecord.json(OutputFixture.reconciliation, details: OutputFixture.details)
        #expect(
            text.contains(
                "\"MISSING\": 1,\n      \"UNRECORDED\": 1,\n      \"POSSIBLE_TYPO\": 1,\n      \"FIELD_CONFLICT\": 1\n    }"
            ))
    }

    @Test func assetCountsNameEveryStatusNextToTheCodeCounts() {
        let text = RunRecord.json(OutputFixture.reconciliation, details: OutputFixture.details)
        #expect(
            text.contains(
                "\"assets\": 4,\n    \"ok\": 1,\n    \"missing\": 1,\n    \"unrecorded\": 1,\n    \"typo\": 1,\n"
                    + "    \"conflict\": 0,\n"))
    }

    @Test func anEmptyRunWithAFailureAndAwkwardTextIsStillValidJSON() throws {
        var details = OutputFixture.details
        details.account = "vt \"nis\"\\\n\u{1}"
        details.exitStatus = .cannotCreate
        details.durations = []
        details.pushes = ["cleaned.csv → https://example.org/a?b=\"c\""]
        let empty = Reconciliation(assets: [], discrepancies: [], inputs: [], asOf: OutputFixture.asOf)
        let record = try Self.parse(RunRecord.json(empty, details: details))
        #expect(record["account"] as? String == "vt \"nis\"\\\n\u{1}")
        #expect(record["exitStatus"] as? Int == 73)
        #expect(record["inputs"] as? [Any] != nil)
        #expect((record["inputs"] as? [Any])?.isEmpty == true)
        #expect(record["push"] as? [String] == ["cleaned.csv → https://example.org/a?b=\"c\""])
        #expect((record["counts"] as? [String: Any])?["discrepancies"] as? [String: Int] == [:])
        #expect(record["durations"] as? [String: Double] == ["total": 2.5])
    }
}

extension RunRecordTests {
    @Test func aRehearsedRunListsItsSimulatedFailuresAfterTheExitStatus() throws {
        var details = OutputFixture.details
        details.simulation = FailureSimulation([.upload, .push], origin: .commandLine)
        let text = RunRecord.json(OutputFixture.reconciliation, details: details)
        #expect(try Self.parse(text)["simulatedFailures"] as? [String] == ["push", "upload"])
        #expect(
            Self.topLevelKeys(text) == Self.documentedOrder + ["simulatedFailures", "outputDirectory", "outputs"])
    }
}
