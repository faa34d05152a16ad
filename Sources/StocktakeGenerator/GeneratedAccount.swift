/// Where a generated account was written, and the discrepancies the reconciler must find in it.
public struct GeneratedAccount: Sendable {
    /// The central sheet, `central.csv`.
    public var centralPath: String
    /// The folder of sighting sources (survey sheets, controller export, receiving list).
    public var sightingsDirectory: String
    /// The folder of register sources (property tags, CNS register, custodians, billing, legacy export).
    public var registersDirectory: String
    /// The buildings table, `buildings.csv`.
    public var buildingsPath: String
    /// The expected discrepancies, `expected.csv`.
    public var expectedPath: String
    /// The expected discrepancies, sorted as in `expected.csv`.
    public var expected: [ExpectedDiscrepancy]
    /// Every file written, as paths relative to the output folder, sorted.
    public var files: [String]
}
