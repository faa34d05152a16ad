/// `cleaned.csv`: one row per asset, sorted by VT tag, in the column order of DOMAIN.md.
///
/// Each value is written straight into the file's bytes in its canonical form (a tag's digits, a MAC address's hex,
/// an ISO date), neutralized and quoted like every table stocktake writes; no text is made per cell.
public enum CleanedTable {
    /// The header of `cleaned.csv`.
    public static let columns: [String] = CanonicalField.allCases.map(\.rawValue) + ["status", "sources"]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        TableFile.bytes(header: columns, rowCount: reconciliation.assets.count) {
            append(reconciliation.assets[$0], to: &$1)
        }
    }

    /// Writes the file to `path` atomically, a block of rows at a time.
    public static func write(_ reconciliation: Reconciliation, to path: String) throws(StocktakeError) {
        try TableFile.write(
            header: columns, rowCount: reconciliation.assets.count,
            row: { append(reconciliation.assets[$0], to: &$1) }, to: path)
    }

    /// Appends the row of one asset.
    static func append(_ asset: CleanedAsset, to output: inout [UInt8]) {
        // Fields are read in place: copying `asset.values` would retain and release each of its texts.
        // Identifiers and dates are digits, hex and dashes: they never need quotes or a leading '.
        if let tag = asset.values.vtTag { CanonicalText.append(tag, to: &output) }
        output.append(ASCII.comma)
        if let number = asset.values.cnsNumber { CanonicalText.append(number, to: &output) }
        output.append(ASCII.comma)
        appendText(asset.values.serialNumber?.text, to: &output)
        if let address = asset.values.macAddress { CanonicalText.append(address, to: &output) }
        output.append(ASCII.comma)
        appendText(asset.values.model, to: &output)
        appendText(asset.values.description, to: &output)
        appendText(asset.values.building, to: &output)
        appendText(asset.values.room, to: &output)
        appendText(asset.values.mount, to: &output)
        appendText(asset.values.custodian, to: &output)
        appendCoordinate(asset.values.latitude, to: &output)
        appendCoordinate(asset.values.longitude, to: &output)
        if let date = asset.values.lastSeen { CanonicalText.append(date, to: &output) }
        output.append(ASCII.comma)
        appendText(asset.values.stockNumber, to: &output)
        appendText(asset.status.rawValue, to: &output)
        CSVWriter.appendField(asset.sourceList, to: &output)
        CSVWriter.appendLineEnd(to: &output)
    }

    /// Appends a coordinate and the comma after it. A finite coordinate is a plain number: it needs no quotes, and
    /// a leading `-` starts no formula.
    private static func appendCoordinate(_ degrees: Double?, to output: inout [UInt8]) {
        if let degrees {
            if degrees.isFinite {
                CanonicalText.append(degrees: degrees, to: &output)
            } else {
                CSVWriter.appendField(GeoPosition.text(degrees), to: &output)
            }
        }
        output.append(ASCII.comma)
    }

    /// Appends one cell of text, neutralized and quoted as needed, and the comma after it.
    private static func appendText(_ text: String?, to output: inout [UInt8]) {
        if let text { CSVWriter.appendField(text, to: &output) }
        output.append(ASCII.comma)
    }
}
