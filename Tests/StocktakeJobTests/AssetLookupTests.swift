import Foundation
import StocktakeCore
import StocktakeJob
import Testing

@Suite struct AssetLookupTests {
    /// A temporary Jobs folder and state folder with two accounts: `vt-nis` (6-digit tags and CNS numbers) and
    /// `acme` (7-digit tags, 5-digit CNS numbers), each with a latest run whose `cleaned.csv` is written by hand.
    final class Site {
        let root = NSTemporaryDirectory() + "stocktake-lookup-" + UUID().uuidString
        var jobs: String { root + "/Jobs" }
        var state: String { root + "/state" }
        var lookup: AssetLookup { AssetLookup(jobs: jobs, state: state) }

        static let header = CleanedTable.columns.joined(separator: ",")

        init() throws {
            try account("vt-nis", rules: #"{"tagDigits": 6, "cnsDigits": 6}"#)
            try run(
                "vt-nis",
                rows: [
                    "001234,C000123,SN-77A,aa:bb:cc:dd:ee:ff,AP-635,WIRELESS AP,BRK,446,ceiling,lmorrow,,,2026-11-13,,,"
                        + "ok,central.csv; survey.csv",
                    "005678,C000999,001234,,AP-535,,HNL,133,,LMORROW,,,2026-11-10,,,missing,central.csv",
                    "009999,,XYZ9,,,,,,,jdoe,,,,,,unrecorded,survey.csv",
                ])
            try account("acme", rules: #"{"tagDigits": 7, "cnsDigits": 5}"#)
            try run(
                "acme",
                rows: ["0001234,C01234,INF-1,,ALARIS 8015,,NCL,WARD 2,, lmorrow ,,,2026-10-02,,,ok,equipment.csv"])
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ text: String, to path: String) throws {
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }

        func account(_ name: String, rules: String) throws {
            try write("VT Tag\n1\n", to: "Jobs/\(name)/central.csv")
            try write(
                #"{"name": "\#(name)", "central": {"provider": "file", "url": "central.csv"}, "rules": \#(rules)}"#,
                to: "Jobs/\(name)/account.json")
        }

        /// Makes a run of `name` holding `cleaned.csv` (or the given text) and points `latest` at it.
        func run(_ name: String, rows: [String], text: String? = nil) throws {
            let state = AccountState(root: state, account: AccountName(name)!)
            let run = try state.newRun(startedAt: Date(timeIntervalSince1970: 1_795_400_100))
            let table = text ?? ([Self.header] + rows).joined(separator: "\n") + "\n"
            try table.write(toFile: run.path(of: "cleaned.csv"), atomically: true, encoding: .utf8)
            try state.markLatest(run)
        }
    }

    /// Each match as "account:line:matched fields".
    private func found(_ result: AssetLookupResult) -> [String] {
        result.matches.map { "\($0.account):\($0.line):" + $0.matchedBy.map(\.rawValue).joined(separator: "+") }
    }

    @Test(arguments: ["VT-1234", "vt 1234", "1234", "001234", " 1234.0 "])
    func aTagInAnyForm(id: String) throws {
        let site = try Site()
        let result = try site.lookup.search(.identifier(id), account: "vt-nis")
        let expected = id == "001234" ? ["vt-nis:2:vt_tag", "vt-nis:3:serial_number"] : ["vt-nis:2:vt_tag"]
        #expect(found(result) == expected)
        #expect(result.searched == ["vt-nis"])
        #expect(result.skipped == [])
    }

    @Test(arguments: ["c-123", "C000123", "c 123", "123"])
    func aCNSNumberInAnyForm(id: String) throws {
        let site = try Site()
        #expect(found(try site.lookup.search(.identifier(id), account: "vt-nis")) == ["vt-nis:2:cns_number"])
    }

    @Test(arguments: ["SN-77A", "sn-77a", " Sn - 77 a "])
    func aSerialInAnyCaseAndSpacing(id: String) throws {
        let site = try Site()
        #expect(found(try site.lookup.search(.identifier(id))) == ["vt-nis:2:serial_number"])
    }

    @Test(arguments: ["aa:bb:cc:dd:ee:ff", "AA-BB-CC-DD-EE-FF", "aabb.ccdd.eeff", "AABBCCDDEEFF"])
    func aMACAddressInAnyOfTheFourForms(id: String) throws {
        let site = try Site()
        #expect(found(try site.lookup.search(.identifier(id))) == ["vt-nis:2:mac_address"])
    }

    @Test func everyAccountIsSearchedInNameOrderWithItsOwnDigits() throws {
        let site = try Site()
        let result = try site.lookup.search(.identifier("001234"))
        #expect(found(result) == ["acme:2:vt_tag", "vt-nis:2:vt_tag", "vt-nis:3:serial_number"])
        #expect(result.searched == ["acme", "vt-nis"])
        let acme = try #require(result.matches.first)
        #expect(acme[.vtTag] == "0001234")
        #expect(acme[.cnsNumber] == "C01234")
        #expect(acme[.room] == "WARD 2")
        #expect(acme[.macAddress] == "")
        #expect(acme.status == "ok")
        #expect(acme.sources == "equipment.csv")
        #expect(found(try site.lookup.search(.identifier("C01234"))) == ["acme:2:cns_number"])
    }

    @Test func oneValueMatchingTwoIdentifiersOfOneRow() throws {
        let site = try Site()
        try site.run("north", rows: ["001234,C000123,001234,,,,,,,,,,,,,ok,central.csv"])
        let result = try site.lookup.search(.identifier("1234.0"), account: "north")
        #expect(found(result) == ["north:2:vt_tag"])
        #expect(
            found(try site.lookup.search(.identifier("001234"), account: "north")) == ["north:2:vt_tag+serial_number"])
    }

