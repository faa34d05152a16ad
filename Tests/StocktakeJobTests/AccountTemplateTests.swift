import Foundation
import StocktakeCore
import StocktakeJob
import Testing

@Suite("stocktake init: a commented starting account")
struct AccountTemplateTests {
    let root = TemporaryStateRoot()

    var jobs: String { root.path + "/Jobs" }

    @Test func writesTheConfigurationTheExampleCentralSheetTheReadmeAndAPrivateSecretsFolder() throws {
        let folder = try AccountTemplate.write(name: "acme", jobs: jobs)
        #expect(folder == jobs + "/acme")
        let contents = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(contents == ["README.md", "account.json", "central.csv", "secrets"])
        #expect(TemporaryStateRoot.mode(of: folder + "/secrets") == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/secrets") == [])
        let central = try String(contentsOfFile: folder + "/central.csv", encoding: .utf8)
        #expect(
            central
                == "vt_tag,cns_number,serial_number,mac_address,model,description,building,room,mount,custodian,"
                + "latitude,longitude,last_seen,stock_number,cost\n")
        let readme = try String(contentsOfFile: folder + "/README.md", encoding: .utf8)
        #expect(readme == AccountTemplate.readme(for: AccountName("acme")!))
        #expect(readme.hasPrefix("# Account acme\n"))
        #expect(readme.contains("\n    stocktake check --account acme\n"))
        #expect(readme.contains("\n    printf '%s\\n' 'THE-TOKEN' > secrets/token\n    chmod 600 secrets/token\n"))
        for key in AccountConfig.keys.flatMap({ key, inner in inner.isEmpty ? [key] : inner.map { "\(key).\($0)" } }) {
            #expect(readme.contains("`\(key)`"), "the README explains \(key)")
        }
    }

    @Test func theWrittenAccountLoadsWithEveryDefaultAndPassesTheCheck() throws {
        let folder = try AccountTemplate.write(name: "acme", jobs: jobs)
        #expect(AccountConfig.problems(folder: folder) == [])
        let config = try AccountConfig.load(folder: folder)
        #expect(config.account.text == "acme")
        #expect(config.name == "acme")
        #expect(config.central == AccountConfig.Source(provider: "file", location: folder + "/central.csv"))
        #expect(config.sightings == [] && config.registers == [] && config.buildings == nil)
        #expect(config.columns.isEmpty && config.precedence.isEmpty)
        let rules: [Int] = [config.tagDigits, config.cnsDigits, config.staleAfterDays, config.keepRuns]
        #expect(rules == [6, 6, 365, 30])
        #expect(config.maxShrink == 0.2)
        #expect(config.maxMissingShare == 0.5)
        #expect(config.maxMemoryMB == 4096)
        #expect(config.maxMinutes == 60)
        #expect(config.connection.tokenVariable == "STOCKTAKE_TOKEN_ACME")
        #expect(config.connection.limits.connectTimeoutSeconds == 20)
        #expect(config.connection.limits.totalTimeoutSeconds == 300)
        #expect(config.connection.limits.maximumDownloadBytes == 512 << 20)
        #expect(config.pushCleaned == false && config.reportTo == nil)
        let results = AccountCheck.check(folder: folder)
        #expect(
            results == [
                CheckResult(account: "acme", item: "account.json", status: .success, detail: "valid"),
                CheckResult(
                    account: "acme", item: "central", status: .success, detail: folder + "/central.csv: 0 rows"),
            ])
    }

    @Test func everyKeyIsWrittenWithItsComment() throws {
        let text = AccountTemplate.configuration(for: AccountName("acme")!)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let keys = Set(object.keys.filter { !$0.hasPrefix("_") })
        // buildings needs an existing file and push.report an address, so they are explained but not set.
        #expect(keys == Set(AccountConfig.keys.keys).subtracting(["buildings"]))
        for key in AccountConfig.keys.keys.filter({ $0 != "name" }) {
            #expect(object["_comment_\(key)"] != nil, "\(key) has a comment")
        }
        #expect(object["buildings"] == nil)
        // Every rule is written at its default, as a number the reader takes as it is.
        let rules = try #require(object["rules"] as? [String: Any])
        // allowedRoots is computed from the paths the account names, and reportGroup's default is the state folder's
        // group, which is not known when the account is written, so both are explained but not set.
        #expect(
            Set(rules.keys)
                == Set(AccountConfig.keys["rules"]!).subtracting(["identifierOrder", "allowedRoots", "reportGroup"]))
        #expect(text.contains(#""maxMissingShare": 0.5, "keepRuns": 30, "maxMemoryMB": 4096,"#))
        #expect(text.contains(#""maxMinutes": 60, "maxFieldBytes": 1048576, "maxRows": 10000000"#))
    }

    @Test func keysStartingWithAnUnderscoreAreComments() throws {
        let folder = jobs + "/acme"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "VT Tag\n123456\n".write(toFile: folder + "/central.csv", atomically: true, encoding: .utf8)
        try """
        {"_comment": ["any", 1], "central": "central.csv", "rules": {"_why": "seven", "tagDigits": 7},
         "columns": {"_note": "not a field", "Asset #": "vt_tag"}, "precedence": {"_note": 3},
         "auth": {"_comment": {}}}
        """.write(toFile: folder + "/account.json", atomically: true, encoding: .utf8)
        #expect(AccountConfig.problems(folder: folder) == [])
        let config = try AccountConfig.load(folder: folder)
        #expect(config.tagDigits == 7)
        #expect(config.columns == ["Asset #": .field(.vtTag)])
        #expect(config.precedence.isEmpty)
    }

    @Test(arguments: [
        ("../etc", "starts with a dot (hidden names and .. are not accounts)"),
        (".hidden", "starts with a dot (hidden names and .. are not accounts)"),
        ("a/b", "contains a slash"),
        ("", "is empty"),
        ("two words", "may only hold letters, digits, '-', '_' and '.'"),
    ])
    func refusesNamesThatCannotBeAccounts(name: String, problem: String) throws {
        #expect(throws: AccountTemplateError.invalidName(name: name, problem: problem)) {
            try AccountTemplate.write(name: name, jobs: jobs)
        }
        // Refused before anything is made, not even the jobs folder.
        #expect(!FileManager.default.fileExists(atPath: jobs))
        #expect(
            AccountTemplateError.invalidName(name: name, problem: problem).description
                == "init: \"\(name)\" cannot be an account name: it \(problem). "
                + "Use letters, digits, '-', '_' and '.', such as acme-clinic.")
        #expect(AccountTemplateError.invalidName(name: name, problem: problem).exitStatus == .usage)
    }

    @Test func refusesAnExistingFolderAndLeavesItAlone() throws {
        let folder = jobs + "/acme"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "{}".write(toFile: folder + "/account.json", atomically: true, encoding: .utf8)
        #expect(throws: AccountTemplateError.exists(folder: folder)) {
            try AccountTemplate.write(name: "acme", jobs: jobs)
        }
        #expect(try String(contentsOfFile: folder + "/account.json", encoding: .utf8) == "{}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["account.json"])
        #expect(
            AccountTemplateError.exists(folder: folder).description
                == "init: \(folder) already exists, and init never overwrites an account. "
                + "Choose another name, or edit \(folder)/account.json.")
        #expect(AccountTemplateError.exists(folder: folder).exitStatus == .cannotCreate)
    }

    @Test func aJobsFolderThatCannotBeMadeIsACleanError() throws {
        #expect(
            AccountTemplateError.cannotWrite(path: "Jobs/acme", reason: "permission denied").description
                == "init: cannot create Jobs/acme: permission denied. Check that the jobs folder is writable and "
                + "the disk is not full.")
        #expect(AccountTemplateError.cannotWrite(path: "Jobs/acme", reason: "").exitStatus == .cannotCreate)
        // A file where the jobs folder should be: the account folder cannot be made under it, whoever runs this.
        try FileManager.default.createDirectory(atPath: root.path, withIntermediateDirectories: true)
        try "".write(toFile: jobs, atomically: true, encoding: .utf8)
        #expect(throws: AccountTemplateError.cannotWrite(path: jobs, reason: "the jobs folder cannot be made")) {
            try AccountTemplate.write(name: "acme", jobs: jobs)
        }
    }
}
