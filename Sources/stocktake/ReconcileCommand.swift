import StocktakeCore
import StocktakeSync

/// `stocktake reconcile`: reconcile one account's spreadsheets, local or on servers.
enum ReconcileCommand {
    static let usage = """
        Reconcile one account's spreadsheets and write the cleaned sheet and the discrepancy report.

        Usage:
            stocktake reconcile --central FILE [--sighting FILE|DIR]... [--register FILE|DIR]...
                                [--buildings FILE] [--columns FILE] [--tag-digits N] [--cns-digits N]
                                [--stale-after-days N] [--as-of YYYY-MM-DD] [--account NAME] [--quiet] --out DIR
                                [--token-file PATH] [--oauth FILE] [--ca-file PATH] [--push] [--report-to URL]
                                [--connect-timeout S] [--timeout S] [--deadline S] [--max-download-mb N]
                                [--sheets-api URL] [--drive-api URL]

        Options:
            --central FILE          The central asset sheet (the system of record).
            --sighting FILE|DIR     Evidence a device exists (installer scans, controller export, receiving list).
                                    A folder means every .csv and .tsv file in it. Repeat for more.
            --register FILE|DIR     Records about assets (tag register, CNS register, custodians, billing, legacy).
            --buildings FILE        The buildings table: code,name[,latitude,longitude].
            --columns FILE          Extra column mapping: JSON {"Asset #": "vt_tag"} or CSV column,field lines.
            --tag-digits N          Digits of a VT tag (default 6).
            --cns-digits N          Digits of a CNS number after its C (default 6).
            --stale-after-days N    Days after which a central asset's newest sighting is STALE (default 365).
            --as-of YYYY-MM-DD      The run date staleness is measured against (default today, UTC).
            --account NAME          The account name for logs and reports (default: the central sheet's folder).
            --quiet                 Do not log progress on standard error.
            --out DIR               Where cleaned.csv, discrepancies.csv, report.html, summary.txt and run.json go.

        Sheets on servers: --central, --sighting and --register also take https:// URLs (WebDAV, presigned URLs),
        Google Sheets (https://docs.google.com/spreadsheets/d/ID or gsheets:ID[/RANGE]) and Google Drive files
        (https://drive.google.com/file/d/ID or gdrive:ID). They are pulled into DIR/pulled/ first.
            --token-file PATH       A bearer token (the file must be readable by its owner only). Without it the
                                    environment variable STOCKTAKE_TOKEN is used, if set.
            --oauth FILE            OAuth 2.0 refresh-token grant: a JSON file (mode 600) with tokenURL, clientID,
                                    clientSecret and refreshToken.
            --ca-file PATH          Trust this CA bundle (for a private certificate authority).
            --push                  Write cleaned.csv back to where the central sheet came from, unless someone
                                    changed it since the pull.
            --report-to URL         Upload the five output files into this folder URL.
            --connect-timeout S     Seconds to connect (default 20). --timeout S: seconds per transfer (300).
            --deadline S            Seconds for one sheet's transfer with all its retries (default 600).
            --max-download-mb N     Largest sheet accepted, in MB (default 512).
            --sheets-api URL        Google Sheets API base (default https://sheets.googleapis.com).
            --drive-api URL         Google Drive API base (default https://www.googleapis.com).

        Exit status: 0 reconciled, pulled and pushed (discrepancies are normal output), 64 bad usage,
        65 unreadable data, 66 missing input file, 69 a source could not be fetched, 73 outputs cannot be written,
        75 a push or upload could not be done (outputs kept; try again later), 77 credentials rejected.
        """

    static func run(_ arguments: [String]) throws {
        var options = ArgumentList(arguments, command: "reconcile")
        guard let central = try options.value("--central") else { throw options.usage("--central FILE is required") }
        guard let output = try options.value("--out") else { throw options.usage("--out DIR is required") }
        var asOf = InventoryDate.today()
        if let text = try options.value("--as-of") {
            guard let date = InventoryDate.parseISO(text) else {
                throw options.usage("--as-of must be a date as YYYY-MM-DD, not \"\(text)\"")
            }
            asOf = date
        }
        var rules = ReconciliationRules(asOf: asOf)
        rules.tagDigits = try options.number("--tag-digits", in: 1...18) ?? rules.tagDigits
        rules.cnsDigits = try options.number("--cns-digits", in: 1...18) ?? rules.cnsDigits
        rules.staleAfterDays = try options.number("--stale-after-days", in: 0...36500) ?? rules.staleAfterDays
        let account = try options.value("--account") ?? defaultAccount(central: central)
        var request = ReconcileRequest(account: account, central: central, rules: rules, outputDirectory: output)
        request.sightings = try options.values("--sighting")
        request.registers = try options.values("--register")
        request.buildings = try options.value("--buildings")
        request.columns = try options.value("--columns")
        let quiet = options.flag("--quiet")
        var synced = SyncedReconcileRequest(reconcile: request)
        synced.push = options.flag("--push")
        // A push could carry a night without evidence into the company's sheet: refuse it as the nightly run does
        // (without a last good run to compare with, as this command keeps no state).
        if synced.push {
            synced.guards = .nightly(baseline: nil, maxShrink: EvidenceGuards().maxShrink, maxMissingShare: 0.5)
        }
        synced.reportTo = try options.value("--report-to").map { text throws(StocktakeError) in
            try url(text, option: "--report-to", options)
        }
        var connection = ConnectionSettings()
        connection.tokenFile = try options.value("--token-file")
        connection.oauthFile = try options.value("--oauth")
        connection.limits.caFile = try options.value("--ca-file")
        connection.limits.connectTimeoutSeconds =
            try options.number("--connect-timeout", in: 1...3600) ?? connection.limits.connectTimeoutSeconds
        connection.limits.totalTimeoutSeconds =
            try options.number("--timeout", in: 1...86400) ?? connection.limits.totalTimeoutSeconds
        connection.limits.deadlineSeconds =
            try options.number("--deadline", in: 1...86400) ?? connection.limits.deadlineSeconds
        if let megabytes = try options.number("--max-download-mb", in: 1...65536) {
            connection.limits.maximumDownloadBytes = megabytes << 20
        }
        if let text = try options.value("--sheets-api") {
            connection.sheetsAPI = try url(text, option: "--sheets-api", options)
        }
        if let text = try options.value("--drive-api") {
            connection.driveAPI = try url(text, option: "--drive-api", options)
        }
        let extra = try options.positionals()
        guard extra.isEmpty else { throw options.usage("unexpected argument \(extra[0])") }

        let locations = try ([central] + request.sightings + request.registers).map { text throws(StocktakeError) in
            do {
                return try SheetLocation(text)
            } catch {
                throw options.usage("\(error)")
            }
        }
        let factory = try connection.factory(account: account, locations: locations, reportTo: synced.reportTo)
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

    private static func url(_ text: String, option: String, _ options: ArgumentList) throws(StocktakeError)
        -> EndpointURL
    {
        do {
            return try EndpointURL(text)
        } catch {
            throw options.usage("\(option): \(error)")
        }
    }

    /// The name of the folder the central sheet is in, or "default".
    private static func defaultAccount(central: String) -> String {
        let parts = central.split(separator: "/")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : "default"
    }
}
