import Foundation
import StocktakeCore
import Testing

@testable import stocktake

/// `stocktake lookup` run as a clerk runs it, against a state folder with hand-written latest runs.
struct LookupCommandTests {
    let runner = CommandRunner()

    init() throws {
        let header = CleanedTable.columns.joined(separator: ",")
        try latestRun(
            "vt-nis",
            header + "\n"
                + "001234,C000123,SN-77A,aa:bb:cc:dd:ee:ff,AP-635,WIRELESS AP,BRK,446,ceiling,lmorrow,,,2026-11-13,,,"
                + "ok,central.csv; survey.csv\n"
                + "005678,C000999,001234,,AP-535,,HNL,133,,LMORROW,,,,,,missing,central.csv\n"
                + "009999,,XYZ9,,,,,,,jdoe,,,,,,unrecorded,survey.csv\n")
        try latestRun(
            "acme",
            header + "\n" + "0001234,C01234,INF-1,,ALARIS 8015,,NCL,WARD 2,,lmorrow,,,2026-10-02,,,ok,equipment.csv\n")
        runner.write("VT Tag\n1\n", to: "Jobs/acme/central.csv")
        runner.write(
            #"{"name": "Acme", "central": {"provider": "file", "url": "central.csv"}, "rules": {"tagDigits": 7, "cnsDigits": 5}}"#,
            to: "Jobs/acme/account.json")
    }

    /// Writes `state/<account>/runs/<id>/cleaned.csv` and the `latest` link to it.
    private func latestRun(_ account: String, _ table: String) throws {
        runner.write(table, to: "state/\(account)/runs/20261123T021500Z/cleaned.csv")
        try FileManager.default.createSymbolicLink(
            atPath: runner.path("state/\(account)/latest"), withDestinationPath: "runs/20261123T021500Z")
    }

    /// The end of a block when the latest run has no discrepancies.csv with finding ids.
    static let unknown = "Findings:   not known: the latest run has no finding ids (the next stocktake run lists them)"

    static let firstAsset = """
        Account:    vt-nis
        Matched by: VT tag
        VT tag:     001234
        CNS number: C000123
        Serial:     SN-77A
        MAC:        aa:bb:cc:dd:ee:ff
        Model:      AP-635
        Building:   BRK
        Room:       446
        Custodian:  lmorrow
        Last seen:  2026-11-13
        Status:     ok
        Sources:    central.csv; survey.csv
        Findings:   not known: the latest run has no finding ids (the next stocktake run lists them)

        """

    @Test func helpPrintsTheUsage() throws {
        let result = try runner.run(["lookup", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Find an asset in the latest run's cleaned.csv by VT tag, CNS number"))
        #expect(
            result.standardOutput.contains("\n    stocktake lookup ID [--account NAME] [--jobs DIR] [--state DIR]\n"))
        #expect(result.standardOutput.contains("\n    stocktake lookup --custodian ID [--account NAME]"))
        #expect(
            result.standardOutput.hasSuffix("66 the account has no run yet, 78 an account's\nconfiguration is wrong.\n")
        )
    }

