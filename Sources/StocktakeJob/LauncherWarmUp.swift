import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#endif

/// One small made-up account, run by the account launcher before it forks any account's process, so that every
/// process it forks starts with the Swift runtime's first look-ups already made.
///
/// The first time a process uses a generic type (an array of tuples, a dictionary keyed by an identifier) the
/// runtime builds its metadata from its mangled name and searches the program's conformances for the protocols it
/// needs; each first use of a shared constant runs its initializer once. In a process forked from the launcher that
/// memory is the launcher's: what the launcher has looked up, its forks have too. An account of 100 assets spent
/// about a quarter of its instructions (9.5 million of 41.8 million) on such first times, one of 3,000 assets about
/// 4 % (9.5 million of 257 million).
///
/// The account is run exactly as `stocktake run-account` runs one (`NightlyRun.runAccount`), from made-up sheets in
/// a folder of its own under the temporary folder, which is removed after; nothing is pushed, uploaded or logged,
/// and no real account's folder, state or token is touched. It runs on the launcher's one thread and starts none
/// (`Parallel.withoutThreads`): a process that forks must have no other thread. Texts it reads stay in the
/// process's table of texts (`SharedTexts`), as those of one account stay there for the next in a process that
/// reconciles several; no output depends on them. It is left out when the crash test hooks are on (`KillPoint`),
/// since those read the environment once and the made-up account would reach them first. Whatever goes wrong in
/// it is ignored: an account's process then makes those first look-ups itself, as it would without the warm-up.
enum LauncherWarmUp {
    /// Runs the made-up account in a new folder under `temporaryFolder`, unless `environment` (the launcher's) turns
    /// the crash test hooks on; returns whether it was reconciled.
    @discardableResult
    static func run(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        temporaryFolder: String = NSTemporaryDirectory()
    ) -> Bool {
        guard environment[KillPoint.enablingVariable] == nil else { return false }
        guard let folder = makeFolder(in: temporaryFolder) else { return false }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard writeAccount(into: folder) else { return false }
        let outcome = Parallel.withoutThreads { NightlyRun.runAccount(account, options: options(in: folder)) }
        // The line an account's process ends with is made too, so that its encoder's first look-ups are made here.
        _ = AccountChild.resultLine(outcome)
        return outcome.assets > 0
    }

    /// How the made-up account written into `folder` is run: pushing, uploading and logging nothing.
    static func options(in folder: String) -> NightlyRunOptions {
        var options = NightlyRunOptions()
        options.jobs = folder + "/Jobs"
        options.state = folder + "/state"
        // A fixed day: the made-up account always has the same findings.
        options.asOf = InventoryDate(year: 2026, month: 11, day: 20)!
        options.push = false
        options.logs = false
        return options
    }

    /// The made-up account's name.
    static let account = "warm-up"

    /// The start of the name of the folder the made-up account is run in, under the temporary folder.
    private static let folderPrefix = "stocktake-warm-up-"

    /// A new folder of the launcher's own (mode 700) in `parent`.
    private static func makeFolder(in parent: String) -> String? {
        let path = (parent as NSString).appendingPathComponent(folderPrefix + "XXXXXX")
        var template = Array(path.utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            guard let made = mkdtemp(buffer.baseAddress!) else { return nil }
            return String(cString: made)
        }
    }

