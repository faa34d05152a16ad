import Foundation
import StocktakeCore
import Testing

@testable import stocktake

/// `stocktake check`: the table, and the exit status that tells cron whether tonight's run would work.
struct CheckCommandTests {
    let runner = CommandRunner()

    static let token = "tok-cli-SECRET-never-shown"

    /// Writes the account `acme` under `Jobs/` with `sightings` and a token file of `tokenMode`.
    func account(sightings: String = "scans/", tokenMode: Int16 = 0o600) {
        runner.write("VT Tag,Serial\n123456,SN1\n", to: "Jobs/acme/central.csv")
        runner.write("Asset #,Room\n123456,101\n", to: "Jobs/acme/scans/north.csv")
        let token = runner.write(Self.token + "\n", to: "Jobs/acme/secrets/token")
        chmod(token, mode_t(tokenMode))
        runner.write(
            """
            {"central": {"provider": "file", "url": "central.csv"}, "sightings": ["\(sightings)"],
             "columns": {"Asset #": "vt_tag"}, "auth": {"tokenFile": "secrets/token"}}
            """, to: "Jobs/acme/account.json")
    }

    @Test func aGoodAccountPrintsEveryCheckAndExitsZero() throws {
        account()
        let result = try runner.run(["check"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == """
                ACCOUNT  ITEM            RESULT  DETAIL
                acme     account.json    OK      valid
                acme     auth.tokenFile  OK      Jobs/acme/secrets/token is readable by its owner only
                acme     central         OK      Jobs/acme/central.csv: 1 row
                acme     sightings[0]    OK      Jobs/acme/scans/: 1 sheet, 1 row
                acme     columns         OK      every mapped column is in a sheet (1 column)
                1 account, 5 checks: 5 OK, 0 FAIL.

                """)
        #expect(result.standardError == "")
    }

    @Test func aTokenFileOthersCanReadExits78() throws {
        account(tokenMode: 0o644)
        let result = try runner.run(["check", "--account", "acme"])
        #expect(result.status == 78)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.contains("FAIL ") } == [
                "acme     auth.tokenFile  FAIL    Account acme: the secrets file Jobs/acme/secrets/token can be read "
                    + "by others (mode 644); run chmod 600 Jobs/acme/secrets/token."
            ])
        #expect(lines.last == "1 account, 5 checks: 4 OK, 1 FAIL.")
    }

    @Test func anUnreachableServerExits69AndNeverPrintsTheToken() throws {
        account(sightings: "https://127.0.0.1:9/scans.csv")
        let result = try runner.run(["check", "--jobs", "Jobs"])
        #expect(result.status == 69)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let failed = lines.filter { $0.contains("FAIL ") }
        #expect(failed.count == 1)
        #expect(
            failed.first?.hasPrefix(
                "acme     sightings[0]    FAIL    Account acme: https://127.0.0.1:9/scans.csv could not be reached (")
                == true)
        #expect(lines.last == "1 account, 4 checks: 3 OK, 1 FAIL.")
        #expect(!result.standardOutput.contains(Self.token) && !result.standardError.contains(Self.token))
    }

    @Test func onlyTheNamedAccountsAreChecked() throws {
        account()
        runner.write("{}", to: "Jobs/broken/account.json")
        let all = try runner.run(["check"])
        #expect(all.status == 78)
        #expect(
            all.standardOutput.contains(
                "broken   central         FAIL    is missing. Name the central sheet: {\"provider\": \"file\", "
                    + "\"url\": \"central.csv\"}.\n"))
        let one = try runner.run(["check", "--account=acme"])
        #expect(one.status == 0)
        #expect(!one.standardOutput.contains("broken"))
    }

    @Test func aMissingJobsFolderExits66() throws {
        let result = try runner.run(["check", "--jobs", "nowhere"])
        #expect(result.status == 66)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "stocktake: nowhere: no such jobs folder. Check the path, or create it.\n")
    }

    @Test(arguments: [
        (["check", "--frob"], "stocktake: check: unknown option --frob. See 'stocktake check --help'.\n"),
        (["check", "acme"], "stocktake: check: unexpected argument acme. See 'stocktake check --help'.\n"),
        (["check", "--jobs"], "stocktake: check: --jobs needs a value. See 'stocktake check --help'.\n"),
    ])
    func badUsageExits64(arguments: [String], message: String) throws {
        let result = try runner.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardError == message)
    }

    @Test func repeatedAccountsAndAttachedValues() throws {
        account()
        let result = try runner.run(["check", "--jobs=Jobs", "--account=acme", "--account", "acme"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasSuffix("1 account, 5 checks: 5 OK, 0 FAIL.\n"), "acme is checked once")
    }

    /// In-process: a failed check throws its exit status instead of exiting.
    @Test func inProcessABrokenAccountThrows78() throws {
        runner.write(#"{"central": "nowhere.csv", "colour": "red"}"#, to: "Jobs/broken/account.json")
        let arguments = try ParsedArguments(["--jobs", runner.path("Jobs")], for: CheckCommand.configuration)
        #expect(throws: CommandExit(.configuration)) { try CheckCommand.run(arguments) }
        let missing = try ParsedArguments(["--jobs", runner.path("nowhere")], for: CheckCommand.configuration)
        #expect(throws: StocktakeError.missingInput(path: runner.path("nowhere"), what: "jobs folder")) {
            try CheckCommand.run(missing)
        }
    }
}
