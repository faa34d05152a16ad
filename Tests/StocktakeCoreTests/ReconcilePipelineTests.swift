import Foundation
import StocktakeCore
import Testing

@Suite("The one pipeline: pull → read → reconcile → check → write → plan → push → report → publish")
struct ReconcilePipelineTests {
    let folder = TemporaryFolder()
    let quiet = Log(account: "test", isEnabled: false)

    /// An account whose central sheet has an unpadded tag, so a push has something to change.
    func request() -> ReconcileRequest {
        let central = folder.write("VT Tag,Serial\n1,S1\n000002,S2\n", to: "account/central.csv")
        folder.write("Tag,Serial\n1,S1\n2,S2\n", to: "account/scans/a.csv")
        var request = ReconcileRequest(
            account: "test", central: central,
            rules: ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!),
            outputDirectory: folder.path("out"))
        request.sightings = [SourceEntry(folder.path("account/scans"))]
        return request
    }

    final class Trace: @unchecked Sendable {
        var stages: [String] = []
    }

    @Test func everyStageRunsOnceInOrderAndThePushGetsThePlan() throws {
        let trace = Trace()
        let pipeline = ReconcilePipeline(
            pullCentral: { _, _, _ in
                trace.stages.append("pull central")
                return nil
            },
            pullSources: { _, _ in trace.stages.append("pull sources") },
            check: { _, _, reconciliation in trace.stages.append("check \(reconciliation.assets.count) assets") },
            push: { plan, details, _ in
                trace.stages.append("push \(plan.changes.map(\.after))")
                details.pushes.append("pushed somewhere")
            },
            publish: { _, _ in
                trace.stages.append("publish")
                return false
            })
        let result = try pipeline.run(request(), log: quiet)
        #expect(
            trace.stages == ["pull central", "pull sources", "check 2 assets", "push [\"000001\"]", "publish"])
        #expect(result.writeBack.changes.count == 1)
        #expect(
            folder.read("out/changes.csv")
                == "row,vt_tag,column,before,after,reason\r\n1,000001,VT Tag,1,000001,normalized\r\n")
        #expect(
            folder.read("out/summary.txt")?.contains("Pushed: pushed somewhere") == true, "the push is in the report")
    }

    @Test func aRefusingCheckStopsTheRunBeforeAnythingIsWritten() throws {
        struct Refused: Error {}
        var pushed = false
        let pipeline = ReconcilePipeline(
            check: { _, _, _ in throw Refused() }, push: { _, _, _ in pushed = true })
        #expect(throws: Refused.self) { try pipeline.run(request(), log: quiet) }
        #expect(!pushed)
        #expect(folder.read("out/cleaned.csv") == nil)
        #expect(folder.read("out/changes.csv") == nil)
    }

    /// The files of the output folder under their final names, and the temporary files waiting there.
    func outputs() -> (named: [String], partial: Int) {
        let names = folder.list("out")
        return (names.filter { !$0.hasPrefix(".") }.sorted(), names.filter { $0.hasSuffix(".partial") }.count)
    }

    /// The files written before the push, in name order.
    static let tables = ReconcileJob.outputFiles.prefix(6).sorted()

    /// A push never runs while the tables or changes.csv could still be lost: they are on disk under their names.
    @Test func aPushFindsTheTablesAndChangesCSVInPlace() throws {
        let seen = Trace()
        let pipeline = ReconcilePipeline(push: { _, _, _ in seen.stages = outputs().named })
        _ = try pipeline.run(request(), log: quiet)
        #expect(seen.stages == Self.tables)
        #expect(outputs().partial == 0)
    }

    /// Without a push the tables and changes.csv are still flushing when the push stage runs; they take their names
    /// with the reports, and the run ends with every output in place and nothing temporary left.
    @Test func withoutAPushTheTablesTakeTheirNamesWithTheReports() throws {
        let seen = Trace()
        var partialAtPush = 0
        let pipeline = ReconcilePipeline(
            push: { _, _, _ in
                seen.stages = outputs().named
                partialAtPush = outputs().partial
            }, pushesCentral: false)
        _ = try pipeline.run(request(), log: quiet)
        #expect(seen.stages == [])
        #expect(partialAtPush == Self.tables.count)
        #expect(outputs().named == ReconcileJob.outputFiles.sorted())
        #expect(outputs().partial == 0)
        #expect(
            folder.read("out/changes.csv")
                == "row,vt_tag,column,before,after,reason\r\n1,000001,VT Tag,1,000001,normalized\r\n")
    }

    /// A plan that fails (the central sheet gone once reconciled) leaves what it left when the tables were committed
    /// at once: the five tables in place, no changes.csv, no report, nothing temporary; its error is the one thrown.
    @Test(arguments: [false, true])
    func aFailingPlanLeavesTheTablesInPlace(pushesCentral: Bool) throws {
        let request = request()
        let pipeline = ReconcilePipeline(
            check: { _, _, _ in try FileManager.default.removeItem(atPath: request.central) },
            pushesCentral: pushesCentral)
        #expect(throws: StocktakeError.missingInput(path: request.central, what: "file")) {
            try pipeline.run(request, log: quiet)
        }
        #expect(outputs().named == Self.tables.filter { $0 != "changes.csv" })
        #expect(outputs().partial == 0)
    }

    /// A report that cannot take its name (a folder is in report.html's place) fails the run with its own error,
    /// after the tables and changes.csv, waiting until then when nothing is pushed, have taken theirs: they are kept
    /// whole, no report after it and no run.json appears, and nothing temporary is left.
    @Test(arguments: [false, true])
    func aReportThatCannotTakeItsNameKeepsTheTablesAndChangesCSV(pushesCentral: Bool) throws {
        let request = request()
        folder.write("planted\n", to: "out/report.html/keep.txt")
        #expect(throws: StocktakeError.cannotWrite(path: folder.path("out/report.html"), reason: "is a directory")) {
            try ReconcilePipeline(pushesCentral: pushesCentral).run(request, log: quiet)
        }
        #expect(outputs().named == (Self.tables + ["report.html"]).sorted())
        #expect(outputs().partial == 0)
        #expect(folder.read("out/report.html/keep.txt") == "planted\n")
        #expect(
            folder.read("out/changes.csv")
                == "row,vt_tag,column,before,after,reason\r\n1,000001,VT Tag,1,000001,normalized\r\n")
        #expect(folder.read("out/cleaned.csv")?.hasPrefix("vt_tag,") == true)
    }

    /// run.json is written last, once the reports have their names: when it cannot take its own (a folder is in
    /// its place), every other output is in place, whole, and the error names run.json.
    @Test func aRunRecordThatCannotTakeItsNameLeavesEveryOtherOutputInPlace() throws {
        let request = request()
        folder.write("planted\n", to: "out/run.json/keep.txt")
        #expect(throws: StocktakeError.cannotWrite(path: folder.path("out/run.json"), reason: "is a directory")) {
            try ReconcilePipeline(pushesCentral: false).run(request, log: quiet)
        }
        #expect(outputs().named == ReconcileJob.outputFiles.sorted())
        #expect(outputs().partial == 0)
        #expect(folder.read("out/run.json/keep.txt") == "planted\n")
        #expect(folder.read("out/report.html")?.hasSuffix("</html>\n") == true)
    }

    /// The run tells it has finished computing once, when the reports are written and only waits for the disk remain:
    /// the three reports are still flushing under their temporary names and run.json is not there yet.
    @Test func theEndOfComputingIsToldOnceBeforeTheReportsWaitForTheDisk() throws {
        var pipeline = ReconcilePipeline()
        var calls = 0
        var atCall: (named: [String], partial: Int)?
        pipeline.didFinishComputing = {
            calls += 1
            atCall = outputs()
        }
        _ = try pipeline.run(request(), log: quiet)
        #expect(calls == 1)
        #expect(atCall?.named == Self.tables)
        #expect(atCall?.partial == 3)
        #expect(outputs().named == ReconcileJob.outputFiles.sorted())
    }

    /// A run that publishes still sends to a server after its reports: it has finished computing only after the
    /// publish, whether the reports are written again or not.
    @Test(arguments: [false, true])
    func aRunThatPublishesFinishesComputingAfterThePublish(rewrites: Bool) throws {
        let seen = Trace()
        var pipeline = ReconcilePipeline(publish: { _, _ in
            seen.stages.append("publish")
            return rewrites
        })
        pipeline.publishes = true
        pipeline.didFinishComputing = { seen.stages.append("computed") }
        _ = try pipeline.run(request(), log: quiet)
        #expect(seen.stages == ["publish", "computed"])
    }

    /// A run that fails never says it has finished computing: the nightly run gives the account's place back when
    /// its outcome arrives instead.
    @Test func aRefusedRunNeverSaysItFinishedComputing() throws {
        struct Refused: Error {}
        var pipeline = ReconcilePipeline(check: { _, _, _ in throw Refused() })
        var calls = 0
        pipeline.didFinishComputing = { calls += 1 }
        #expect(throws: Refused.self) { try pipeline.run(request(), log: quiet) }
        #expect(calls == 0)
    }

    @Test func aFailedPublishWritesTheReportsAgain() throws {
        let pipeline = ReconcilePipeline(publish: { details, _ in
            details.pushes.append("reports NOT uploaded")
            return true
        })
        _ = try pipeline.run(request(), log: quiet)
        #expect(folder.read("out/summary.txt")?.contains("reports NOT uploaded") == true)
    }

    /// The phases a run times, in run.json in the order they ran; writing the reports again after a publish replaces
    /// their time instead of listing the phase twice.
    @Test func runJSONTimesEveryPhaseOnceInTheOrderTheyRan() throws {
        let pipeline = ReconcilePipeline(publish: { _, _ in true })
        let result = try pipeline.run(request(), log: quiet)
        #expect(
            result.details.durations.map(\.phase)
                == ["read", "identify", "merge", "reconcile", "write", "plan", "reports"])
        let json = try #require(folder.read("out/run.json"))
        let durations = try #require(json.split(separator: "\"durations\": {\n").last?.split(separator: "}").first)
        let names = durations.split(separator: "\n").compactMap { $0.split(separator: "\"").dropFirst().first }
        #expect(names == ["read", "identify", "merge", "reconcile", "write", "plan", "reports", "total"])
    }

    @Test func theLocalPipelineIsWhatReconcileJobRuns() throws {
        let (reconciliation, details) = try ReconcileJob.run(request(), log: quiet)
        let local = try ReconcilePipeline().run(request(), log: quiet)
        #expect(reconciliation.assets.map(\.values.vtTag) == local.reconciliation.assets.map(\.values.vtTag))
        #expect(details.outputDirectory == local.details.outputDirectory)
        #expect(local.writeBack.changes.count == 1)
    }
}
