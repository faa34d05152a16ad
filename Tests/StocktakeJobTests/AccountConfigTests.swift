import Foundation
import StocktakeCore
import StocktakeJob
import StocktakeSync
import Testing

@Suite("Account configuration: Jobs/<account>/account.json")
struct AccountConfigTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A temporary Jobs folder holding one account with `json` and the files it names.
    final class Jobs {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-\(UUID().uuidString)").path

        func account(_ name: String, _ json: String, files: [String: String] = ["central.csv": "VT Tag\n1\n"])
            -> String
        {
            let folder = (root as NSString).appendingPathComponent(name)
            try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try! json.write(toFile: folder + "/account.json", atomically: true, encoding: .utf8)
            for (file, text) in files {
                let path = (folder as NSString).appendingPathComponent(file)
                try! FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try! text.write(toFile: path, atomically: true, encoding: .utf8)
            }
            return folder
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test(arguments: ["vt-nis", "acme-clinic"])
    func theShippedAccountsAreValid(account: String) throws {
        let folder = Self.repository + "/Jobs/" + account
        #expect(AccountConfig.problems(folder: folder) == [])
        let config = try AccountConfig.load(folder: folder)
        #expect(config.account.text == account)
        #expect(FileManager.default.fileExists(atPath: config.central.location))
    }

    @Test func theClinicUsesItsOwnColumnsDigitsAndPrecedence() throws {
        let config = try AccountConfig.load(folder: Self.repository + "/Jobs/acme-clinic")
        #expect(config.name == "Acme Clinic Network")
        #expect(config.tagDigits == 7)
        #expect(config.cnsDigits == 5)
        #expect(config.columns["Equipment No"] == .field(.vtTag))
        #expect(config.precedence[.room] == FieldPrecedence(["north", "south", "central"]))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("acme-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let request = config.request(
            asOf: InventoryDate(year: 2026, month: 11, day: 20)!, outputDirectory: output, push: false)
        let (result, _) = try ReconcileJob.run(request.reconcile, log: Log(account: "acme-clinic", isEnabled: false))
        let found = result.discrepancies.map { "\($0.code.rawValue) \($0.vtTag?.description ?? "") \($0.value)" }
        #expect(
            found.sorted() == [
                "FIELD_CONFLICT 0100002 WARD 3", "MISSING 0100007 ", "MISSING 0100008 ", "NO_CNS 0100007 ",
                "STALE 0100006 2025-12-01", "UNRECORDED 0100009 ",
            ])
        #expect(result.inputs.allSatisfy { $0.unmapped.isEmpty || $0.file.displayName == "equipment.csv" })
    }

    @Test func unknownKeysWrongTypesAndMissingFilesAreAllReported() {
        let jobs = Jobs()
        let folder = jobs.account(
            "acme",
            """
            {"central": {"provider": "file", "url": "central.csv"}, "colums": {}, "rules": {"tagDigits": "six",
             "maxShrink": 2}, "registers": ["missing.csv"], "push": {"cleaned": "yes", "reprot": "x"}}
            """)
        let problems = AccountConfig.problems(folder: folder).map(\.description)
        #expect(
            problems.contains(
                "Account acme: \"colums\" is not a key stocktake knows. Remove it or check its spelling; the keys are "
                    + "acknowledged, auth, buildings, central, columns, google, limits, name, precedence, push, registers, "
                    + "report, rules, "
                    + "sightings, testFailureMode, timeZone."))
        #expect(
            problems.contains(
                "Account acme: \"push.reprot\" is not a key stocktake knows. Remove it or check its spelling; push "
                    + "takes cleaned, report, normalize, fill, overwrite, fields, addUnrecorded."))
        #expect(
            problems.contains(
                "Account acme: \"rules.tagDigits\" must be a whole number from 1 to 18, not \"six\". Fix the value."))
        #expect(
            problems.contains(
                "Account acme: \"rules.maxShrink\" must be a fraction from 0 to 1, not 2.0. Write 0.2 for 20 %."))
        #expect(
            problems.contains(
                "Account acme: \"push.cleaned\" must be true or false, not \"yes\". Write true or false without quotes."
            ))
        #expect(
            problems.contains(
                "Account acme: \"registers[0]\" names \(folder)/missing.csv, which does not exist. Fix the path "
                    + "(relative to \(folder)) or create the file."))
        #expect(problems.count == 6)
    }

    @Test func theTimeZoneIsReadCheckedAndCarriedWithTheNameToTheRequest() throws {
        let jobs = Jobs()
        let zoned = jobs.account(
            "acme", #"{"name": "Acme <Labs>", "timeZone": "America/New_York", "central": "central.csv"}"#)
        let config = try AccountConfig.load(folder: zoned)
        #expect(config.timeZone.name == "America/New_York")
        let request = config.request(
            asOf: InventoryDate(year: 2026, month: 1, day: 1)!, outputDirectory: "o", push: false)
        #expect(request.reconcile.displayName == "Acme <Labs>")
        #expect(request.reconcile.timeZone.name == "America/New_York")
        #expect(request.reconcile.account == "acme")
        let plain = try AccountConfig.load(folder: jobs.account("plain", #"{"central": "central.csv"}"#))
        #expect(plain.timeZone == .utc)
        #expect(plain.name == "plain")
    }

    @Test(arguments: ["Mars/Olympus_Mons", "../../etc/passwd", "/etc/localtime", "America/New York", ""])
    func anUnknownTimeZoneIsRefusedWithItsFix(zone: String) {
        let jobs = Jobs()
        let folder = jobs.account("acme", #"{"central": "central.csv", "timeZone": "\#(zone)"}"#)
        #expect(
            AccountConfig.problems(folder: folder).map(\.description) == [
                "Account acme: \"timeZone\" names no time zone this machine knows (\"\(zone)\"). Write an IANA name "
                    + "such as \"America/New_York\" or \"Europe/Paris\" (the names of the files under "
                    + "/usr/share/zoneinfo), or leave the key out for UTC."
            ])
    }

    @Test func theFirstProblemIsThrownWithExitStatus78() {
        let jobs = Jobs()
        let folder = jobs.account("acme", #"{"central": "nowhere.csv"}"#)
        #expect(throws: ConfigurationProblem.self) { try AccountConfig.load(folder: folder) }
        do {
            _ = try AccountConfig.load(folder: folder)
        } catch {
            #expect(error.exitStatus.rawValue == 78)
            #expect(error.key == "central")
        }
    }

    @Test(arguments: [
        (
            "not json",
            "Account acme: account.json is not valid JSON. Check its commas, quotes and braces (a JSON validator shows the line)."
        ),
        ("[1]", "Account acme: account.json must be a JSON object. Start it with { and end it with }."),
        (
            "{}",
            "Account acme: \"central\" is missing. Name the central sheet: {\"provider\": \"file\", \"url\": \"central.csv\"}."
        ),
        (
            #"{"central": {"provider": "ftp", "url": "x"}}"#,
            "Account acme: \"central.provider\" is \"ftp\", which stocktake does not know. Use one of file, https, google-sheets, google-drive."
        ),
        (
            #"{"central": "central.csv", "columns": {"Asset #": "tag"}}"#,
            "Account acme: \"columns.Asset #\" maps to \"tag\", which is not a field. Use one of vt_tag, cns_number, serial_number, mac_address, model, description, building, room, mount, custodian, latitude, longitude, last_seen, stock_number, cost, gps or ignore."
        ),
        (
            #"{"central": "central.csv", "push": {"report": "http://files.example.org/r/"}}"#,
            "Account acme: \"push.report\" cannot be used: http://files.example.org/r/ uses plain http, which would send credentials unencrypted. Use https:// (plain http is only allowed to this machine). Give an https:// URL."
        ),
    ])
    func mistakesAreNamedWithTheirFix(json: String, message: String) {
        let jobs = Jobs()
        let folder = jobs.account("acme", json)
        #expect(AccountConfig.problems(folder: folder).map(\.description) == [message])
    }

    @Test func theLimitsOfAnAccountsProcessAndTheMissingShareAreRead() throws {
        let jobs = Jobs()
        let defaults = try AccountConfig.load(folder: jobs.account("plain", #"{"central": "central.csv"}"#))
        #expect(defaults.maxMemoryMB == 4096)
        #expect(defaults.maxMinutes == 60)
        #expect(defaults.maxMissingShare == 0.5)
        let folder = jobs.account(
            "acme",
            #"{"central": "central.csv", "rules": {"maxMemoryMB": 2048, "maxMinutes": 0.05, "maxMissingShare": 0.25}}"#)
        let config = try AccountConfig.load(folder: folder)
        #expect(config.maxMemoryMB == 2048)
        #expect(config.maxMinutes == 0.05)
        #expect(config.maxMissingShare == 0.25)
    }

    @Test func theReadingLimitsAndAllowedRootsAreReadAndReachTheRequest() throws {
        let jobs = Jobs()
        let plainFolder = jobs.account("plain", #"{"central": "central.csv"}"#)
        let defaults = try AccountConfig.load(folder: plainFolder)
        #expect(defaults.maxFieldBytes == 1_048_576)
        #expect(defaults.maxRows == 10_000_000)
        #expect(defaults.allowedRoots == nil)
        let asOf = InventoryDate(year: 2026, month: 11, day: 20)!
        let plain = defaults.request(asOf: asOf, outputDirectory: "/tmp/out", push: false).reconcile
        #expect(plain.rules.limits == ReadLimits(maxFieldBytes: 1_048_576, maxColumns: 16_384, maxRows: 10_000_000))
        // By default: the account folder and the local paths its configuration names.
        #expect(
            plain.allowedRoots
                == AllowedRoots(
                    [plainFolder], named: [plainFolder + "/central.csv", plainFolder + "/acknowledged.csv"]))
        let folder = jobs.account(
            "acme",
            #"{"central": "central.csv", "rules": {"maxFieldBytes": 4096, "maxRows": 500, "allowedRoots": [".", "/srv/share"]}}"#
        )
        let config = try AccountConfig.load(folder: folder)
        let request = config.request(asOf: asOf, outputDirectory: "/tmp/out", push: false).reconcile
        #expect(request.rules.limits == ReadLimits(maxFieldBytes: 4096, maxColumns: 16_384, maxRows: 500))
        #expect(request.allowedRoots == AllowedRoots([folder, "/srv/share"]))
    }

    @Test(arguments: [
        (
            #""maxFieldBytes": 10"#,
            "Account acme: \"rules.maxFieldBytes\" must be a whole number from 1024 to 1073741824, not 10. Fix the "
                + "value."
        ),
        (
            #""maxRows": 0"#,
            "Account acme: \"rules.maxRows\" must be a whole number from 1 to 1000000000, not 0. Fix the value."
        ),
        (
            #""allowedRoots": "/srv""#,
            "Account acme: \"rules.allowedRoots\" must be a list of folder paths in double quotes. Write "
                + "[\".\", \"/srv/share/acme\"]; \".\" is the account's folder."
        ),
        (
            #""maxMemoryMB": 100"#,
            "Account acme: \"rules.maxMemoryMB\" must be a whole number from 256 to 1048576, not 100. Fix the value."
        ),
        (
            #""maxMemoryMB": 2048.5"#,
            "Account acme: \"rules.maxMemoryMB\" must be a whole number from 256 to 1048576, not 2048.5. Fix the value."
        ),
        (
            #""maxMinutes": -5"#,
            "Account acme: \"rules.maxMinutes\" must be a number of minutes above 0 and at most 10080 (a week), "
                + "not -5.0. Write 60 for an hour; 0.5 is 30 seconds."
        ),
        (
            #""maxMinutes": 20000"#,
            "Account acme: \"rules.maxMinutes\" must be a number of minutes above 0 and at most 10080 (a week), "
                + "not 20000.0. Write 60 for an hour; 0.5 is 30 seconds."
        ),
        (
            #""maxMinutes": "an hour""#,
            "Account acme: \"rules.maxMinutes\" must be a number, not \"an hour\". Fix the value."
        ),
        (
            #""maxMissingShare": 1.5"#,
            "Account acme: \"rules.maxMissingShare\" must be a fraction from 0 to 1, not 1.5. Write 0.5 for 50 %."
        ),
    ])
    func limitsOutOfRangeAreNamedWithTheirFix(rule: String, message: String) {
        let jobs = Jobs()
        let folder = jobs.account("acme", #"{"central": "central.csv", "rules": {"# + rule + "}}")
        #expect(AccountConfig.problems(folder: folder).map(\.description) == [message])
    }

    @Test func zeroAndOneAreNumbersAndTrueAndFalseAreFlags() throws {
        let jobs = Jobs()
        let zero = try AccountConfig.load(
            folder: jobs.account(
                "zero", #"{"central": "central.csv", "rules": {"maxShrink": 0, "tagDigits": 1, "maxMissingShare": 1}}"#)
        )
        #expect(zero.maxShrink == 0)
        #expect(zero.tagDigits == 1)
        #expect(zero.maxMissingShare == 1)
        let folder = jobs.account(
            "acme", #"{"central": "central.csv", "push": {"cleaned": 1}, "rules": {"keepRuns": true}}"#)
        #expect(
            AccountConfig.problems(folder: folder).map(\.description) == [
                "Account acme: \"rules.keepRuns\" must be a whole number from 1 to 10000, not true. Fix the value.",
                "Account acme: \"push.cleaned\" must be true or false, not 1. Write true or false without quotes.",
            ])
    }

    @Test func thePushOptionsAreRead() throws {
        let jobs = Jobs()
        let defaults = try AccountConfig.load(folder: jobs.account("plain", #"{"central": "central.csv"}"#))
        #expect(defaults.writeBack == WriteBackOptions())
        let config = try AccountConfig.load(
            folder: jobs.account(
                "acme",
                #"""
                {"central": "central.csv", "push": {"cleaned": true, "normalize": false, "fill": false,
                 "overwrite": true, "fields": ["room", "custodian"], "addUnrecorded": true}}
                """#))
        #expect(
            config.writeBack
                == WriteBackOptions(
                    normalize: false, fill: false, overwrite: true, fields: [.room, .custodian], addUnrecorded: true))
        #expect(
            config.request(asOf: InventoryDate.today(), outputDirectory: "out", push: true).reconcile.writeBack
                == config.writeBack)
        let bad = jobs.account("bad", #"{"central": "central.csv", "push": {"fields": ["room", "colour"]}}"#)
        #expect(
            AccountConfig.problems(folder: bad).map(\.description) == [
                "Account bad: \"push.fields\" names \"colour\", which is not a field. Use some of "
                    + CanonicalField.allCases.map(\.rawValue).joined(separator: ", ") + "."
            ])
    }

    @Test func aMissingAccountFileAndABadFolderName() {
        let jobs = Jobs()
        let empty = (jobs.root as NSString).appendingPathComponent("empty")
        try? FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(
            AccountConfig.problems(folder: empty).map(\.description) == [
                "Account empty: account.json is missing from \(empty). Create it (stocktake init empty writes a commented start)."
            ])
        let odd = jobs.account("bad name", #"{"central": "central.csv"}"#)
        #expect(
            AccountConfig.problems(folder: odd).map(\.description) == [
                "Account bad name: account.json is in a folder whose name may only hold letters, digits, '-', '_' and '.'. Rename the folder under Jobs/."
            ])
    }

    @Test func pathsAreRelativeToTheAccountFolderAndURLsStayAsTheyAre() throws {
        let jobs = Jobs()
        let folder = jobs.account(
            "acme",
            """
            {"central": {"provider": "https", "url": "dav.example.org/acme/central.csv"},
             "sightings": ["scans/", "gsheets:1AbC"], "auth": {"tokenFile": "secrets/token"},
             "push": {"cleaned": true, "report": "https://files.example.org/reports/acme/"}}
            """,
            files: ["scans/a.csv": "Tag\n1\n", "secrets/token": "t"])
        let config = try AccountConfig.load(folder: folder)
        #expect(config.central == .init(provider: "https", location: "dav.example.org/acme/central.csv"))
        #expect(config.sightings == [SourceEntry(folder + "/scans/"), "gsheets:1AbC"])
        #expect(config.connection.tokenFile == folder + "/secrets/token")
        let request = config.request(
            asOf: InventoryDate(year: 2026, month: 1, day: 1)!, outputDirectory: "/tmp/o", push: true)
        #expect(request.push)
        #expect(request.centralProvider == "https")
        #expect(request.reportTo?.description == "https://files.example.org/reports/acme/")
        #expect(
            !config.request(asOf: InventoryDate(year: 2026, month: 1, day: 1)!, outputDirectory: "/tmp/o", push: false)
                .push)
    }

    @Test func aSourceMayNameItsSheetEveryVisibleSheetOrItsEncoding() throws {
        let jobs = Jobs()
        let folder = jobs.account(
            "acme",
            """
            {"central": {"provider": "file", "url": "central.xlsx", "sheet": "Assets"},
             "sightings": [{"path": "scans.xlsx", "sheet": "APs"}, {"path": "scans/", "sheets": "all"}],
             "registers": [{"path": "legacy.csv", "encoding": "Latin-1"}, {"url": "gsheets:1AbC", "sheet": "Tags"}]}
            """,
            files: ["central.xlsx": "x", "scans.xlsx": "x", "scans/a.csv": "Tag\n1\n", "legacy.csv": "Tag\n1\n"])
        let config = try AccountConfig.load(folder: folder)
        #expect(config.central.sheet == "Assets")
        #expect(
            config.sightings == [
                SourceEntry(folder + "/scans.xlsx", sheets: .named("APs")),
                SourceEntry(folder + "/scans/", sheets: .all),
            ])
        #expect(
            config.registers == [
                SourceEntry(folder + "/legacy.csv", encoding: .windows1252),
                SourceEntry("gsheets:1AbC", sheets: .named("Tags")),
            ])
        let request = config.request(
            asOf: InventoryDate(year: 2026, month: 1, day: 1)!, outputDirectory: "/tmp/o", push: false)
        #expect(request.reconcile.centralSheet == .named("Assets"))
        let files = try ReconcileJob.expand(config.registers[0], role: .register)
        #expect(files == [SourceFile(path: folder + "/legacy.csv", role: .register, encoding: .windows1252)])
    }

    @Test(arguments: [
        (
            #"{"sightings": [{"path": "a.csv", "encoding": "ebcdic"}]}"#,
            "Account acme: \"sightings[0].encoding\" is not an encoding stocktake reads. Write one of \"utf-8\", \"windows-1252\" (or \"cp1252\", \"latin-1\", \"iso-8859-1\"), \"utf-16\" (\"utf-16le\") and \"utf-16be\", or leave it out to decide from each file."
        ),
        (
            #"{"sightings": [{"path": "a.csv", "sheet": "APs", "sheets": "all"}]}"#,
            "Account acme: \"sightings[0]\" has both \"sheet\" and \"sheets\". Keep \"sheet\" for one sheet, or \"sheets\": \"all\"."
        ),
        (
            #"{"sightings": [{"path": "a.csv", "sheets": "some"}]}"#,
            "Account acme: \"sightings[0].sheets\" can only be \"all\". Write \"sheets\": \"all\" to read every visible sheet, or \"sheet\": \"APs\" for one."
        ),
        (
            #"{"sightings": [{"sheet": "APs"}]}"#,
            "Account acme: \"sightings[0]\" needs a \"path\" (or \"url\") string. Write {\"path\": \"assets.xlsx\", \"sheet\": \"APs\"}."
        ),
        (
            #"{"sightings": [{"path": "a.csv", "tab": "APs"}]}"#,
            "Account acme: \"sightings[0].tab\" is not a key stocktake knows. Remove it or check its spelling; a source takes path, url, sheet, sheets, encoding."
        ),
    ])
    func sourceObjectMistakesAreNamedWithTheirFix(json: String, message: String) {
        let jobs = Jobs()
        let body = json.replacingOccurrences(of: "{\"sightings\"", with: "{\"central\": \"central.csv\", \"sightings\"")
        let folder = jobs.account("acme", body, files: ["central.csv": "VT Tag\n1\n", "a.csv": "Tag\n1\n"])
        #expect(AccountConfig.problems(folder: folder).map(\.description) == [message])
    }

    @Test func anAccountMayReorderTheIdentifiersAfterTheTag() throws {
        let jobs = Jobs()
        let folder = jobs.account(
            "acme",
            #"{"central": "central.csv", "rules": {"identifierOrder": ["vt_tag", "mac_address", "serial_number", "cns_number"]}}"#
        )
        let config = try AccountConfig.load(folder: folder)
        #expect(config.identifierOrder == [.macAddress, .serialNumber, .cnsNumber])
        let request = config.request(
            asOf: InventoryDate(year: 2026, month: 1, day: 1)!, outputDirectory: "/tmp/o", push: false)
        #expect(request.reconcile.rules.fallbackIdentifiers == [.macAddress, .serialNumber, .cnsNumber])
        let bad = jobs.account(
            "bad", #"{"central": "central.csv", "rules": {"identifierOrder": ["serial_number", "vt_tag"]}}"#)
        #expect(
            AccountConfig.problems(folder: bad).map(\.description) == [
                "Account bad: \"rules.identifierOrder\" must name serial_number, mac_address and cns_number once each, "
                    + "optionally after vt_tag (which always comes first), not [\"serial_number\", \"vt_tag\"]. Write for "
                    + "example [\"vt_tag\", \"mac_address\", \"serial_number\", \"cns_number\"]."
            ])
    }
}

extension AccountConfigTests {
    @Test func testFailureModeListsTheKindsTheAccountRehearses() throws {
        let jobs = Jobs()
        let folder = jobs.account("acme", #"{"central": "central.csv", "testFailureMode": ["lock", "push", "push"]}"#)
        #expect(try AccountConfig.load(folder: folder).testFailureMode == [.push, .lock])
        let plain = jobs.account("beta", #"{"central": "central.csv"}"#)
        #expect(try AccountConfig.load(folder: plain).testFailureMode == [])
    }

    @Test func testFailureModeThatIsNotAListOfKindsIsAProblem() {
        let jobs = Jobs()
        let unknown = jobs.account("acme", #"{"central": "central.csv", "testFailureMode": ["push", "fire"]}"#)
        #expect(
            AccountConfig.problems(folder: unknown).map(\.description) == [
                "Account acme: \"testFailureMode\" names \"fire\", which is not a failure stocktake can simulate. "
                    + "Use some of pull, push, upload, token, timeout, disk-full, lock, or remove the key."
            ])
        let text = jobs.account("beta", #"{"central": "central.csv", "testFailureMode": "push"}"#)
        #expect(
            AccountConfig.problems(folder: text).map(\.description) == [
                "Account beta: \"testFailureMode\" must be a list of failures to simulate, not \"push\". Write for "
                    + "example [\"push\"], or remove the key."
            ])
        #expect(AccountConfig.problems(folder: text).allSatisfy { $0.exitStatus == .configuration })
    }
}
