import Foundation
import StocktakeCore
import StocktakeJob
import StocktakeSync
import Testing

@Suite("stocktake check: would tonight's run work for each account")
struct AccountCheckTests {
    static let token = "tok-3f9a-SECRET-never-shown"

    let root = TemporaryStateRoot()

    var jobs: String { root.path + "/Jobs" }

    /// A working account `acme` (a central file, a folder of scans, a register, a buildings table, a mapped
    /// column and a private token file), with `change` applied to its `account.json` text.
    @discardableResult
    func account(tokenMode: mode_t = 0o600, change: (String) -> String = { $0 }) throws -> String {
        let folder = jobs + "/acme"
        let files = [
            "central.csv": "VT Tag,Serial,Building\n123456,SN1,TORG\n123457,SN2,TORG\n",
            "scans/north.csv": "Asset #,Room\n123456,101\n",
            "scans/notes.txt": "not a sheet",
            "registers/cns.csv": "VT Tag,CNS\n123456,654321\n",
            "buildings.csv": "code,name\nTORG,Torgersen Hall\n",
            "secrets/token": Self.token + "\n",
        ]
        for (name, text) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        chmod(folder + "/secrets/token", tokenMode)
        let json = """
            {"name": "Acme", "central": {"provider": "file", "url": "central.csv"}, "sightings": ["scans/"],
             "registers": ["registers/cns.csv"], "buildings": "buildings.csv", "columns": {"Asset #": "vt_tag"},
             "auth": {"tokenFile": "secrets/token"}}
            """
        try change(json).write(toFile: folder + "/account.json", atomically: true, encoding: .utf8)
        return folder
    }

    func results(_ results: [CheckResult]) -> [String] {
        results.map { "\($0.item) \($0.ok ? "OK" : "FAIL") \($0.detail)" }
    }

