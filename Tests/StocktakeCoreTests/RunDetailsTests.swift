import Foundation
import Testing

@testable import StocktakeCore

@Suite("RunDetails: who, when and where a run writes")
struct RunDetailsTests {
    @Test func aNewRunHasFinishedWhenItStartedWithNothingPushed() {
        let details = RunDetails(account: "vt-nis", started: OutputFixture.started, outputDirectory: "out/vt-nis")
        #expect(details.account == "vt-nis")
        #expect(details.finished == OutputFixture.started)
        #expect(details.durations.isEmpty)
        #expect(details.pushes.isEmpty)
        #expect(details.exitStatus == .success)
    }

    @Test(arguments: [
        ("out/vt-nis", "out/vt-nis/run.json"),
        ("out/vt-nis/", "out/vt-nis/run.json"),
        ("/srv/stocktake/out", "/srv/stocktake/out/run.json"),
        ("", "run.json"),
    ])
    func outputPathsAreInTheOutputFolder(folder: String, path: String) {
        let details = RunDetails(account: "a", started: OutputFixture.started, outputDirectory: folder)
        #expect(details.path(of: "run.json") == path)
    }

    @Test func timestampsAreUTCToTheSecond() {
        #expect(RunDetails.timestamp(OutputFixture.started) == "2026-11-20T06:00:00Z")
        #expect(RunDetails.timestamp(OutputFixture.started.addingTimeInterval(3661.999)) == "2026-11-20T07:01:01Z")
        #expect(RunDetails.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }
}
