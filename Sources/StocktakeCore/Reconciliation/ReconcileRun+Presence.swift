/// Presence findings: missing, unrecorded, possible typos, no tag, no CNS, stale; and each asset's status.
extension ReconcileRun {

    /// Sorts the tagged assets into unseen central ones and unrecorded ones, and pairs each unrecorded tag one edit
    /// from an unseen central tag (in the same building when both have one) as a possible typo. Runs before shared
    /// identifiers are looked for, so that a serial or MAC both tags of a pair carry is part of the pair's finding.
    mutating func pairTypos(_ tagged: [Int]) {
        for asset in tagged {
            if isCentral(asset) {
                if !isSighted(asset) {
                    unseen[graph.tags[asset]!] = asset
                    isUnseen[asset] = true
                }
            } else {
                unrecorded.append(asset)
            }
        }
        unrecorded.sort { graph.tags[$0]! < graph.tags[$1]! }
        for asset in unrecorded {
            let building = merged[asset].building
            for (neighbor, edit) in TypoMatcher.neighbors(of: graph.tags[asset]!) {
                guard let central = unseen[neighbor], typoOfCentral[central] == nil else { continue }
                if let building, let other = merged[central].building, building != other { continue }
                typoOfCentral[central] = (scanned: asset, edit: edit)
                centralOfTypo[asset] = central
                break
            }
        }
    }

    mutating func findMissingAndUnrecorded() {
        for central in typoOfCentral.keys.sorted() {
            let (asset, edit) = typoOfCentral[central]!
            let tag = graph.tags[asset]!
            let neighbor = graph.tags[central]!
            let scanned = members[asset].map(location)
            let record = members[central].filter { role($0) == .central }.map(location)
            let shared = (typoShared[central] ?? []).sorted { ($0.field, $0.key) < ($1.field, $1.key) }.map {
                SharedIdentifier(field: $0.field, key: $0.key, stray: $0.stray.map(location))
            }
            found.append(
                Discrepancy(
                    code: .possibleTypo, vtTag: neighbor, cnsNumber: merged[central].cnsNumber,
                    serialNumber: merged[central].serialNumber, macAddress: merged[central].macAddress,
                    field: .vtTag, value: tag.description, expected: neighbor.description,
                    sources: (scanned + record + shared.flatMap(\.stray)).sorted(),
                    detail: .typo(
                        scanned: scanned, central: record, building: merged[central].building, edit: edit,
                        shared: shared)))
        }
        for (tag, asset) in unseen where typoOfCentral[asset] == nil {
            let values = merged[asset]
            found.append(
                Discrepancy(
                    code: .missing, vtTag: tag, cnsNumber: values.cnsNumber, serialNumber: values.serialNumber,
                    macAddress: values.macAddress, sources: members[asset].map(location).sorted(),
                    detail: .missing(
                        central: members[asset].filter { role($0) == .central }.map(location),
                        building: values.building, room: values.room)))
        }
        for asset in unrecorded where centralOfTypo[asset] == nil {
            let tag = graph.tags[asset]!
            let values = merged[asset]
            found.append(
                Discrepancy(
                    code: .unrecorded, vtTag: tag, cnsNumber: values.cnsNumber, serialNumber: values.serialNumber,
                    macAddress: values.macAddress, sources: members[asset].map(location).sorted(),
                    detail: .rows(members[asset].map(location))))
        }
    }

    /// The `status` cell of a tagged asset: `unrecorded` (not in central), else `missing` (unseen) or `typo` (unseen
    /// and paired with a scanned tag), else `conflict` (disputed) or `ok`. A dispute never hides a presence finding,
    /// so each `unrecorded`, `missing` and `typo` asset is one UNRECORDED, MISSING or POSSIBLE_TYPO finding.
    func status(of asset: Int) -> AssetStatus {
        if !isCentral(asset) { return .unrecorded }
        if isUnseen[asset] { return typoOfCentral[asset] == nil ? .missing : .typo }
        return disputed[asset] ? .conflict : .ok
    }

    mutating func findNoTag() {
        for asset in graph.tags.indices where graph.tags[asset] == nil {
            let values = merged[asset]
            let rows = members[asset].map(location)
            found.append(
                Discrepancy(
                    code: .noTag, cnsNumber: values.cnsNumber, serialNumber: values.serialNumber,
                    macAddress: values.macAddress, sources: rows.sorted(), detail: .rows(rows)))
        }
    }

    func findNoCNS(_ asset: Int, into findings: inout AssetFindings) {
        guard isCentral(asset), packedMerged[asset].cnsNumber == nil else { return }
        let tag = graph.tags[asset]!
        let rows = members[asset].filter { role($0) == .central }.map(location)
        findings.found.append(
            Discrepancy(
                code: .noCNS, vtTag: tag, serialNumber: merged[asset].serialNumber,
                macAddress: merged[asset].macAddress, field: .cnsNumber, sources: rows, detail: .rows(rows)))
    }

    /// Whether `asset` may be `STALE`: it is in the central sheet and sighted, and its merged date is older than
    /// the cutoff. The merged date is the newest sighting's when a sighting has a date, else the newest of any row's:
    /// when it is missing or recent, either a sighting is recent or one has no date, and the asset is not stale. Only
    /// the others read their rows (an asset's rows lie anywhere in up to fourteen files: a wait for memory each).
    func mayBeStale(_ asset: Int) -> Bool {
        guard isCentral(asset), isSighted(asset), let date = packedMerged[asset].lastSeen else { return false }
        return date < rules.asOf.adding(days: -rules.staleAfterDays)
    }

    func findStale(_ asset: Int, into findings: inout AssetFindings) {
        guard mayBeStale(asset) else { return }
        let cutoff = rules.asOf.adding(days: -rules.staleAfterDays)
        // Only the dates are read, in place; the list of sightings is made for a finding only.
        var newest: (date: InventoryDate, reference: RecordReference)?
        for reference in members[asset] where role(reference) == .sighting {
            guard let date = merger.packed(reference).lastSeen else { return }
            if newest == nil || date > newest!.date { newest = (date, reference) }
        }
        guard let newest, newest.date < cutoff else { return }
        let sightings = members[asset].filter { role($0) == .sighting }
        let tag = graph.tags[asset]!
        findings.found.append(
            Discrepancy(
                code: .stale, vtTag: tag, cnsNumber: merged[asset].cnsNumber,
                serialNumber: merged[asset].serialNumber, macAddress: merged[asset].macAddress, field: .lastSeen,
                value: newest.date.description, expected: cutoff.description,
                sources: sightings.map(location).sorted(),
                detail: .stale(seen: location(newest.reference), afterDays: rules.staleAfterDays, asOf: rules.asOf)))
    }

}
