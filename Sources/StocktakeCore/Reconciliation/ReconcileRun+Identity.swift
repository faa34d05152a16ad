/// Identity findings: one tag on several devices, a tag with several CNS numbers, identifiers shared by several assets.
extension ReconcileRun {
    func findDuplicateTag(_ asset: Int, into findings: inout AssetFindings) {
        let tag = graph.tags[asset]!
        for field in [CanonicalField.serialNumber, .macAddress] {
            guard differing[asset] & AssetMerger.bit(field) != 0 else { continue }
            let distinct = distinctValues(field, of: members[asset])
            guard distinct.count > 1 else { continue }
            findings.disputed.append(asset)
            findings.found.append(
                Discrepancy(
                    code: .duplicateTag, vtTag: tag, cnsNumber: merged[asset].cnsNumber,
                    serialNumber: merged[asset].serialNumber, macAddress: merged[asset].macAddress, field: field,
                    value: Self.valueList(distinct.dropFirst().map(\.text)), expected: distinct[0].text,
                    sources: distinct.flatMap(\.locations).sorted(), detail: .values(distinct)))
            return
        }
    }

    func findTagCNSMismatch(_ asset: Int, into findings: inout AssetFindings) {
        let tag = graph.tags[asset]!
        guard differing[asset] & AssetMerger.bit(.cnsNumber) != 0 else { return }
        let distinct = distinctValues(.cnsNumber, of: members[asset])
        guard distinct.count > 1 else { return }
        findings.disputed.append(asset)
        findings.found.append(
            Discrepancy(
                code: .tagCNSMismatch, vtTag: tag, cnsNumber: merged[asset].cnsNumber,
                serialNumber: merged[asset].serialNumber, macAddress: merged[asset].macAddress, field: .cnsNumber,
                value: Self.valueList(distinct.dropFirst().map(\.text)), expected: distinct[0].text,
                sources: distinct.flatMap(\.locations).sorted(), detail: .values(distinct)))
    }

    /// Distinct values of an identity field in source order, with the rows carrying each.
    func distinctValues(_ field: CanonicalField, of references: UnsafeBufferPointer<RecordReference>)
        -> [AssetMerger.FieldValue]
    {
        var distinct: [AssetMerger.FieldValue] = []
        var positions: [String: Int] = [:]
        for reference in references where merger.has(field, in: reference) {
            let text = merger.text(field, of: reference)
            if let index = positions[text] {
                distinct[index].locations.append(location(reference))
            } else {
                positions[text] = distinct.count
                distinct.append(.init(text: text, locations: [location(reference)]))
            }
        }
        return distinct
    }

    /// The SHARED_SERIAL, SHARED_MAC or CNS_REUSED findings of one identifier, and what they mark: made apart from
    /// the run, so that the three identifiers' are made at the same time and then added in order.
    struct SharedFindings {
        var found: [Discrepancy] = []
        var disputed: [Int] = []
        /// A value on both tags of a POSSIBLE_TYPO pair and nowhere else, for that pair's finding (by its central
        /// asset).
        var typoShared: [(central: Int, field: CanonicalField, key: String, stray: [RecordReference])] = []
    }

    /// Adds the findings of values shared by several assets, serial numbers, then MACs, then CNS numbers; in a large
    /// account the three are made on cores of their own.
    mutating func findShared() {
        let fields: [(field: CanonicalField, code: DiscrepancyCode)] = [
            (.serialNumber, .sharedSerial), (.macAddress, .sharedMAC), (.cnsNumber, .cnsReused),
        ]
        let values = graph.serialIndex.sharedCount + graph.macIndex.sharedCount + graph.cnsIndex.sharedCount
        let shared = ResultSlots<SharedFindings>(count: fields.count)
        do {
            // A copy that does not change while the threads read it (see `finish`).
            let run = self
            Parallel.perform(fields.count, threads: values >= Self.sharedValuesPerThread ? Parallel.threads : 1) {
                shared[$0] = run.sharedFindings(fields[$0].field, code: fields[$0].code)
            }
        }
        for index in fields.indices {
            let made = shared[index]!
            found.append(contentsOf: made.found)
            for asset in made.disputed { disputed[asset] = true }
            for value in made.typoShared {
                typoShared[value.central, default: []].append((value.field, value.key, value.stray))
            }
        }
    }

    /// The fewest shared values worth threads: an account's few are found on the calling thread.
    static let sharedValuesPerThread = 256

    func sharedFindings(_ field: CanonicalField, code: DiscrepancyCode) -> SharedFindings {
        var made = SharedFindings()
        let index: [(key: String, assets: [Int])]
        switch field {
        case .serialNumber: index = graph.serialIndex.sharedInOrder.map { ($0.description, $1) }
        case .macAddress: index = graph.macIndex.sharedInOrder.map { ($0.description, $1) }
        default: index = graph.cnsIndex.sharedInOrder.map { ($0.description, $1) }
        }
        var unplacedByValue: [String: [RecordReference]] = [:]
        for row in graph.unplaced where row.field == field {
            unplacedByValue[merger.text(field, of: row.reference), default: []].append(row.reference)
        }
        for (key, assets) in index where assets.count > 1 {
            let stray = unplacedByValue[key] ?? []
            // A serial or MAC on both tags of a POSSIBLE_TYPO pair and nowhere else: one device, and one finding.
            if field != .cnsNumber, assets.count == 2,
                let central = centralOfTypo[assets[0]] ?? centralOfTypo[assets[1]],
                assets.contains(central)
            {
                made.typoShared.append((central, field, key, stray))
                continue
            }
            let ordered = assets.sorted { describe($0) < describe($1) }
            made.disputed.append(contentsOf: ordered)
            let holders = ordered.map { asset in
                FindingHolder(
                    vtTag: graph.tags[asset], serialNumber: merged[asset].serialNumber,
                    macAddress: merged[asset].macAddress, cnsNumber: merged[asset].cnsNumber,
                    rows: members[asset].filter { merger.text(field, of: $0) == key }.map(location))
            }
            let strayRows = stray.map(location)
            var discrepancy = Discrepancy(
                code: code, vtTag: graph.tags[ordered[0]] ?? nil, field: field,
                value: Self.valueList(ordered.dropFirst().map(describeShort)),
                sources: (holders.flatMap(\.rows) + strayRows).sorted(),
                detail: .holders(key: key, holders, stray: strayRows))
            switch field {
            case .serialNumber: discrepancy.serialNumber = SerialNumber(canonical: key)
            case .macAddress: discrepancy.macAddress = macValue(key)
            default: discrepancy.cnsNumber = cnsValue(key)
            }
            made.found.append(discrepancy)
        }
        return made
    }

    func macValue(_ text: String) -> MACAddress? { MACAddress.normalize(text).value }
    func cnsValue(_ text: String) -> CNSNumber? { CNSNumber.normalize(text, digits: rules.cnsDigits).value }

    /// "VT tag 004512", or "the untagged device with serial X" for tag-less assets.
    func describe(_ asset: Int) -> String {
        if let tag = graph.tags[asset] { return "VT tag \(tag)" }
        return "the untagged device " + identity(merged[asset])
    }

    func describeShort(_ asset: Int) -> String {
        graph.tags[asset]?.description ?? identity(merged[asset])
    }

    func identity(_ values: MergedAsset) -> String {
        FindingMessage.identity(serial: values.serialNumber, mac: values.macAddress, cns: values.cnsNumber)
    }

}
