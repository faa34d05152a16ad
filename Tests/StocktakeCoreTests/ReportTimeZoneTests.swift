import Foundation
import Testing

@testable import StocktakeCore

@Suite("ReportTimeZone: the run's time in the account's zone, from the TZif files")
struct ReportTimeZoneTests {
    static func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    @Test func newYorkInWinterAndSummer() throws {
        let zone = try #require(ReportTimeZone(named: "America/New_York"))
        // 2026-01-15T17:00:00Z and 2026-07-15T16:00:00Z: both noon in New York.
        #expect(zone.format(Self.date(1_768_496_400)) == "2026-01-15 12:00 EST")
        #expect(zone.format(Self.date(1_784_131_200)) == "2026-07-15 12:00 EDT")
        // The change on 2026-03-08: 01:59 EST, then 03:00 EDT.
        #expect(zone.format(Self.date(1_772_953_199)) == "2026-03-08 01:59 EST")
        #expect(zone.format(Self.date(1_772_953_200)) == "2026-03-08 03:00 EDT")
    }

    @Test func pastTheLastTransitionTheFootersRuleApplies() throws {
        let zone = try #require(ReportTimeZone(named: "America/New_York"))
        #expect(zone.transitions.last! < 2_224_771_200)
        #expect(zone.format(Self.date(2_224_771_200)) == "2040-07-01 12:00 EDT")
        #expect(zone.format(Self.date(2_237_994_000)) == "2040-12-01 12:00 EST")
        let sydney = try #require(ReportTimeZone(named: "Australia/Sydney"))
        #expect(sydney.format(Self.date(2_366_467_200)) == "2044-12-28 03:00 AEDT")
    }

    @Test func utcIsTheDefaultAndNeedsNoFile() throws {
        #expect(ReportTimeZone.utc.format(OutputFixture.started) == "2026-11-20 06:00 UTC")
        #expect(RunDetails(account: "a", started: OutputFixture.started, outputDirectory: "o").timeZone == .utc)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)").path
        #expect(ReportTimeZone(named: "UTC", folder: empty) == .utc)
        #expect(ReportTimeZone(named: "America/New_York", folder: empty) == nil)
    }

    @Test func aHalfHourZone() throws {
        let zone = try #require(ReportTimeZone(named: "Asia/Kolkata"))
        #expect(zone.format(OutputFixture.started) == "2026-11-20 11:30 IST")
    }

    @Test(arguments: ["", "../etc/passwd", "/etc/localtime", "America/../../x", "New York", "Europe/.hidden", "a//b"])
    func namesThatCouldLeaveTheZoneFolderAreRefused(name: String) {
        #expect(!ReportTimeZone.isZoneName(name))
        #expect(ReportTimeZone(named: name) == nil)
    }

    @Test func aFileThatIsNotTZifIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/Fake", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "not a zone".write(toFile: folder + "/Fake/Zone", atomically: true, encoding: .utf8)
        #expect(ReportTimeZone.isZoneName("Fake/Zone"))
        #expect(ReportTimeZone(named: "Fake/Zone", folder: folder) == nil)
        // A real file cut short is refused too, never read past its end.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/America/New_York")))
        for length in [0, 10, 44, 100, bytes.count / 2] {
            #expect(ReportTimeZone(name: "x", tzif: Array(bytes.prefix(length))) == nil, "\(length)")
        }
    }

    /// A zone file whose local time type names its abbreviation past the abbreviations is refused, not read past
    /// them (it trapped before).
    @Test func anAbbreviationIndexPastTheAbbreviationsIsRefused() {
        var bytes = Array("TZif".utf8) + [UInt8](repeating: 0, count: 16)
        // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
        for count: UInt8 in [0, 0, 0, 0, 1, 4] { bytes += [0, 0, 0, count] }
        bytes += [0xFF, 0xFF, 0xB9, 0xB0, 0, 200] + Array("EST\u{0}".utf8)
        #expect(ReportTimeZone(name: "x", tzif: bytes) == nil)
        bytes[bytes.count - 5] = 0
        #expect(
            ReportTimeZone(name: "x", tzif: bytes)?.format(Date(timeIntervalSince1970: 0)) == "1969-12-31 19:00 EST")
        // Without an abbreviation, the offset stands in.
        bytes[bytes.count - 4] = 0
        #expect(
            ReportTimeZone(name: "x", tzif: bytes)?.format(Date(timeIntervalSince1970: 0))
                == "1969-12-31 19:00 UTC-05:00")
    }

    @Test func offsetsWithoutAnAbbreviationAreWrittenAsUTCOffsets() {
        #expect(ReportTimeZone.offsetText(19_800) == "UTC+05:30")
        #expect(ReportTimeZone.offsetText(-18_000) == "UTC-05:00")
    }
}
