/// Field findings: sources that disagree on a value.
extension ReconcileRun {
    func findFieldConflicts(_ asset: Int, into findings: inout AssetFindings) {
        let tag = graph.tags[asset]!
        for field in CanonicalField.conflictChecked {
            guard differing[asset] & AssetMerger.bit(field) != 0,
                let distinct = merger.conflict(in: field, among: members[asset])
            else { continue }
            findings.disputed.append(asset)
            findings.found.append(
                Discrepancy(
                    code: .fieldConflict, vtTag: tag, cnsNumber: merged[asset].cnsNumber,
                    serialNumber: merged[asset].serialNumber, macAddress: merged[asset].macAddress, field: field,
                    value: distinct[0].text, expected: Self.valueList(distinct.dropFirst().map(\.text)),
                    sources: distinct.flatMap(\.locations).sorted(),
                    detail: .conflict(distinct, typoOf: centralOfTypo[asset].flatMap { graph.tags[$0] })))
        }
    }

}
