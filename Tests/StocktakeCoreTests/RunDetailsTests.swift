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
        #expect(details.displayName == "vt-nis")
        #expect(details.timeZone == .utc)
        #expect(details.changes.isEmpty)
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

    /// The stamps are formatted by hand; they must read exactly as Foundation's ISO 8601 formatter wrote them before,
    /// at day, month, year and leap-day boundaries and at fractions just under a whole second.
    @Test func timestampsReadAsFoundationsISO8601FormatterWritesThem() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var dates = [
            "2024-02-28T23:59:59Z", "2024-02-29T00:00:00Z", "2024-02-29T23:59:59Z", "2025-12-31T23:59:59Z",
            "2026-01-01T00:00:00Z", "2000-02-29T12:00:00Z", "2099-12-31T23:59:59Z",
        ].map { formatter.date(from: $0)! }
        dates += dates.map { $0.addingTimeInterval(0.999) }
        // Every 7,919,999.937 seconds (about 92 days, never a whole second) from 1970 to 2100.
        var seconds = 0.0
        while seconds < 4_102_444_800 {
            dates.append(Date(timeIntervalSince1970: seconds))
            seconds += 7_919_999.937
        }
        for date in dates {
            #expect(RunDetails.timestamp(date) == formatter.string(from: date), "\(date.timeIntervalSince1970)")
        }
    }
}