    /// Writes the account's configuration and sheets under `folder`: its jobs folder is `folder/Jobs`.
    static func writeAccount(into folder: String) -> Bool {
        let account = folder + "/Jobs/" + Self.account
        let files: [(path: String, text: String)] = [
            (
                "account.json",
                """
                {
                  "name": "Warm-up",
                  "central": { "provider": "file", "url": "\(account)/central.csv" },
                  "sightings": ["\(account)/sightings/"],
                  "registers": ["\(account)/registers/"],
                  "buildings": "\(account)/buildings.csv",
                  "rules": { "tagDigits": 6, "cnsDigits": 6, "staleAfterDays": 365 },
                  "push": { "cleaned": false }
                }

                """
            ),
            ("central.csv", Sheets.central),
            ("buildings.csv", Sheets.buildings),
            ("sightings/survey.csv", Sheets.survey),
            ("sightings/controller.csv", Sheets.controller),
            ("sightings/receiving.tsv", Sheets.receiving),
            ("registers/property_tags.csv", Sheets.propertyTags),
            ("registers/cns_register.csv", Sheets.cnsRegister),
            ("registers/custodians.csv", Sheets.custodians),
            ("registers/billing.csv", Sheets.billing),
            ("registers/legacy.csv", Sheets.legacy),
        ]
        let manager = FileManager.default
        for folder in [account + "/sightings", account + "/registers", folder + "/state"] {
            guard (try? manager.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else {
                return false
            }
        }
        for file in files {
            guard manager.createFile(atPath: account + "/" + file.path, contents: Data(file.text.utf8)) else {
                return false
            }
        }
        return true
    }

    /// The made-up sheets: the columns, spellings and kinds of values that real accounts have (dates in five
    /// spellings and as an Excel serial, MAC addresses in four, a GPS pair, a tab-separated file, a placeholder, a
    /// quoted comma), with a shared serial, an unknown tag, a typo'd tag, a scanned tag one digit off a central tag
    /// no sighting saw (a `POSSIBLE_TYPO` pair), a reused CNS number, a building not in the table and a conflict among
    /// them, so that findings of eleven codes fill the tables and the report.
    enum Sheets {
        static let central = """
            \u{FEFF}VT Tag,CNS #,Serial Number,MAC Address,Model,Description,Building,Room,Mount,Custodian,\
            Last Inventory Date,Stock Number
            952152,C613774,CN7NCQ9T9H,94:b4:0f:fb:8e:c1,AP-515,Aruba AP-515 access point,ABH,355,CEILING,jharlan,\
            9/7/2024,NIS-AP515
            056664,C642976,TWWUNVA5PL,18-64-72-69-3F-E4,AP-635,Aruba AP-635 access point,ABH,412B,ceiling,jharlan,\
            5/19/2025,NIS-AP635
            624005,C600101,SG69AFVCLE,d0d3.e072.2d82,AP-535,"Aruba AP-535, outdoor",WBC,117,wall,adesai,2023-03-02,\
            NIS-AP535
            814293,C600102,CN8L739L0U,D0D3E0F22731,AP-515,Aruba AP-515 access point,DWH,N/A,Ceiling,ukhan,\
            11/2/2025,NIS-AP515
            830001,C600103,CNYLSXZ7E7,d0:d3:e0:44:bb:ba,AP-635,Aruba AP-635 access point,ZZZ,101,ceiling,ukhan,\
            1/15/2026,NIS-AP635
            830002,C600103,CNYLSXZ7E7,not a mac,AP-635,Aruba AP-635 access point,DWH,102A,ceiling,,8/1/2019,

            """

        static let buildings = """
            code,name,latitude,longitude
            ABH,Alder Hall,37.2262,-80.4273
            WBC,Willow Building C,37.2250,-80.4260
            DWH,Dogwood Hall,37.2241,-80.4219

            """

        static let survey = """
            P-Tag,Serial,MAC,Bldg,Room,Mount,Scanned At,GPS
            952152,cn7ncq9t9h,94:b4:0f:fb:8e:c1,ABH,355,ceiling,2026-03-11T07:36:48,"37.226275,-80.427261"
            624005,sg69afvcle,d0:d3:e0:72:2d:82,WBC,117,Wall,7/22/2026,"37.226505,-80.427067"
            999001,CNQQ000001,d0:d3:e0:00:00:01,ALDER HALL,300,ceiling,2026-11-01,"37.2262,-80.4273"
            952125,CN7NCQ9T9H,94:b4:0f:fb:8e:c1,ABH,356,ceiling,2026-11-02,
            830011,,,ZZZ,101,ceiling,2026-11-03,

            """

        static let controller = """
            AP Name,Wired MAC,Serial #,AP Type,Last Seen
            ABH-355-AP01,94B40FFB8EC1,CN7NCQ9T9H,AP-515,2026-11-16 16:16:37
            DWH-101-AP02,d0d3.e0f2.2731,CN8L739L0U,AP-515,2026-11-18 15:35:18

            """

        static let receiving = """
            Part Number\tSerial No\tMAC Addr\tReceived\tPO Number
            AP-635\tTWWUNVA5PL\t18-64-72-69-3F-E4\t5/19/25\tPO-2025-28822
            AP-515\tCNA6 FNXB88\t94-B4-0F-12-0A-16\t3/2/25\tPO-2025-04728

            """

        static let propertyTags = """
            Inventory Number,Description,Custodian PID,Acquired
            952152,WIRELESS ACCESS POINT AP-515,jharlan,5/2/2024
            056664,WIRELESS ACCESS POINT AP-635,ukhan,2/18/2025

            """

        static let cnsRegister = """
            C Number,VT ID,Model
            C613774,952152,AP-515
            C642976,056664,AP-535

            """

        static let custodians = """
            Asset Tag,Assigned To,Department
            952152,jharlan,Network Infrastructure
            814293,ukhan,Network Infrastructure

            """

        static let billing = """
            Tag No,CNS No,Stock #,Amount
            952152,C613774,NIS-AP515,"1,095.00"
            056664,C642976,NIS-AP635,1495

            """

        static let legacy = """
            TAG_NO,SN,Bldg Code,Rm,Last Inv Date
            830,CNYLSXZ7E7,WBC,416B,41485
            1406.0,TWH52AADXL,DWH,102A,41063

            """
    }
}