    @Test func aGoodAccountPassesEveryCheck() throws {
        let folder = try account()
        let found = AccountCheck.check(jobs: jobs)
        #expect(
            results(found) == [
                "account.json OK valid",
                "auth.tokenFile OK \(folder)/secrets/token is readable by its owner only",
                "buildings OK 1 building",
                "central OK \(folder)/central.csv: 2 rows",
                "sightings[0] OK \(folder)/scans/: 1 sheet, 1 row",
                "registers[0] OK \(folder)/registers/cns.csv: 1 row",
                "columns OK every mapped column is in a sheet (1 column)",
            ])
        #expect(found.allSatisfy { $0.account == "acme" && $0.status == .success })
        #expect(AccountCheck.exitStatus(found) == .success)
        #expect(AccountCheck.check(folder: folder) == found)
    }

    @Test func aTokenFileOthersCanReadFails() throws {
        let folder = try account(tokenMode: 0o644)
        let found = AccountCheck.check(folder: folder)
        let path = folder + "/secrets/token"
        #expect(
            found.filter { !$0.ok } == [
                CheckResult(
                    account: "acme", item: "auth.tokenFile", status: .configuration,
                    detail: "Account acme: the secrets file \(path) can be read by others (mode 644); "
                        + "run chmod 600 \(path).")
            ])
        #expect(AccountCheck.exitStatus(found) == .configuration)
    }

    @Test func aMissingCentralFileFails() throws {
        let folder = try account()
        try FileManager.default.removeItem(atPath: folder + "/central.csv")
        let found = AccountCheck.check(folder: folder)
        #expect(
            found == [
                CheckResult(
                    account: "acme", item: "central", status: .configuration,
                    detail: "names \(folder)/central.csv, which does not exist. Fix the path (relative to \(folder)) "
                        + "or create the file.")
            ])
        #expect(AccountCheck.exitStatus(found) == .configuration)
    }

    @Test func aCentralSheetWithoutATagColumnFails() throws {
        let folder = try account()
        try "Name,Room\nx,1\n".write(toFile: folder + "/central.csv", atomically: true, encoding: .utf8)
        let found = AccountCheck.check(folder: folder)
        #expect(
            results(found.filter { !$0.ok }) == [
                "central FAIL \(folder)/central.csv: the central sheet has no VT tag column (its columns are "
                    + "\"Name\", \"Room\"). Map the tag column in \"columns\", for example {\"Asset #\": \"vt_tag\"}."
            ])
    }

    /// A link in the scans folder to a sheet outside the account is refused as tonight's run refuses it: unread.
    @Test func aLinkLeadingOutsideTheAccountFails() throws {
        let folder = try account()
        let secret = root.path + "/secret.csv"
        try "Asset #,Room\n999999,TOP-SECRET\n".write(toFile: secret, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/scans/south.csv", withDestinationPath: secret)
        let real = try #require(realpath(secret, nil))
        defer { free(real) }
        let found = AccountCheck.check(folder: folder)
        #expect(
            results(found.filter { !$0.ok }) == [
                "sightings[0] FAIL \(folder)/scans/south.csv: it leads to \(String(cString: real)), outside the "
                    + "folders the account may read (rules.allowedRoots: \(folder), \(folder)/central.csv, "
                    + "\(folder)/scans/, \(folder)/registers/cns.csv, \(folder)/buildings.csv, "
                    + "\(folder)/acknowledged.csv), so it is not read. "
                    + "Replace the link with the file itself, or add its folder to rules.allowedRoots in the "
                    + "account's account.json."
            ])
        #expect(!found.contains { $0.detail.contains("TOP-SECRET") })
    }

    @Test func aMappedColumnNoSheetHasFails() throws {
        let folder = try account {
            $0.replacingOccurrences(
                of: "\"Asset #\": \"vt_tag\"", with: "\"Asset #\": \"vt_tag\", \"Asset No\": \"vt_tag\"")
        }
        let found = AccountCheck.check(folder: folder)
        #expect(
            found.filter { !$0.ok } == [
                CheckResult(
                    account: "acme", item: "columns.Asset No", status: .configuration,
                    detail: "column \"Asset No\" is in the mapping but in no sheet. "
                        + "Check its spelling against the sheets' headers, or remove it.")
            ])
        #expect(AccountCheck.exitStatus(found) == .configuration)
    }

    @Test func configurationProblemsAreEachALine() throws {
        let folder = try account {
            $0.replacingOccurrences(of: "\"name\": \"Acme\"", with: "\"name\": \"Acme\", \"rules\": {\"tagDigits\": 0}")
                .replacingOccurrences(of: "\"scans/\"", with: "\"missing/\", \"scans/\"")
        }
        let found = AccountCheck.check(folder: folder)
        #expect(
            results(found) == [
                "sightings[0] FAIL names \(folder)/missing/, which does not exist. Fix the path (relative to "
                    + "\(folder)) or create the file.",
                "rules.tagDigits FAIL must be a whole number from 1 to 18, not 0. Fix the value.",
                "auth.tokenFile OK \(folder)/secrets/token is readable by its owner only",
                "buildings OK 1 building",
                "central OK \(folder)/central.csv: 2 rows",
                "sightings[1] OK \(folder)/scans/: 1 sheet, 1 row",
                "registers[0] OK \(folder)/registers/cns.csv: 1 row",
                "columns OK every mapped column is in a sheet (1 column)",
            ])
    }

    @Test func anUnreachableServerFailsWithTheSyncErrorAndNeverShowsTheToken() throws {
        let folder = try account {
            $0.replacingOccurrences(of: "\"scans/\"", with: "\"https://127.0.0.1:9/scans.csv\"")
        }
        let found = AccountCheck.check(folder: folder)
        let failed = found.filter { !$0.ok }
        #expect(failed.map(\.item) == ["sightings[0]"])
        #expect(failed.map(\.status) == [.unavailable])
        let detail = try #require(failed.first?.detail)
        #expect(detail.hasPrefix("Account acme: https://127.0.0.1:9/scans.csv could not be reached ("))
        #expect(detail.hasSuffix("). Check the address and the network, and try again later."))
        #expect(found.allSatisfy { !$0.detail.contains(Self.token) && !$0.item.contains(Self.token) })
        // A column mapping cannot be judged while a sheet is unread.
        #expect(!found.contains { $0.item.hasPrefix("columns") })
        #expect(AccountCheck.exitStatus(found) == .unavailable)
    }

    @Test func pullFailuresAreSortedIntoServerTroubleAndSettingsToFix() {
        let error = HTTPError.connectionFailed(url: "https://x.example/", reason: "refused")
        #expect(AccountCheck.status(of: .unreachable(account: "a", error: error, phase: .pull)) == .unavailable)
        #expect(
            AccountCheck.status(of: .unavailable(account: "a", url: "u", status: 503, detail: "", phase: .pull))
                == .unavailable)
        #expect(
            AccountCheck.status(of: .notFound(account: "a", url: "u", detail: "", phase: .pull)) == .configuration)
        #expect(
            AccountCheck.status(
                of: .credentialsRejected(account: "a", url: "u", status: 401, detail: "", renewal: "r"))
                == .configuration)
    }

    @Test func badFolderNamesAndMissingAccountsAreReported() throws {
        try account()
        try FileManager.default.createDirectory(atPath: jobs + "/two words", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: jobs + "/.hidden", withIntermediateDirectories: true)
        let found = AccountCheck.check(jobs: jobs).filter { $0.account != "acme" }
        #expect(
            found == [
                CheckResult(
                    account: "two words", item: "account.json", status: .configuration,
                    detail: "the folder name may only hold letters, digits, '-', '_' and '.'. "
                        + "Rename the folder under \(jobs).")
            ])
        let missing = AccountCheck.check(jobs: jobs, accounts: ["nobody"])
        #expect(
            missing == [
                CheckResult(
                    account: "nobody", item: "account.json", status: .configuration,
                    detail: "is missing from \(jobs)/nobody. Create it (stocktake init nobody writes a commented "
                        + "start).")
            ])
    }

    @Test func theTableAlignsItsColumnsAndCounts() {
        let table = AccountCheck.table([
            CheckResult(account: "acme", item: "account.json", status: .success, detail: "valid"),
            CheckResult(account: "vt-nis", item: "central", status: .unavailable, detail: "could not be reached"),
        ])
        #expect(
            table == """
                ACCOUNT  ITEM          RESULT  DETAIL
                acme     account.json  OK      valid
                vt-nis   central       FAIL    could not be reached
                2 accounts, 2 checks: 1 OK, 1 FAIL.

                """)
    }
}
