/// Field findings: sources that disagree on a value.
extension ReconcileRun {
    func findFieldConflicts(_ asset: Int, into findings: inout AssetFindings) {
        let tag = graph.tags[asset]!
        for field in CanonicalField.conflictChecked {
            guard let distinct = merger.conflict(in: field, among: members[asset]) else { continue }
            findings.disputed.append(asset)
            let listing = distinct.map { "\($0.text) in \(SourceLocation.spoken($0.locations))" }
            var outcome = "The cleaned sheet uses \(distinct[0].text); check the device and correct the other records."
            if let central = centralOfTypo[asset] {
                outcome =
                    "The tag has no row in the cleaned sheet: it is a possible typo of central tag "
                    + "\(graph.tags[central]!). Check the device and correct the wrong records."
            }
            findings.found.append(
                Discrepancy(
                    code: .fieldConflict, vtTag: tag, cnsNumber: merged[asset].cnsNumber,
                    serialNumber: merged[asset].serialNumber, macAddress: merged[asset].macAddress, field: field,
                    value: distinct[0].text, expected: Self.valueList(distinct.dropFirst().map(\.text)),
                    sources: distinct.flatMap(\.locations).sorted(),
                    message: "Sources disagree on the \(field.spokenName) of VT tag \(tag): "
                        + Self.shortened(listing).joined(separator: "; ") + ". " + outcome))
        }
    }

}
