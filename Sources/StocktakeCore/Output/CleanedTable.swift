/// `cleaned.csv`: one row per asset, sorted by VT tag, in the column order of DOMAIN.md, then the asset's building
/// name and the ids of its open findings (`CleanedAnnotations`).
///
/// Each value is written straight into the file's bytes in its canonical form (a tag's digits, a MAC address's hex,
/// an ISO date), neutralized and quoted like every table stocktake writes; no text is made per cell.
public enum CleanedTable {
    /// The header of `cleaned.csv`.
    public static let columns: [String] = CanonicalField.allCases.map(\.rawValue) + annotationColumns

    /// The columns after the fields: what stocktake says of each asset.
    static let annotationColumns = ["status", "sources", "building_name", "findings"]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        let annotations = CleanedAnnotations(reconciliation)
        let shared = CleanedSharedStrings(reconciliation, annotations: annotations)
        return TableFile.bytes(header: columns, rowCount: reconciliation.assets.count) {
            append($0, of: reconciliation.assets, annotations, shared, to: &$1)
        }
    }

    /// The file of the reconciliation of `texts` as `PieceWriter` writes it; its repeating texts are those `texts`
    /// gathers for `cleaned.xlsx` too.
    static func writer(_ texts: CleanedTexts, to path: String, synchronizingFolder: Bool = false) -> TableFile {
        let assets = texts.reconciliation.assets
        // A cleaned row is about 300 bytes: the serial, MAC, model, description, sources and annotations.
        return TableFile(
            header: columns, rowCount: assets.count, bytesPerRow: 512,
            rows: { rows, output in
                let shared = texts.sharedStrings
                for index in rows {
                    if index + Prefetch.rowsAhead < assets.count,
                        let id = assets[index + Prefetch.rowsAhead].packed.serialCode.pooledID
                    {
                        SharedTexts.shared.prefetch(id)
                    }
                    append(index, of: assets, texts.annotations, shared, to: &output)
                }
            }, to: path, synchronizingFolder: synchronizingFolder)
    }

    /// Appends the row of the asset at `index`.
    static func append<Output: ByteSink & ~Copyable>(
        _ index: Int, of assets: [CleanedAsset], _ annotations: CleanedAnnotations, _ shared: CleanedSharedStrings,
        to output: inout Output
    ) {
        // Fields are read from the packed values: numbers as they are, texts by their ids, without unpacking.
        // Identifiers and dates are digits, hex and dashes: they never need quotes or a leading '. The texts that
        // repeat are copied from their CSV form, made once.
        // The asset's values alone are read: copying the whole asset out of the array retained its `sources` text.
        let values = assets[index].packed
        let fields = shared.csvFields
        func appendShared(_ column: CleanedSharedStrings.Column, to output: inout Output) {
            fields.append(shared.index(column, ofAsset: index), to: &output)
            output.append(ASCII.comma)
        }
        if let tag = values.vtTag { CanonicalText.append(tag, to: &output) }
        output.append(ASCII.comma)
        if let number = values.cnsNumber { CanonicalText.append(number, to: &output) }
        output.append(ASCII.comma)
        values.serialCode.withBytes { CSVWriter.appendField($0, to: &output) }
        output.append(ASCII.comma)
        if let address = values.macAddress { CanonicalText.append(address, to: &output) }
        output.append(ASCII.comma)
        appendShared(.model, to: &output)
        appendShared(.description, to: &output)
        appendShared(.building, to: &output)
        appendShared(.room, to: &output)
        appendShared(.mount, to: &output)
        appendShared(.custodian, to: &output)
        appendCoordinate(values.latitude, to: &output)
        appendCoordinate(values.longitude, to: &output)
        if let date = values.lastSeen { CanonicalText.append(date, to: &output) }
        output.append(ASCII.comma)
        appendShared(.stockNumber, to: &output)
        // A cost is digits and a dot: no quotes, no formula.
        if let cost = values.cost { CanonicalText.append(cost, to: &output) }
        output.append(ASCII.comma)
        appendShared(.status, to: &output)
        appendShared(.sources, to: &output)
        appendShared(.buildingName, to: &output)
        // Finding ids are letters, digits, dashes and "; ": never quoted, never a formula.
        annotations.withFindings(ofAsset: index) { output.append(contentsOf: $0) }
        CSVWriter.appendLineEnd(to: &output)
    }

    /// Appends a coordinate and the comma after it. A finite coordinate is a plain number: it needs no quotes, and
    /// a leading `-` starts no formula.
    private static func appendCoordinate<Output: ByteSink & ~Copyable>(_ degrees: Double?, to output: inout Output) {
        if let degrees {
            if degrees.isFinite {
                CanonicalText.append(degrees: degrees, to: &output)
            } else {
                CSVWriter.appendField(GeoPosition.text(degrees), to: &output)
            }
        }
        output.append(ASCII.comma)
    }
}
