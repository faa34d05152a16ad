import StocktakeCore

/// `stocktake reconcile`: reconcile one account's spreadsheets from local files.
enum ReconcileCommand {
    static let usage = """
        Reconcile one account's spreadsheets and write the cleaned sheet and the discrepancy report.

        Usage:
            stocktake reconcile --central FILE [--sighting FILE|DIR]... [--register FILE|DIR]...
                                [--buildings FILE] [--columns FILE] [--tag-digits N] [--cns-digits N]
                                [--stale-after-days N] [--as-of YYYY-MM-DD] [--account NAME] [--quiet] --out DIR

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

        Exit status: 0 reconciled (discrepancies are normal output), 64 bad usage, 65 unreadable data,
        66 missing input file, 73 outputs cannot be written.
        """

    static func run(_ arguments: [String]) throws(StocktakeError) {
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
        let extra = try options.positionals()
        guard extra.isEmpty else { throw options.usage("unexpected argument \(extra[0])") }

        let (reconciliation, details) = try ReconcileJob.run(request, log: Log(account: account, isEnabled: !quiet))
        print(
            "\(account): \(counted(reconciliation.assets.count, "asset")), "
                + "\(counted(reconciliation.count(Severity.error), "error")), "
                + "\(counted(reconciliation.count(.warning), "warning")), \(reconciliation.count(.info)) info")
        print("Report:        \(details.path(of: "report.html"))")
        print("Cleaned sheet: \(details.path(of: "cleaned.csv"))")
        print("Discrepancies: \(details.path(of: "discrepancies.csv"))")
    }

    /// The name of the folder the central sheet is in, or "default".
    private static func defaultAccount(central: String) -> String {
        let parts = central.split(separator: "/")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : "default"
    }
}
