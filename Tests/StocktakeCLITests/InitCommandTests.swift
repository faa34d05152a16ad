import Foundation
import StocktakeJob
import Testing

@testable import stocktake

/// `stocktake init`: a starting account that passes `stocktake check` as it is.
struct InitCommandTests {
    let runner = CommandRunner()

    @Test func writesAnAccountThatPassesTheCheck() throws {
        let result = try runner.run(["init", "acme"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == """
                Wrote Jobs/acme: account.json, central.csv, README.md and secrets/ (mode 0700).
                Next: edit Jobs/acme/account.json, then run 'stocktake check --account acme'.

                """)
        #expect(result.standardError == "")
        #expect(runner.read("Jobs/acme/README.md")?.hasPrefix("# Account acme\n") == true)
        #expect(runner.read("Jobs/acme/account.json")?.contains("\"url\": \"central.csv\"") == true)
        var information = stat()
        #expect(stat(runner.path("Jobs/acme/secrets"), &information) == 0)
        #expect(information.st_mode & 0o777 == 0o700)
        let check = try runner.run(["check", "--account", "acme"])
        #expect(check.status == 0)
        #expect(
            check.standardOutput == """
                ACCOUNT  ITEM          RESULT  DETAIL
                acme     account.json  OK      valid
                acme     central       OK      Jobs/acme/central.csv: 0 rows
                1 account, 2 checks: 2 OK, 0 FAIL.

                """)
    }

    @Test func anotherJobsFolderIsNamedInTheNextStep() throws {
        let result = try runner.run(["init", "--jobs", "accounts", "acme"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput.hasSuffix(
                "Next: edit accounts/acme/account.json, then run 'stocktake check --jobs accounts --account acme'.\n"))
        #expect(runner.read("accounts/acme/central.csv") != nil)
    }

    @Test func anExistingAccountIsNeverOverwritten() throws {
        runner.write("{\"name\": \"mine\"}", to: "Jobs/acme/account.json")
        let result = try runner.run(["init", "acme"])
        #expect(result.status == 73)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: init: Jobs/acme already exists, and init never overwrites an account. Choose another "
                + "name, or edit Jobs/acme/account.json.\n")
        #expect(runner.read("Jobs/acme/account.json") == "{\"name\": \"mine\"}")
    }

    @Test(arguments: [
        (
            ["init", "../etc"],
            "stocktake: init: \"../etc\" cannot be an account name: it starts with a dot (hidden names and .. are not "
                + "accounts). Use letters, digits, '-', '_' and '.', such as acme-clinic.\n"
        ),
        (
            ["init", "a/b"],
            "stocktake: init: \"a/b\" cannot be an account name: it contains a slash. Use letters, digits, '-', '_' "
                + "and '.', such as acme-clinic.\n"
        ),
        (["init"], "stocktake: init: give the new account's NAME. See 'stocktake init --help'.\n"),
        (["init", "a", "b"], "stocktake: init: give one NAME, not 2. See 'stocktake init --help'.\n"),
        (["init", "--force", "a"], "stocktake: init: unknown option --force. See 'stocktake init --help'.\n"),
    ])
    func badNamesAndUsageExit64(arguments: [String], message: String) throws {
        let result = try runner.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError == message)
        #expect(!FileManager.default.fileExists(atPath: runner.path("Jobs")))
    }

    /// In-process: the command writes the account and throws, rather than exits, when the folder exists.
    @Test func inProcessInitWritesAndThenRefusesToOverwrite() throws {
        let jobs = runner.path("Elsewhere")
        try InitCommand.run(ParsedArguments(["acme", "--jobs=\(jobs)"], for: InitCommand.configuration))
        #expect(runner.read("Elsewhere/acme/README.md")?.hasPrefix("# Account acme\n") == true)
        runner.write("mine\n", to: "Elsewhere/acme/README.md")
        #expect(throws: AccountTemplateError.exists(folder: jobs + "/acme")) {
            try InitCommand.run(ParsedArguments(["acme", "--jobs", jobs], for: InitCommand.configuration))
        }
        #expect(runner.read("Elsewhere/acme/README.md") == "mine\n", "the existing account is left alone")
    }
}
