import Foundation
import StocktakeCore
import StocktakeSync

/// `stocktake reconcile`: reconcile one account's spreadsheets, local or on servers.
enum ReconcileCommand: Command {
    static let central = Option(
        "--central", .text(placeholder: "FILE"), help: "The central asset sheet (the system of record).")
    static let sighting = Option(
        "--sighting", .text(placeholder: "FILE|DIR"), repeatable: true,
        help: """
            Evidence a device exists (installer scans, controller export, receiving list). A folder means every \
            .csv, .tsv, .txt and .xlsx file in it.
            """)
    static let register = Option(
        "--register", .text(placeholder: "FILE|DIR"), repeatable: true,
        help: "Records about assets (tag register, CNS register, custodians, billing, legacy).")
    static let centralSheet = Option(
        "--central-sheet", .text(placeholder: "NAME"),
        help: "The worksheet of an .xlsx central sheet to read (default: the first visible one).")
    static let allSheets = Option(
        "--all-sheets",
        help: "Read every visible worksheet of .xlsx sightings and registers, not only the first.")
    static let buildings = Option(
        "--buildings", .text(placeholder: "FILE"), help: "The buildings table: code,name[,latitude,longitude].")
    static let columns = Option(
        "--columns", .text(placeholder: "FILE"),
        help: #"Extra column mapping: JSON {"Asset #": "vt_tag"} or CSV column,field lines."#)
    static let tagDigits = Option(
        "--tag-digits", .number(placeholder: "N", range: 1...18), help: "Digits of a VT tag (default 6).")
    static let cnsDigits = Option(
        "--cns-digits", .number(placeholder: "N", range: 1...18),
        help: "Digits of a CNS number after its C (default 6).")
    static let staleAfterDays = Option(
        "--stale-after-days", .number(placeholder: "N", range: 0...36500),
        help: "Days after which a central asset's newest sighting is STALE (default 365).")
    /// Not the shared `--account`: here it only names the account in logs and reports.
    static let account = Option(
        "--account", .text(placeholder: "NAME"),
        help: "The account name for logs and reports (default: the central sheet's folder).")
    static let name = Option(
        "--name", .text(placeholder: "TEXT"), help: "The account's name as the report shows it (default: --account).")
    static let timeZone = Option(
        "--time-zone", .text(placeholder: "ZONE"),
        help: "The IANA time zone the report states the run's time in, such as America/New_York (default UTC).")
    static let output = Option(
        "--out", .text(placeholder: "DIR"),
        help: """
            Where cleaned.csv, discrepancies.csv, resolved.csv, changes.csv, report.html, summary.txt, ledger.csv \
            and run.json go.
            """)
    static let ledger = Option(
        "--ledger", .text(placeholder: "FILE"),
        help: """
            The ledger.csv of the account's previous run: findings it holds keep their first_seen and are open, the \
            ones gone are listed in resolved.csv (default: every finding is new).
            """)
    static let acknowledged = Option(
        "--acknowledged", .text(placeholder: "FILE"),
        help: "The account's acknowledged.csv (id,note,until,by,acknowledged_on,evidence), written by stocktake ack.")
    static let tokenFile = Option(
        "--token-file", .text(placeholder: "PATH"),
        help: """
            A bearer token (the file must be readable by its owner only). Without it the environment variable \
            STOCKTAKE_TOKEN is used, if set.
            """)
    static let oauth = Option(
        "--oauth", .text(placeholder: "FILE"),
        help: """
            OAuth 2.0 refresh-token grant: a JSON file (mode 600) with tokenURL, clientID, clientSecret and \
            refreshToken.
            """)
    static let caFile = Option(
        "--ca-file", .text(placeholder: "PATH"), help: "Trust this CA bundle (for a private certificate authority).")
    static let push = Option(
        "--push",
        help: "Write cleaned.csv back to where the central sheet came from, unless someone changed it since the pull.")
    static let reportTo = Option(
        "--report-to", .text(placeholder: "URL"), help: "Upload the five output files into this folder URL.")
    static let connectTimeout = Option(
        "--connect-timeout", .number(placeholder: "S", range: 1...3600), help: "Seconds to connect (default 20).")
    static let timeout = Option(
        "--timeout", .number(placeholder: "S", range: 1...86400), help: "Seconds per transfer (default 300).")
    static let deadline = Option(
        "--deadline", .number(placeholder: "S", range: 1...86400),
        help: "Seconds for one sheet's transfer with all its retries (default 600).")
    static let maximumDownload = Option(
        "--max-download-mb", .number(placeholder: "N", range: 1...65536),
        help: "Largest sheet accepted, in MB (default 512).")
    static let sheetsAPI = Option(
        "--sheets-api", .text(placeholder: "URL"),
        help: "Google Sheets API base (default https://sheets.googleapis.com).")
    static let driveAPI = Option(
        "--drive-api", .text(placeholder: "URL"), help: "Google Drive API base (default https://www.googleapis.com).")

    static let simulateFailure = Option(
        "--simulate-failure", .text(placeholder: "KINDS"), repeatable: true,
        help: """
            Rehearse a failure: make these steps fail exactly as their real failures would, each message labelled \
            "(simulated failure: …)", with nothing sent to a server. KINDS is a comma-separated list of pull, \
            push, upload, token, timeout and disk-full.
            """)

    static let configuration = CommandConfiguration(
        name: "reconcile",
        abstract: "Reconcile one account's spreadsheets and write the cleaned sheet and the discrepancy report.",
        synopsis: """
            stocktake reconcile --central FILE [--sighting FILE|DIR]... [--register FILE|DIR]...
                                [--central-sheet NAME] [--all-sheets]
                                [--buildings FILE] [--columns FILE] [--tag-digits N] [--cns-digits N]
                                [--stale-after-days N] [--as-of YYYY-MM-DD] [--account NAME] [--name TEXT]
                                [--time-zone ZONE] [--quiet] --out DIR [--ledger FILE] [--acknowledged FILE]
                                [--token-file PATH] [--oauth FILE] [--ca-file PATH] [--push] [--report-to URL]
                                [--connect-timeout S] [--timeout S] [--deadline S] [--max-download-mb N]
                                [--sheets-api URL] [--drive-api URL] [--simulate-failure KINDS]
            """,
        sections: [
            .init(options: [
                central, sighting, register, centralSheet, allSheets, buildings, columns, tagDigits, cnsDigits,
                staleAfterDays,
                SharedOptions.asOf, account, name, timeZone, SharedOptions.quiet, output, ledger, acknowledged,
            ]),
            .init(
                introduction: """
                    Sheets on servers: --central, --sighting and --register also take https:// URLs (WebDAV, presigned URLs),
                    Google Sheets (https://docs.google.com/spreadsheets/d/ID or gsheets:ID[/RANGE]) and Google Drive files
                    (https://drive.google.com/file/d/ID or gdrive:ID). They are pulled into DIR/pulled/ first.
                    """,
                options: [
                    tokenFile, oauth, caFile, push, reportTo, connectTimeout, timeout, deadline, maximumDownload,
                    sheetsAPI, driveAPI, simulateFailure,
                ]),
        ],
        discussion: """
            Exit status: 0 reconciled, pulled and pushed (discrepancies are normal output), 64 bad usage,
            65 unreadable data, 66 missing input file, 69 a source could not be fetched, 73 outputs cannot be written,
            75 a push or upload could not be done (outputs kept; try again later), 77 credentials rejected.
            """)

    static func run(_ options: ParsedArguments) throws {
        guard let central = options.value(Self.central) else { throw options.usageError("--central FILE is required") }
        guard let output = options.value(Self.output) else { throw options.usageError("--out DIR is required") }
        var rules = ReconciliationRules(asOf: options.date(SharedOptions.asOf) ?? InventoryDate.today())
        rules.tagDigits = options.number(Self.tagDigits) ?? rules.tagDigits
        rules.cnsDigits = options.number(Self.cnsDigits) ?? rules.cnsDigits
        rules.staleAfterDays = options.number(Self.staleAfterDays) ?? rules.staleAfterDays
        let account = options.value(Self.account) ?? defaultAccount(central: central)
        var request = ReconcileRequest(account: account, central: central, rules: rules, outputDirectory: output)
        request.displayName = options.value(Self.name)
        if let zone = options.value(Self.timeZone) {
            guard let timeZone = ReportTimeZone(named: zone) else {
                throw options.usageError("--time-zone names no time zone this machine knows (\"\(zone)\")")
            }
            request.timeZone = timeZone
        }
        let sheets = options.flag(Self.allSheets) ? SheetSelection.all : .first
        request.centralSheet = options.value(Self.centralSheet).map(SheetSelection.named) ?? .first
        request.sightings = options.values(Self.sighting).map { SourceEntry($0, sheets: sheets) }
        request.registers = options.values(Self.register).map { SourceEntry($0, sheets: sheets) }
        request.buildings = options.value(Self.buildings)
        request.columns = options.value(Self.columns)
        for (option, what) in [(Self.ledger, "ledger"), (Self.acknowledged, "acknowledgements file")] {
            if let path = options.value(option), !FileManager.default.fileExists(atPath: path) {
                throw StocktakeError.missingInput(path: path, what: what)
            }
        }
        request.ledger = options.value(Self.ledger)
        request.acknowledgements = options.value(Self.acknowledged)
        let simulated = try RunCommand.simulatedFailures(options, option: Self.simulateFailure)
        if simulated.contains(.lock) {
            throw options.usageError("--simulate-failure lock is for stocktake run: reconcile takes no account lock")
        }
        let simulation = FailureSimulation(simulated, origin: .commandLine)
        request.simulation = simulation
        let quiet = options.flag(SharedOptions.quiet)
        var synced = SyncedReconcileRequest(reconcile: request)
        synced.push = options.flag(Self.push)
        // A push could carry a night without evidence into the company's sheet: refuse it as the nightly run does
        // (without a last good run to compare with, as this command keeps no state).
        if synced.push {
            synced.guards = .nightly(baseline: nil, maxShrink: EvidenceGuards().maxShrink, maxMissingShare: 0.5)
        }
        synced.reportTo = try options.value(Self.reportTo).map { text throws(StocktakeError) in
            try url(text, option: Self.reportTo, options)
        }
        var connection = ConnectionSettings()
        connection.tokenFile = options.value(Self.tokenFile)
        connection.oauthFile = options.value(Self.oauth)
        connection.limits.caFile = options.value(Self.caFile)
        connection.limits.connectTimeoutSeconds =
            options.number(Self.connectTimeout) ?? connection.limits.connectTimeoutSeconds
        connection.limits.totalTimeoutSeconds = options.number(Self.timeout) ?? connection.limits.totalTimeoutSeconds
        connection.limits.deadlineSeconds = options.number(Self.deadline) ?? connection.limits.deadlineSeconds
        if let megabytes = options.number(Self.maximumDownload) {
            connection.limits.maximumDownloadBytes = megabytes << 20
        }
        if let text = options.value(Self.sheetsAPI) {
            connection.sheetsAPI = try url(text, option: Self.sheetsAPI, options)
        }
        if let text = options.value(Self.driveAPI) {
            connection.driveAPI = try url(text, option: Self.driveAPI, options)
        }
        try options.noPositionals()

        let entries = [central] + (request.sightings + request.registers).map(\.location)
        let locations = try entries.map { text throws(StocktakeError) in
            do {
                return try SheetLocation(text)
            } catch {
                throw options.usageError("\(error)")
            }
        }
        let factory = try connection.factory(
            account: account, locations: locations, reportTo: synced.reportTo, simulation: simulation)
        let uploader = ReportUploader(session: factory.session)
        let job = SyncedReconcileJob(
            session: factory.session, makeProvider: { location throws(SyncError) in factory.provider(for: location) },
            uploadReports: { files, folder throws(SyncError) in try uploader.upload(files, to: folder) })
        let outcome = try job.run(synced, log: Log(account: account, isEnabled: !quiet))
        let reconciliation = outcome.reconciliation
        // The account and the paths may come from a sheet's author: control characters are escaped.
        let safe = ControlCharacters.escaped
        print(
            "\(safe(account)): \(counted(reconciliation.assets.count, "asset")), "
                + "\(counted(reconciliation.count(Severity.error), "error")), "
                + "\(counted(reconciliation.count(.warning), "warning")), \(reconciliation.count(.info)) info")
        for push in outcome.details.pushes { print("Pushed:        \(safe(push))") }
        print("Report:        \(safe(outcome.details.path(of: "report.html")))")
        print("Cleaned sheet: \(safe(outcome.details.path(of: "cleaned.csv")))")
        print("Discrepancies: \(safe(outcome.details.path(of: "discrepancies.csv")))")
        if let failure = outcome.failures.first { throw failure }
    }

    private static func url(_ text: String, option: Option, _ options: ParsedArguments) throws(StocktakeError)
        -> EndpointURL
    {
        do {
            return try EndpointURL(text)
        } catch {
            throw options.usageError("\(option.name): \(error)")
        }
    }

    /// The name of the folder the central sheet is in, or "default".
    private static func defaultAccount(central: String) -> String {
        let parts = central.split(separator: "/")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : "default"
    }
}