    @Test func anAccountWithARunButNoJobsFolderUsesSixDigits() throws {
        let site = try Site()
        try site.run("north", rows: ["001234,C000123,,,,,,,,,,,,,,ok,central.csv"])
        #expect(found(try site.lookup.search(.identifier("c-123"), account: "north")) == ["north:2:cns_number"])
    }

    @Test func theCustodianListingIgnoresCaseAndBlanks() throws {
        let site = try Site()
        let result = try site.lookup.search(.custodian(" LMorrow "))
        #expect(found(result) == ["acme:2:custodian", "vt-nis:2:custodian", "vt-nis:3:custodian"])
        #expect(result.matches.map { $0[.vtTag] } == ["0001234", "001234", "005678"])
        #expect(found(try site.lookup.search(.custodian("jdoe"), account: "vt-nis")) == ["vt-nis:4:custodian"])
        #expect(found(try site.lookup.search(.custodian("jdo"))) == [])
    }

    @Test func theCustodianComparisonFoldsLettersBeyondASCII() throws {
        let site = try Site()
        try site.run("north", rows: ["000001,,,,,,,,,ÉLODIE,,,,,,ok,central.csv"])
        #expect(found(try site.lookup.search(.custodian("élodie"), account: "north")) == ["north:2:custodian"])
    }

    @Test func nothingMatches() throws {
        let site = try Site()
        let result = try site.lookup.search(.identifier("4321"))
        #expect(result == AssetLookupResult(matches: [], searched: ["acme", "vt-nis"], skipped: []))
        #expect(try site.lookup.search(.identifier("N/A")).matches == [])
    }

