/// Row findings: cells that could not be used, and rows repeated exactly.
extension ReconcileRun {
    mutating func findRowIssues() {
        struct Key: Hashable {
            var code: DiscrepancyCode
            var asset: Int
            var field: CanonicalField?
            var value: String
            var kind: RowIssue.Kind
            var row: Int
        }
        var groups: [Key: (issue: RowIssue, values: AssetValues, locations: [SourceLocation])] = [:]
        var order: [Key] = []
        for (sourceIndex, source) in sources.enumerated() {
            for issue in source.issues {
                let asset = issue.recordIndex.map { Int(graph.assetOfRecord[sourceIndex][$0]) } ?? -1
                let rowValues = issue.recordIndex.map { source.records[$0].values } ?? AssetValues()
                let code: DiscrepancyCode = issue.kind == .unknownBuilding ? .unknownBuilding : .invalidValue
                let here = SourceLocation(file: source.file.displayName, row: issue.row)
                // One finding per bad value and asset; row-level problems stay one per row.
                let perRow = issue.kind == .raggedRow || issue.kind == .noIdentifier || asset < 0
                let key = Key(
                    code: code, asset: asset, field: issue.field, value: issue.value, kind: issue.kind,
                    row: perRow ? issue.row + (sourceIndex << 32) : 0)
                if groups[key] == nil {
                    order.append(key)
                    groups[key] = (issue, rowValues, [])
                }
                groups[key]!.locations.append(here)
            }
        }
        for key in order {
            let (issue, rowValues, locations) = groups[key]!
            let tag = key.asset >= 0 ? graph.tags[key.asset] ?? nil : nil
            found.append(
                Discrepancy(
                    code: key.code, vtTag: tag, cnsNumber: tag == nil ? rowValues.cnsNumber : nil,
                    serialNumber: tag == nil ? rowValues.serialNumber : nil,
                    macAddress: tag == nil ? rowValues.macAddress : nil, field: issue.field, value: issue.value,
                    sources: locations,
                    detail: .cell(kind: issue.kind, reason: issue.reason, column: issue.column, line: issue.line)))
        }
    }

    mutating func findRepeatedRows() {
        for (sourceIndex, source) in sources.enumerated() {
            for repeated in source.repeatedRows {
                let first = source.records[repeated.firstRecordIndex]
                let asset = Int(graph.assetOfRecord[sourceIndex][repeated.firstRecordIndex])
                let tag = asset >= 0 ? graph.tags[asset] ?? nil : first.values.vtTag
                let name = source.file.displayName
                found.append(
                    Discrepancy(
                        code: .duplicateRow, vtTag: tag, serialNumber: tag == nil ? first.values.serialNumber : nil,
                        macAddress: tag == nil ? first.values.macAddress : nil, value: "row \(first.row)",
                        sources: [
                            SourceLocation(file: name, row: Int(first.row)),
                            SourceLocation(file: name, row: repeated.row),
                        ], detail: .repeatedRow))
            }
        }
    }

}