    @Test func theOverviewListsTheCommand() throws {
        let result = try runner.run(["--help"])
        #expect(
            result.standardOutput.contains(
                "\n    stocktake lookup ID | --custodian ID [--account NAME] [--jobs DIR] [--state DIR]\n"))
    }

    @Test(arguments: ["vt-1234", "C000123", "sn-77 a", "AABB.CCDD.EEFF"])
    func anAssetByAnyIdentifier(id: String) throws {
        let result = try runner.run(["lookup", id, "--account", "vt-nis"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let matchedBy = ["vt-1234": "VT tag", "C000123": "CNS number", "sn-77 a": "serial number"][id] ?? "MAC address"
        #expect(
            result.standardOutput
                == Self.firstAsset.replacingOccurrences(of: "Matched by: VT tag", with: "Matched by: \(matchedBy)"))
    }

    @Test func everyAccountAndEveryReadingOfTheID() throws {
        let result = try runner.run(["lookup", "001234"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == """
                Account:    acme
                Matched by: VT tag
                VT tag:     0001234
                CNS number: C01234
                Serial:     INF-1
                MAC:        -
                Model:      ALARIS 8015
                Building:   NCL
                Room:       WARD 2
                Custodian:  lmorrow
                Last seen:  2026-10-02
                Status:     ok
                Sources:    equipment.csv
                Findings:   not known: the latest run has no finding ids (the next stocktake run lists them)

                """ + "\n" + Self.firstAsset + "\n" + """
                    Account:    vt-nis
                    Matched by: serial number
                    VT tag:     005678
                    CNS number: C000999
                    Serial:     001234
                    MAC:        -
                    Model:      AP-535
                    Building:   HNL
                    Room:       133
                    Custodian:  LMORROW
                    Last seen:  -
                    Status:     missing
                    Sources:    central.csv
                    Findings:   not known: the latest run has no finding ids (the next stocktake run lists them)

                    """)
    }

    @Test func anAssetsFindingsAndATaglessDeviceFromTheLatestRunsDiscrepancies() throws {
        let conflict = FindingID(code: .fieldConflict, key: "vt_tag=001234|field=room")
        let missing = FindingID(code: .missing, key: "vt_tag=005678")
        let tagless = FindingID(code: .noTag, key: "serial_number=NT-9")
        runner.write(
            DiscrepancyTable.columns.joined(separator: ",") + "\n"
                + "FIELD_CONFLICT,warning,001234,C000123,SN-77A,,room,446,447,survey.csv:3; central.csv:2,"
                + "\"The room \"\"446\"\" wins over 447.\",\(conflict),2026-11-20,open\n"
                + "MISSING,error,005678,C000999,,,,,,central.csv:3,VT tag 005678 is missing.,\(missing),2026-11-23,new\n"
                + "NO_TAG,warning,,,NT-9,,,,,survey.csv:9,\"A device without a tag:\nserial NT-9\u{1B}[2J.\","
                + "\(tagless),2026-11-21,acknowledged\n",
            to: "state/vt-nis/runs/20261123T021500Z/discrepancies.csv")
        let result = try runner.run(["lookup", "vt-1234", "--account", "vt-nis"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput
                == Self.firstAsset.replacingOccurrences(
                    of: "\(Self.unknown)\n",
                    with:
                        "Findings:\n  \(conflict)  FIELD_CONFLICT (open since 2026-11-20): The room \"446\" wins over "
                        + "447.\n"))
        let device = try runner.run(["lookup", "nt-9", "--account", "vt-nis"])
        #expect(device.status == 0)
        #expect(
            device.standardOutput == #"""
                Account:    vt-nis
                Matched by: serial number
                VT tag:     -
                CNS number: -
                Serial:     NT-9
                MAC:        -
                Model:      -
                Building:   -
                Room:       -
                Custodian:  -
                Last seen:  -
                Status:     no tag
                Sources:    survey.csv:9
                Findings:
                  \#(tagless)  NO_TAG (acknowledged since 2026-11-21): A device without a tag:\nserial NT-9\x1B[2J.

                """#)
    }

    @Test func whatACustodianHolds() throws {
        let result = try runner.run(["lookup", "--custodian", " LMorrow"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(
            result.standardOutput == """
                Account  VT tag   CNS      Serial  MAC                Model        Building  Room    Last seen   Status
                acme     0001234  C01234   INF-1   -                  ALARIS 8015  NCL       WARD 2  2026-10-02  ok
                vt-nis   001234   C000123  SN-77A  aa:bb:cc:dd:ee:ff  AP-635       BRK       446     2026-11-13  ok
                vt-nis   005678   C000999  001234  -                  AP-535       HNL       133     -           missing
                3 assets.

                """)
        let one = try runner.run(["lookup", "--custodian=jdoe", "--account", "vt-nis"])
        #expect(
            one.standardOutput == """
                Account  VT tag  CNS  Serial  MAC  Model  Building  Room  Last seen  Status
                vt-nis   009999  -    XYZ9    -    -      -         -     -          unrecorded
                1 asset.

                """)
    }

    @Test func nothingMatches() throws {
        let result = try runner.run(["lookup", "4321"])
        #expect(result.status == 1)
        #expect(result.standardOutput == "No asset matches 4321 in acme, vt-nis.\n")
        #expect(result.standardError == "")
        let custodian = try runner.run(["lookup", "--custodian", "nobody", "--account", "acme"])
        #expect(custodian.status == 1)
        #expect(custodian.standardOutput == "No asset matches custodian nobody in acme.\n")
    }

    @Test func anAccountWithoutARun() throws {
        let result = try runner.run(["lookup", "1234", "--account", "north"])
        #expect(result.status == 66)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: Account north has no run yet in state; run stocktake run first, "
                + "or give the state folder with --state.\n")
        let elsewhere = try runner.run(["lookup", "1234", "--state", "other"])
        #expect(elsewhere.status == 66)
        #expect(
            elsewhere.standardError
                == "stocktake: No account has a run yet in other; run stocktake run first, "
                + "or give the state folder with --state.\n")
    }

    @Test func aBrokenAccountIsSkippedAndSaidSo() throws {
        runner.write(#"{"central": "central.csv", "rules": {"tagDigits": "six"}}"#, to: "Jobs/acme/account.json")
        let result = try runner.run(["lookup", "c-123"])
        #expect(result.status == 0)
        #expect(result.standardOutput == Self.firstAsset.replacingOccurrences(of: "VT tag\n", with: "CNS number\n"))
        #expect(result.standardError.hasPrefix("stocktake: skipped: Account acme: \"rules.tagDigits\" "))
        let named = try runner.run(["lookup", "c-123", "--account", "acme"])
        #expect(named.status == 78)
    }

    @Test(
        arguments: [
            (["lookup"], "give the ID to look up, or --custodian ID"),
            (["lookup", "1", "--custodian", "jdoe"], "give either an ID or --custodian ID, not both"),
            (["lookup", "SN", "77A"], "give one ID; quote an ID that holds spaces"),
            (["lookup", " "], "the ID to look up is blank"),
            (["lookup", "1", "--shelf", "3"], "unknown option --shelf"),
            (["lookup", "1", "--account", "a", "--account", "b"], "--account is given 2 times; give it once"),
        ])
    func badUsage(arguments: [String], problem: String) throws {
        let result = try runner.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "stocktake: lookup: \(problem). See 'stocktake lookup --help'.\n")
    }

    @Test func anAccountNameThatIsNotAFolderName() throws {
        let result = try runner.run(["lookup", "1", "--account", ".."])
        #expect(result.status == 64)
        #expect(
            result.standardError
                == "stocktake: \"..\" is not an account name: it starts with a dot (hidden names and .. are not "
                + "accounts). Give the name of a folder under Jobs/.\n")
    }

    @Test func anAttachedValueAndAnIDAfterTheDoubleDash() throws {
        let found = try runner.run(["lookup", "--account=vt-nis", "--", "vt-1234"])
        #expect(found.status == 0)
        #expect(found.standardOutput == Self.firstAsset)
        let dashed = try runner.run(["lookup", "--account", "vt-nis", "--", "-h"])
        #expect(dashed.status == 1)
        #expect(dashed.standardOutput == "No asset matches -h in vt-nis.\n")
        #expect(dashed.standardError == "")
    }

    @Test func aMistypedOptionIsNamedWithTheOneMeant() throws {
        let result = try runner.run(["lookup", "1", "--custodain", "jdoe"])
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: lookup: unknown option --custodain; did you mean --custodian? "
                + "See 'stocktake lookup --help'.\n")
    }

    /// In-process: nothing matched is thrown as status 1, not exited with.
    @Test func inProcessNothingMatchedThrowsStatusOne() throws {
        let arguments = try ParsedArguments(
            ["--jobs", runner.path("Jobs"), "--state", runner.path("state"), "--account", "vt-nis", "--", "-h"],
            for: LookupCommand.configuration)
        #expect(throws: CommandExit.nothingMatched) { try LookupCommand.run(arguments) }
        #expect(CommandExit.nothingMatched.status == 1)
    }

    @Test func inProcessUsageErrorsComeFromTheCommand() throws {
        let both = try ParsedArguments(["1", "--custodian", "jdoe"], for: LookupCommand.configuration)
        #expect(
            throws: StocktakeError.usage(
                "lookup: give either an ID or --custodian ID, not both. See 'stocktake lookup --help'.")
        ) { try LookupCommand.run(both) }
    }
}
