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
            let place = merged[central].building.map { ", building \($0)" } ?? ""
            let shared = (typoShared[central] ?? []).sorted { ($0.field, $0.key) < ($1.field, $1.key) }
            var carried = ""
            if !shared.isEmpty {
                let parts = shared.map { item in
                    "\(item.field.spokenName) \(item.key)"
                        + (item.stray.isEmpty ? "" : " (also in \(SourceLocation.spoken(item.stray.map(location))))")
                }
                carried = " Both carry " + Self.sentenceList(parts) + "."
            }
            found.append(
                Discrepancy(
                    code: .possibleTypo, vtTag: neighbor, cnsNumber: merged[central].cnsNumber,
                    serialNumber: merged[central].serialNumber, macAddress: merged[central].macAddress,
                    field: .vtTag, value: tag.description, expected: neighbor.description,
                    sources: (scanned + record + shared.flatMap { $0.stray.map(location) }).sorted(),
                    message: "VT tag \(tag) in \(SourceLocation.spoken(scanned)) is not in the central sheet, "
                        + "and central tag \(neighbor) (\(SourceLocation.spoken(record))\(place)) was not seen; "
                        + "\(edit).\(carried) Check the sticker on the device and correct whichever number is wrong."))
        }
        for (tag, asset) in unseen where typoOfCentral[asset] == nil {
            let values = merged[asset]
            var whereabouts = ""
            if let building = values.building {
                whereabouts =
                    " Look for it in building \(building)" + (values.room.map { " room \($0)" } ?? "")
                    + ", or retire it in the central sheet."
            } else {
                whereabouts = " Look for the device, or retire it in the central sheet."
            }
            let detail = [values.serialNumber.map { "serial \($0)" }, values.cnsNumber.map { "CNS \($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
            found.append(
                Discrepancy(
                    code: .missing, vtTag: tag, cnsNumber: values.cnsNumber, serialNumber: values.serialNumber,
                    macAddress: values.macAddress, sources: members[asset].map(location).sorted(),
                    message: "VT tag \(tag)\(detail.isEmpty ? "" : " (\(detail))") is in "
                        + "\(SourceLocation.spoken(members[asset].filter { role($0) == .central }.map(location))) "
                        + "but no sighting file has seen it." + whereabouts))
        }
        for asset in unrecorded where centralOfTypo[asset] == nil {
            let tag = graph.tags[asset]!
            let values = merged[asset]
            found.append(
                Discrepancy(
                    code: .unrecorded, vtTag: tag, cnsNumber: values.cnsNumber, serialNumber: values.serialNumber,
                    macAddress: values.macAddress, sources: members[asset].map(location).sorted(),
                    message: "VT tag \(tag) is in \(SourceLocation.spoken(members[asset].map(location))) but not "
                        + "in the central sheet. Add it to the central sheet if the device is real, "
                        + "or check the tag number."))
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
                    macAddress: values.macAddress, sources: rows.sorted(),
                    message: "A device with \(identity(values)) is in \(SourceLocation.spoken(rows)) but no VT tag "
                        + "is linked to it in any file. Find the device and record its tag."))
        }
    }

    func findNoCNS(_ asset: Int, into findings: inout AssetFindings) {
        guard isCentral(asset), merged[asset].cnsNumber == nil else { return }
        let tag = graph.tags[asset]!
        let rows = members[asset].filter { role($0) == .central }.map(location)
        findings.found.append(
            Discrepancy(
                code: .noCNS, vtTag: tag, serialNumber: merged[asset].serialNumber,
                macAddress: merged[asset].macAddress, field: .cnsNumber, sources: rows,
                message: "VT tag \(tag) (\(SourceLocation.spoken(rows))) has no CNS number in any file. "
                    + "Read the CNS label on the device and add it to the central sheet."))
    }

    func findStale(_ asset: Int, into findings: inout AssetFindings) {
        guard isCentral(asset), isSighted(asset) else { return }
        let sightings = members[asset].filter { role($0) == .sighting }
        var newest: (date: InventoryDate, reference: RecordReference)?
        for reference in sightings {
            guard let date = values(reference).lastSeen else { return }
            if newest == nil || date > newest!.date { newest = (date, reference) }
        }
        guard let newest, newest.date < rules.asOf.adding(days: -rules.staleAfterDays) else { return }
        let tag = graph.tags[asset]!
        findings.found.append(
            Discrepancy(
                code: .stale, vtTag: tag, cnsNumber: merged[asset].cnsNumber,
                serialNumber: merged[asset].serialNumber, macAddress: merged[asset].macAddress, field: .lastSeen,
                value: newest.date.description, expected: rules.asOf.adding(days: -rules.staleAfterDays).description,
                sources: sightings.map(location).sorted(),
                message: "VT tag \(tag) was last seen on \(newest.date) (\(location(newest.reference).spoken)), "
                    + "more than \(rules.staleAfterDays) days before \(rules.asOf). "
                    + "Scan it at the next walk-through, or check that it is still there."))
    }

}