    @Test func aNamedAccountWithoutARun() throws {
        let site = try Site()
        try site.account("north", rules: "{}")
        #expect(throws: AssetLookupError.noRun(account: "north", state: site.state)) {
            try site.lookup.search(.identifier("1234"), account: "north")
        }
        let error = AssetLookupError.noRun(account: "north", state: "state")
        #expect(error.exitStatus == .noInput)
        #expect(
            error.description
                == "Account north has no run yet in state; run stocktake run first, or give the state folder with --state."
        )
    }

    @Test func noAccountHasARun() throws {
        let site = try Site()
        let lookup = AssetLookup(jobs: site.jobs, state: site.root + "/elsewhere")
        #expect(throws: AssetLookupError.noRuns(state: site.root + "/elsewhere")) {
            try lookup.search(.custodian("jdoe"))
        }
        #expect(
            AssetLookupError.noRuns(state: "state").description
                == "No account has a run yet in state; run stocktake run first, or give the state folder with --state.")
    }

    @Test func anAccountNameThatCannotBeAFolder() throws {
        let site = try Site()
        let expected = AssetLookupError.invalidAccountName(name: "a/b", problem: "contains a slash")
        #expect(throws: expected) { try site.lookup.search(.identifier("1234"), account: "a/b") }
        #expect(expected.exitStatus == .usage)
        #expect(
            expected.description
                == "\"a/b\" is not an account name: it contains a slash. Give the name of a folder under Jobs/.")
    }

    @Test func aBrokenConfigurationSkipsTheAccountOrStopsANamedLookup() throws {
        let site = try Site()
        try site.write(#"{"central": "central.csv", "rules": {"tagDigits": "six"}}"#, to: "Jobs/acme/account.json")
        let result = try site.lookup.search(.identifier("1234"))
        #expect(found(result) == ["vt-nis:2:vt_tag"])
        #expect(result.searched == ["vt-nis"])
        let skipped = try #require(result.skipped.first)
        guard case .configuration(let problem) = skipped else {
            Issue.record("expected a configuration problem, got \(skipped)")
            return
        }
        #expect(problem.account == "acme")
        #expect(problem.key == "rules.tagDigits")
        #expect(skipped.exitStatus == .configuration)
        #expect(skipped.description == problem.description)
        #expect(throws: skipped) { try site.lookup.search(.identifier("1234"), account: "acme") }
    }

    @Test func aTableWithoutTheIdentifierColumns() throws {
        let site = try Site()
        try site.run("north", rows: [], text: "vt_tag,serial_number\n001234,X\n")
        let expected = AssetLookupError.missingColumn(
            account: "north", path: site.state + "/north/latest/cleaned.csv", column: "cns_number")
        let error = #expect(throws: AssetLookupError.self) {
            try site.lookup.search(.identifier("1234"), account: "north")
        }
        guard case .missingColumn(let account, let path, let column) = error else {
            Issue.record("expected a missing column, got \(String(describing: error))")
            return
        }
        #expect(account == "north")
        #expect(path.hasSuffix("/north/runs/20261123T021500Z/cleaned.csv"))
        #expect(column == "cns_number")
        #expect(error?.exitStatus == .dataError)
        #expect(
            expected.description
                == "Account north: \(site.state)/north/latest/cleaned.csv has no \"cns_number\" column, so it is not a "
                + "cleaned table; run stocktake run again to rebuild the latest run.")
    }

    @Test func aMissingTableIsUnreadable() throws {
        let site = try Site()
        let path = site.root + "/nowhere.csv"
        let error = #expect(throws: AssetLookupError.self) {
            try AssetLookup.matches(
                .identifier("1"), inCleanedTable: path, account: "north", tagDigits: 6, cnsDigits: 6)
        }
        guard case .unreadableTable(let account, let csvError) = error, case .unreadable = csvError else {
            Issue.record("expected an unreadable table, got \(String(describing: error))")
            return
        }
        #expect(account == "north")
        #expect(error?.exitStatus == .noInput)
        #expect(error?.description == "Account north: \(csvError) Run stocktake run again to rebuild the latest run.")
    }

    @Test func theReadingsOfAnID() {
        #expect(
            AssetLookup.interpretations(of: "001234", tagDigits: 6, cnsDigits: 6)
                == [.vtTag: "001234", .cnsNumber: "C001234", .serialNumber: "001234"])
        #expect(
            AssetLookup.interpretations(of: "aabb.ccdd.eeff", tagDigits: 6, cnsDigits: 6)
                == [.serialNumber: "AABB.CCDD.EEFF", .macAddress: "aa:bb:cc:dd:ee:ff"])
        #expect(
            AssetLookup.interpretations(of: "1234567", tagDigits: 7, cnsDigits: 5) == [
                .vtTag: "1234567", .serialNumber: "1234567",
            ])
        #expect(AssetLookup.interpretations(of: "  ", tagDigits: 6, cnsDigits: 6) == [:])
    }
}
