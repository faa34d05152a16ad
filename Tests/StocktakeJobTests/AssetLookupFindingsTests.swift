import Foundation
import StocktakeCore
import Testing

@testable import StocktakeJob

/// `stocktake lookup` shows an asset's findings, and finds a tag-less device by its serial or MAC.
@Suite("AssetLookup: findings")
struct AssetLookupFindingsTests {
    let site = NightlyRunTests.Site()

    init() throws {
        site.write(
            CleanedTable.columns.joined(separator: ",") + "\n"
                + "100001,C000001,S1,aa:bb:cc:dd:ee:01,,,,,,,,,,,missing,central.csv\n",
            to: "state/acme/runs/20261120T021500Z/cleaned.csv")
        site.write(
            DiscrepancyTable.columns.joined(separator: ",") + "\n"
                + "MISSING,error,100001,C000001,S1,aa:bb:cc:dd:ee:01,,,,central.csv:1,VT tag 100001 is missing.,"
                + "AAAA-BBBB,2026-11-01,open\n"
                + "NO_TAG,warning,,,NT-9,aa:bb:cc:dd:ee:99,,,,scan.csv:4,A device with serial NT-9 has no tag.,"
                + "CCCC-DDDD,2026-11-20,new\n",
            to: "state/acme/runs/20261120T021500Z/discrepancies.csv")
        try FileManager.default.createSymbolicLink(
            atPath: site.state + "/acme/latest", withDestinationPath: "runs/20261120T021500Z")
    }

    @Test func anAssetCarriesItsFindings() throws {
        let result = try AssetLookup(jobs: site.jobs, state: site.state).search(.identifier("100001"), account: "acme")
        #expect(result.matches.count == 1)
        #expect(result.matches[0].findingsKnown)
        #expect(
            result.matches[0].findings == [
                FindingMatch(
                    id: "AAAA-BBBB", code: "MISSING", state: "open", firstSeen: "2026-11-01",
                    message: "VT tag 100001 is missing.")
            ])
    }

    @Test(arguments: ["nt-9", "AA-BB-CC-DD-EE-99"])
    func aDeviceWithoutATagIsFoundBySerialOrMAC(id: String) throws {
        let result = try AssetLookup(jobs: site.jobs, state: site.state).search(.identifier(id), account: "acme")
        #expect(result.matches.count == 1)
        let device = try #require(result.matches.first)
        #expect(device.status == "no tag")
        #expect(device[.vtTag] == "")
        #expect(device[.serialNumber] == "NT-9" && device[.macAddress] == "aa:bb:cc:dd:ee:99")
        #expect(device.matchedBy == (id == "nt-9" ? [.serialNumber] : [.macAddress]))
        #expect(device.sources == "scan.csv:4")
        #expect(device.findings.map(\.id) == ["CCCC-DDDD"])
    }

    @Test func aRunMadeBeforeFindingsHadIdsAddsNothing() throws {
        site.write(
            "code,severity,vt_tag,cns_number,serial_number,mac_address,field,value,expected,sources,message\n"
                + "MISSING,error,100001,,,,,,,central.csv:1,VT tag 100001 is missing.\n",
            to: "state/acme/runs/20261120T021500Z/discrepancies.csv")
        let result = try AssetLookup(jobs: site.jobs, state: site.state).search(.identifier("100001"), account: "acme")
        #expect(result.matches.count == 1)
        #expect(result.matches[0].findings == [])
        #expect(!result.matches[0].findingsKnown)
    }

    @Test func anAssetWithoutFindingsInARunWithIdsHasNone() throws {
        site.write(
            CleanedTable.columns.joined(separator: ",") + "\n"
                + "100001,C000001,S1,aa:bb:cc:dd:ee:01,,,,,,,,,,,missing,central.csv\n"
                + "100002,C000002,S2,,,,,,,,,,,,ok,central.csv\n",
            to: "state/acme/runs/20261120T021500Z/cleaned.csv")
        let result = try AssetLookup(jobs: site.jobs, state: site.state).search(.identifier("100002"), account: "acme")
        #expect(result.matches.count == 1)
        #expect(result.matches[0].findings == [] && result.matches[0].findingsKnown)
    }
}
