import StocktakeCore

/// One row of an account's latest `cleaned.csv` that a lookup found, copied out of the file.
public struct AssetMatch: Sendable, Equatable {
    /// The account whose table holds the row.
    public var account: String
    /// The identifiers the looked-up ID matched, in the table's column order (`[.custodian]` for a custodian
    /// listing), so the clerk sees why the row was chosen when one ID reads as a tag and a serial at once.
    public var matchedBy: [CanonicalField]
    /// The 1-based line of `cleaned.csv` the row starts on.
    public var line: Int
    /// The row's cells by column; columns the file lacks are absent.
    public var values: [CanonicalField: String]
    /// The `status` column: `ok`, `missing`, `unrecorded`, `typo` or `conflict`.
    public var status: String
    /// The `sources` column: the files and lines the asset was merged from.
    public var sources: String
    /// The asset's findings in the latest run, in the order of `discrepancies.csv`.
    public var findings: [FindingMatch] = []
    /// Whether the latest run lists findings with ids, so that no findings means none (a run made before findings
    /// had ids, or without `discrepancies.csv`, cannot say).
    public var findingsKnown = false

    public init(
        account: String, matchedBy: [CanonicalField], line: Int, values: [CanonicalField: String], status: String,
        sources: String
    ) {
        self.account = account
        self.matchedBy = matchedBy
        self.line = line
        self.values = values
        self.status = status
        self.sources = sources
    }

    /// The cell of `field`, or "" when it is blank or the file has no such column.
    public subscript(field: CanonicalField) -> String {
        values[field] ?? ""
    }
}
