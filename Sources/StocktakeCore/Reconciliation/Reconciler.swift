/// Decides, for one account, which rows are the same device, what each field's value is, and what is wrong.
///
/// Sources are taken in reconciliation order: the central sheet, then sightings, then registers, each group in
/// the order given. The result is deterministic for the same inputs.
public struct Reconciler: Sendable {
    public var rules: ReconciliationRules

    public init(rules: ReconciliationRules) {
        self.rules = rules
    }

    /// Reorders `elements` so that position `i` holds what was at `order[i]`, in place: following each cycle of the
    /// permutation moves every element once, without a second copy of a list that may hold millions of findings.
    static func permute<Element>(_ elements: inout [Element], into order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] {
            var current = start
            while order[current] != start {
                elements.swapAt(current, order[current])
                placed[current] = true
                current = order[current]
            }
            placed[current] = true
        }
    }

    /// Reconciles the sources, which must already be read with the same rules.
    public func reconcile(_ unordered: [SourceData]) -> Reconciliation {
        var durations: [(phase: String, seconds: Double)] = []
        return reconcile(unordered, durations: &durations)
    }

    /// Reconciles the sources, adding the time each phase took to `durations`: "identify" (joining rows into
    /// assets), "merge" (choosing each field's value) and "reconcile" (finding what is wrong).
    public func reconcile(_ unordered: [SourceData], durations: inout [(phase: String, seconds: Double)])
        -> Reconciliation
    {
        let sources = SourceRole.allCases.flatMap { role in unordered.filter { $0.file.role == role } }
        var run = Run(sources: sources, rules: rules, durations: &durations)
        let clock = ContinuousClock()
        let start = clock.now
        let reconciliation = run.finish()
        durations.append(("reconcile", Self.seconds(clock.now - start)))
        return reconciliation
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The findings of a chunk of assets, and the assets they put in dispute.
private struct AssetFindings {
    var found: [Discrepancy] = []
    var disputed: [Int] = []
}

/// The working state of one reconciliation.
private struct Run {
    let sources: [SourceData]
    let rules: ReconciliationRules
    var graph: AssetGraph
    let merger: AssetMerger
    /// Each asset's rows sorted in source order.
    let members: AssetMembers
    /// The role of each source.
    let sourceRoles: [SourceRole]
    /// The roles of each asset's rows, one bit per `SourceRole` (see `mask(_:)`).
    let roles: [UInt8]
    var merged: [AssetValues] = []
    var found: [Discrepancy] = []
    /// Assets with an identity or field dispute (their cleaned status is `conflict`).
    var disputed: [Bool]
    /// Central assets no sighting matched, by tag.
    var unseen: [VTTag: Int] = [:]
    /// Whether each asset is in `unseen`.
    var isUnseen: [Bool]
    /// Tagged assets absent from central, sorted by tag.
    var unrecorded: [Int] = []
    /// For the central asset of each POSSIBLE_TYPO pair, the scanned (unrecorded) asset and the edit between the tags.
    var typoOfCentral: [Int: (scanned: Int, edit: String)] = [:]
    /// For the scanned asset of each POSSIBLE_TYPO pair, its central asset. A scanned tag is no asset of its own.
    var centralOfTypo: [Int: Int] = [:]
    /// For the central asset of each POSSIBLE_TYPO pair, the serials and MACs both tags carry, with the rows that
    /// also carry them and could be matched to neither: part of the pair's finding, not SHARED_SERIAL or SHARED_MAC.
    var typoShared: [Int: [(field: CanonicalField, key: String, stray: [RecordReference])]] = [:]

    init(sources: [SourceData], rules: ReconciliationRules, durations: inout [(phase: String, seconds: Double)]) {
        self.sources = sources
        self.rules = rules
        let clock = ContinuousClock()
        var start = clock.now
        graph = AssetGraph(sources: sources, fallbackIdentifiers: rules.fallbackIdentifiers)
        merger = AssetMerger(sources: sources, precedence: rules.precedence)
        members = graph.members
        sourceRoles = sources.map(\.file.role)
        let masks = sources.map { Run.mask($0.file.role) }
        roles = members.map { references in references.reduce(0) { $0 | masks[Int($1.source)] } }
        durations.append(("identify", Reconciler.seconds(clock.now - start)))
        start = clock.now
        let merger = merger
        let members = members
        merged = Parallel.map(members.count) { merger.merge(members[$0]) }
        disputed = Array(repeating: false, count: members.count)
        isUnseen = Array(repeating: false, count: members.count)
        durations.append(("merge", Reconciler.seconds(clock.now - start)))
    }

    /// The bit of `role` in `roles`.
    static func mask(_ role: SourceRole) -> UInt8 {
        switch role {
        case .central: 1
        case .sighting: 2
        case .register: 4
        }
    }

    func role(_ reference: RecordReference) -> SourceRole { sourceRoles[Int(reference.source)] }
    func values(_ reference: RecordReference) -> AssetValues { merger.values(of: reference) }
    func location(_ reference: RecordReference) -> SourceLocation { merger.location(of: reference) }
    func isCentral(_ asset: Int) -> Bool { roles[asset] & Run.mask(.central) != 0 }
    func isSighted(_ asset: Int) -> Bool { roles[asset] & Run.mask(.sighting) != 0 }

    mutating func finish() -> Reconciliation {
        let tagged = graph.tags.indices.filter { graph.tags[$0] != nil }
        // Sized for one finding per asset, so a sheet where every asset is MISSING does not grow the list by doubling.
        found.reserveCapacity(tagged.count + graph.count / 8)
        pairTypos(tagged)
        findShared(.serialNumber, code: .sharedSerial)
        findShared(.macAddress, code: .sharedMAC)
        findShared(.cnsNumber, code: .cnsReused)
        // Nothing below looks identifiers up; their indexes go before the per-asset findings are built.
        graph.releaseIdentifierIndexes()
        // Each asset's own findings depend on nothing another asset's find: chunks of assets run on all cores, and
        // their findings are joined in asset order, as one loop would list them.
        let chunks = Parallel.chunked(tagged.count) { range in
            var findings = AssetFindings()
            for asset in tagged[range] {
                findDuplicateTag(asset, into: &findings)
                findTagCNSMismatch(asset, into: &findings)
                findFieldConflicts(asset, into: &findings)
                findNoCNS(asset, into: &findings)
                findStale(asset, into: &findings)
            }
            return findings
        }
        for chunk in chunks {
            found.append(contentsOf: chunk.found)
            for asset in chunk.disputed { disputed[asset] = true }
        }
        findMissingAndUnrecorded()
        findNoTag()
        findRowIssues()
        findRepeatedRows()
        // Sorting positions, not the discrepancies themselves, avoids copying each one many times.
        let keys = found.indices.map { index in
            (
                severity: found[index].code.severity.rank, code: found[index].code.rank,
                tag: found[index].vtTag?.number ?? UInt64.max
            )
        }
        let order = found.indices.sorted { left, right in
            if keys[left] != keys[right] { return keys[left] < keys[right] }
            return Discrepancy.listedBefore(found[left], found[right])
        }
        Reconciler.permute(&found, into: order)
        var sourceLists: [UInt64: String] = [:]
        // The scanned tag of a POSSIBLE_TYPO pair is not an asset of its own: its rows are named in the finding.
        let byTag = tagged.filter { centralOfTypo[$0] == nil }.sorted { graph.tags[$0]! < graph.tags[$1]! }
        // The merged values move into the cleaned assets: a million assets' values are never held twice. The array
        // is taken out of `self` first, so changing one element never copies the whole array.
        var values = merged
        merged = []
        var assets: [CleanedAsset] = []
        assets.reserveCapacity(byTag.count)
        for asset in byTag {
            var taken = AssetValues()
            swap(&taken, &values[asset])
            assets.append(
                CleanedAsset(
                    values: taken, status: status(of: asset),
                    sourceList: sourceList(members[asset], cache: &sourceLists)
                ))
        }
        let inputs = sources.map { source in
            Reconciliation.Input(
                file: source.file, rows: source.rowCount, delimiter: source.delimiter,
                unmapped: source.layout.unmapped, notes: source.layout.notes)
        }
        return Reconciliation(assets: assets, discrepancies: found, inputs: inputs, asOf: rules.asOf)
    }

    // MARK: - Identity

    private func findDuplicateTag(_ asset: Int, into findings: inout AssetFindings) {
        let tag = graph.tags[asset]!
        for field in [CanonicalField.serialNumber, .macAddress] {
            guard merger.differ(in: field, among: members[asset]) else { continue }
            let distinct = distinctValues(field, of: members[asset])
            guard distinct.count > 1 else { continue }
            findings.disputed.append(asset)
            let noun = field == .serialNumber ? "serial" : "MAC"
            let devices = distinct.map { "\(noun) \($0.text) in \(SourceLocation.spoken($0.locations))" }
            findings.found.append(
                Discrepancy(
                    code: .duplicateTag, vtTag: tag, cnsNumber: merged[asset].cnsNumber,
                    serialNumber: merged[asset].serialNumber, macAddress: merged[asset].macAddress, field: field,
                    value: Self.valueList(distinct.dropFirst().map(\.text)), expected: distinct[0].text,
                    sources: distinct.flatMap(\.locations).sorted(),
                    message: "VT tag \(tag) is on \(distinct.count == 2 ? "two" : "\(distinct.count)") devices: "
                        + Self.itemList(devices, distinct) + ". Check which device carries the sticker."))
            return
        }
    }

    private func findTagCNSMismatch(_ asset: Int, into findings: inout AssetFindings) {
        let tag = graph.tags[asset]!
        guard merger.differ(in: .cnsNumber, among: members[asset]) else { return }
        let distinct = distinctValues(.cnsNumber, of: members[asset])
        guard distinct.count > 1 else { return }
        findings.disputed.append(asset)
        let pairs = distinct.map { "CNS \($0.text) in \(SourceLocation.spoken($0.locations))" }
        findings.found.append(
            Discrepancy(
                code: .tagCNSMismatch, vtTag: tag, cnsNumber: merged[asset].cnsNumber,
                serialNumber: merged[asset].serialNumber, macAddress: merged[asset].macAddress, field: .cnsNumber,
                value: Self.valueList(distinct.dropFirst().map(\.text)), expected: distinct[0].text,
                sources: distinct.flatMap(\.locations).sorted(),
                message: "VT tag \(tag) is paired with " + Self.itemList(pairs, distinct)
                    + ". Check the CNS label on the device and correct the wrong record."))
    }

    /// Distinct values of an identity field in source order, with the rows carrying each.
    private func distinctValues(_ field: CanonicalField, of references: ArraySlice<RecordReference>)
        -> [AssetMerger.FieldValue]
    {
        var distinct: [AssetMerger.FieldValue] = []
        var positions: [String: Int] = [:]
        for reference in references where values(reference).has(field) {
            let text = values(reference).text(field)
            if let index = positions[text] {
                distinct[index].locations.append(location(reference))
            } else {
                positions[text] = distinct.count
                distinct.append(.init(text: text, locations: [location(reference)]))
            }
        }
        return distinct
    }

    private mutating func findShared(_ field: CanonicalField, code: DiscrepancyCode) {
        let index: [(key: String, assets: [Int])]
        switch field {
        case .serialNumber: index = graph.serialIndex.sharedInOrder.map { ($0.description, $1) }
        case .macAddress: index = graph.macIndex.sharedInOrder.map { ($0.description, $1) }
        default: index = graph.cnsIndex.sharedInOrder.map { ($0.description, $1) }
        }
        var unplacedByValue: [String: [RecordReference]] = [:]
        for row in graph.unplaced where row.field == field {
            unplacedByValue[values(row.reference).text(field), default: []].append(row.reference)
        }
        for (key, assets) in index where assets.count > 1 {
            let stray = unplacedByValue[key] ?? []
            // A serial or MAC on both tags of a POSSIBLE_TYPO pair and nowhere else: one device, and one finding.
            if field != .cnsNumber, assets.count == 2,
                let central = centralOfTypo[assets[0]] ?? centralOfTypo[assets[1]],
                assets.contains(central)
            {
                typoShared[central, default: []].append((field, key, stray))
                continue
            }
            let ordered = assets.sorted { describe($0) < describe($1) }
            for asset in ordered { disputed[asset] = true }
            let holders = ordered.map { asset -> String in
                let rows = members[asset].filter { values($0).text(field) == key }.map(location)
                return "\(describe(asset)) (\(SourceLocation.spoken(rows)))"
            }
            var message =
                "\(field.spokenName.capitalizedFirst) \(key) is on " + Self.sentenceList(Self.shortened(holders)) + "."
            if !stray.isEmpty {
                message += " \(SourceLocation.spoken(stray.map(location))) also carries it and could not be matched."
            }
            message += " A \(field.spokenName) belongs to one device: check the devices and correct the wrong record."
            var discrepancy = Discrepancy(
                code: code, vtTag: graph.tags[ordered[0]] ?? nil, field: field,
                value: Self.valueList(ordered.dropFirst().map(describeShort)),
                sources: (ordered.flatMap { asset in
                    members[asset].filter { values($0).text(field) == key }.map(location)
                } + stray.map(location)).sorted(),
                message: message)
            switch field {
            case .serialNumber: discrepancy.serialNumber = SerialNumber(canonical: key)
            case .macAddress: discrepancy.macAddress = macValue(key)
            default: discrepancy.cnsNumber = cnsValue(key)
            }
            found.append(discrepancy)
        }
    }

    private func macValue(_ text: String) -> MACAddress? { MACAddress.normalize(text).value }
    private func cnsValue(_ text: String) -> CNSNumber? { CNSNumber.normalize(text, digits: rules.cnsDigits).value }

    /// "VT tag 004512", or "the untagged device with serial X" for tag-less assets.
    private func describe(_ asset: Int) -> String {
        if let tag = graph.tags[asset] { return "VT tag \(tag)" }
        return "the untagged device " + identity(merged[asset])
    }

    private func describeShort(_ asset: Int) -> String {
        graph.tags[asset]?.description ?? identity(merged[asset])
    }

    private func identity(_ values: AssetValues) -> String {
        var parts: [String] = []
        if let serial = values.serialNumber { parts.append("serial \(serial)") }
        if let mac = values.macAddress { parts.append("MAC \(mac)") }
        if parts.isEmpty, let cns = values.cnsNumber { parts.append("CNS \(cns)") }
        return parts.joined(separator: " and ")
    }

    // MARK: - Presence

    /// Sorts the tagged assets into unseen central ones and unrecorded ones, and pairs each unrecorded tag one edit
    /// from an unseen central tag (in the same building when both have one) as a possible typo. Runs before shared
    /// identifiers are looked for, so that a serial or MAC both tags of a pair carry is part of the pair's finding.
    private mutating func pairTypos(_ tagged: [Int]) {
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

    private mutating func findMissingAndUnrecorded() {
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
    private func status(of asset: Int) -> AssetStatus {
        if !isCentral(asset) { return .unrecorded }
        if isUnseen[asset] { return typoOfCentral[asset] == nil ? .missing : .typo }
        return disputed[asset] ? .conflict : .ok
    }

    private mutating func findNoTag() {
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

    private func findNoCNS(_ asset: Int, into findings: inout AssetFindings) {
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

    private func findStale(_ asset: Int, into findings: inout AssetFindings) {
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

    // MARK: - Fields

    private func findFieldConflicts(_ asset: Int, into findings: inout AssetFindings) {
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

    // MARK: - Rows

    private mutating func findRowIssues() {
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
            let subject: String
            var message: String
            var place = SourceLocation.spoken(locations)
            if issue.kind == .damagedText, locations.count == 1 { place += " (line \(issue.line))" }
            let owner = tag.map { " (VT tag \($0))" } ?? ""
            switch issue.kind {
            case .raggedRow, .noIdentifier:
                message =
                    "\(place)\(owner) \(issue.reason). "
                    + (issue.kind == .raggedRow
                        ? "The row was read as far as its cells go." : "Add an identifier or remove the row.")
            case .unknownBuilding:
                message =
                    "The building \"\(issue.value)\" in \(place)\(owner) is not in the buildings table. "
                    + "Correct the building or add it to the buildings table."
            case .invalidValue, .damagedText:
                subject = issue.field?.spokenName ?? issue.column.map { "cell in column \"\($0)\"" } ?? "cell"
                message =
                    "The \(subject) \"\(issue.value)\" in \(place)\(owner) \(issue.reason). "
                    + (issue.kind == .damagedText ? "Check the cell." : "It was left out; correct the cell.")
            }
            found.append(
                Discrepancy(
                    code: key.code, vtTag: tag, cnsNumber: tag == nil ? rowValues.cnsNumber : nil,
                    serialNumber: tag == nil ? rowValues.serialNumber : nil,
                    macAddress: tag == nil ? rowValues.macAddress : nil, field: issue.field, value: issue.value,
                    sources: locations, message: message))
        }
    }

    private mutating func findRepeatedRows() {
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
                        ],
                        message: "\(name) row \(repeated.row) repeats row \(first.row) exactly; it was counted once. "
                            + "Remove the repeated row."))
            }
        }
    }

    // MARK: - Helpers

    /// The `sources` cell of an asset: its files in source order. Assets seen in the same files share one string.
    private func sourceList(_ references: ArraySlice<RecordReference>, cache: inout [UInt64: String]) -> String {
        // Rows are in source order, so the files are too; up to 64 files are one bit each, a key without allocation.
        guard sources.count <= 64 else {
            var files: [Int32] = []
            for reference in references where files.last != reference.source { files.append(reference.source) }
            return files.map { sources[Int($0)].file.displayName }.joined(separator: "; ")
        }
        var key: UInt64 = 0
        for reference in references { key |= 1 << UInt64(reference.source) }
        if let known = cache[key] { return known }
        var names: [String] = []
        for source in sources.indices where key & (1 << UInt64(source)) != 0 {
            names.append(sources[source].file.displayName)
        }
        let list = names.joined(separator: "; ")
        cache[key] = list
        return list
    }

    /// Items that each name their rows: joined with "and" while every item has one row, else with semicolons so
    /// the rows of one item do not run into the next.
    static func itemList(_ parts: [String], _ values: [AssetMerger.FieldValue]) -> String {
        guard values.contains(where: { $0.locations.count > 1 }) else { return sentenceList(shortened(parts)) }
        return shortened(parts).joined(separator: "; ")
    }

    /// Items of a message, at most `limit` of them and a count of the rest, so a message stays readable (and far
    /// below a spreadsheet cell's 32,767 characters) when thousands of rows share a value.
    static func shortened(_ parts: [String], limit: Int = 6) -> [String] {
        guard parts.count > limit + 1 else { return parts }
        return Array(parts.prefix(limit)) + ["\(parts.count - limit) more"]
    }

    /// The `value` or `expected` cell for several values: `a; b; c`, shortened after 20 values.
    static func valueList(_ values: [String]) -> String {
        let limit = 20
        guard values.count > limit + 1 else { return values.joined(separator: "; ") }
        return values.prefix(limit).joined(separator: "; ") + "; and \(values.count - limit) more"
    }

    static func sentenceList(_ parts: [String]) -> String {
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}

extension String {
    /// The string with its first letter upper-cased ("serial number" → "Serial number").
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
