/// Chooses each field's cleaned value from an asset's rows, following DOMAIN.md "Field values".
///
/// Identity fields take the first value in source order (central first). Other fields take the value of the most
/// authoritative source: by default sightings, then registers, in the order given, with central last; an account
/// may order sources per field. `last_seen` is the newest sighting date (or, without one, the newest date of any
/// source). Latitude and longitude are taken together from one row.
struct AssetMerger {
    /// One distinct value of a field on an asset, with the rows that carry it.
    typealias FieldValue = FindingValue

    private let sources: [SourceData]
    /// Each source's rows, read in place. `sources` owns their storage and never changes it, so it stays where it is
    /// for as long as the merger lives.
    private let records: [SourceRows.View]
    /// For each field (by its position in `CanonicalField.allCases`), the rank of each source (lower wins).
    private let ranks: [[Int]]

    init(sources: [SourceData], precedence: [CanonicalField: FieldPrecedence]) {
        self.sources = sources
        records = sources.map(\.records.view)
        var defaultRanks: [Int] = []
        for (index, source) in sources.enumerated() {
            defaultRanks.append(source.file.role == .central ? sources.count + index : index)
        }
        ranks = CanonicalField.allCases.map { field in
            guard let order = precedence[field] else { return defaultRanks }
            return sources.indices.map { index in
                order.rank(of: sources[index].file).map { $0 - 1000 } ?? defaultRanks[index]
            }
        }
    }

    /// The packed values of the row `reference` points at, read in place.
    @inline(__always)
    func packed(_ reference: RecordReference) -> PackedValues {
        records[Int(reference.source)].packed(at: Int(reference.record))
    }

    /// Whether the row has a value for `field`; reads the one field, without unpacking the row.
    func has(_ field: CanonicalField, in reference: RecordReference) -> Bool {
        packed(reference).only(field).has(field)
    }

    /// The text of `field` in the row, as its values give it (`AssetValues.text(_:)`); reads the one field.
    func text(_ field: CanonicalField, of reference: RecordReference) -> String {
        packed(reference).only(field).text(field)
    }

    /// Whether two rows hold the same value of `field` (both absent counts as the same), as their values compare;
    /// reads the one field of each, and texts only when their keys differ (other Unicode forms of one text are equal).
    func same(_ field: CanonicalField, _ left: RecordReference, _ right: RecordReference) -> Bool {
        let packedOne = packed(left)
        let packedOther = packed(right)
        if let key = packedOne.textKey(of: field), key == packedOther.textKey(of: field) { return true }
        // Values holding the one field each compare as that field does.
        return packedOne.only(field) == packedOther.only(field)
    }

    /// Whether the rows among `members` that have `field` hold two or more different values of it.
    func differ<Members: Collection<RecordReference>>(in field: CanonicalField, among members: Members) -> Bool {
        var first: RecordReference?
        for reference in members where has(field, in: reference) {
            guard let first else {
                first = reference
                continue
            }
            if !same(field, first, reference) { return true }
        }
        return false
    }

    func location(of reference: RecordReference) -> SourceLocation {
        let source = sources[Int(reference.source)]
        return SourceLocation(
            file: source.file.displayName, row: Int(records[Int(reference.source)].row(at: Int(reference.record))))
    }

    /// The bit of `field` in the `differing` set `merge(checking:)` returns.
    static func bit(_ field: CanonicalField) -> UInt16 { 1 << UInt16(position(of: field)) }

    /// Starts fetching the rows of `members` without waiting for them: merging goes through the assets in order,
    /// but an asset's rows lie anywhere in up to fourteen files, so each is a wait for memory in a large account.
    /// Asking for an asset's rows a few assets ahead makes those waits overlap.
    func prefetch<Members: Collection<RecordReference>>(_ members: Members) {
        for reference in members {
            let rows = records[Int(reference.source)]
            let start = rows.address(of: Int(reference.record))
            Prefetch.line(at: start)
            // A row spans two cache lines when it does not start a line.
            Prefetch.line(at: start + rows.stride - 1)
        }
    }

    /// Whether merging and the per-asset checks of `assetCount` assets fetch the rows of the assets a few ahead
    /// (`prefetch(_:)`). Up to `assetsInCache` assets they do not: the rows, up to 100 bytes each and six or seven per
    /// asset, are then little more than a core's cache, and prefetching them cost a 3,000-asset account more than it
    /// saved.
    static func prefetches(assetCount: Int) -> Bool {
        assetCount > assetsInCache
    }
    static let assetsInCache = 4096

    /// The merged values of an asset whose rows are `members` (in source order), packed (its texts stay ids in
    /// `SharedTexts` until a table writes them), and the fields whose rows hold two or more different values (one bit per field, see `bit(_:)`), in one pass over the rows.
    ///
    /// Each row is visited once and all its fields are read together: an asset's rows lie in up to fourteen files,
    /// and a pass per field would fetch each row from memory again for every field.
    func merge<Members: Collection<RecordReference>>(checking members: Members) -> (
        values: PackedValues, differing: UInt16
    ) {
        var merged = PackedValues()
        var differing: UInt16 = 0
        // Texts are compared and chosen by their ids in `SharedTexts` (equal bytes, equal id) and stay ids. Ids that
        // differ for texts Swift calls equal (other Unicode forms of one text) only send the asset to the checks that
        // compare texts.
        // The first row's text of each field, to tell when another row holds a different one.
        var first = PackedValues()
        var firstLatitude: Double?
        var firstLongitude: Double?
        var firstSeen: InventoryDate?
        var firstCost: UnitCost?
        // The rank of the row each value came from: model, description, building, room, mount, custodian, stock
        // number, the position, and the cost.
        var best = (Int.max, Int.max, Int.max, Int.max, Int.max, Int.max, Int.max, Int.max, Int.max)
        var sighted: InventoryDate?
        var any: InventoryDate?
        for reference in members {
            let source = Int(reference.source)
            let row = packed(reference)
            // Identity fields: the first value in source order is the merged one.
            Self.first(row.vtTag, &merged.vtTag, 0, &differing)
            Self.first(row.cnsNumber, &merged.cnsNumber, 1, &differing)
            Self.firstKept(row.serialCode, absent: .none, &merged.serialCode, 2, &differing)
            Self.first(row.macAddress, &merged.macAddress, 3, &differing)
            // Other fields: the value of the best-ranked source, the first among equals.
            take(row.model, &merged.model, &first.model, &best.0, 4, source, &differing)
            take(row.description, &merged.description, &first.description, &best.1, 5, source, &differing)
            take(row.building, &merged.building, &first.building, &best.2, 6, source, &differing)
            take(row.room, &merged.room, &first.room, &best.3, 7, source, &differing)
            take(row.mount, &merged.mount, &first.mount, &best.4, 8, source, &differing)
            take(row.custodian, &merged.custodian, &first.custodian, &best.5, 9, source, &differing)
            take(row.stockNumber, &merged.stockNumber, &first.stockNumber, &best.6, 13, source, &differing)
            let latitude = row.latitude
            let longitude = row.longitude
            Self.first(latitude, &firstLatitude, 10, &differing)
            Self.first(longitude, &firstLongitude, 11, &differing)
            // Latitude and longitude come together from one row: the best-ranked row that has both.
            if let latitude, let longitude, ranks[10][source] < best.7 {
                best.7 = ranks[10][source]
                merged.latitude = latitude
                merged.longitude = longitude
            }
            if let cost = row.cost {
                Self.first(cost, &firstCost, 14, &differing)
                if ranks[14][source] < best.8 {
                    best.8 = ranks[14][source]
                    merged.cost = cost
                }
            }
            if let date = row.lastSeen {
                Self.first(date, &firstSeen, 12, &differing)
                if any.map({ date > $0 }) ?? true { any = date }
                if sources[source].file.role == .sighting, sighted.map({ date > $0 }) ?? true { sighted = date }
            }
        }
        merged.lastSeen = sighted ?? any
        return (merged, differing)
    }

    /// Keeps the first text of an identity field, and notes when a later row holds another.
    @inline(__always)
    private static func firstText(_ id: Int32, _ kept: inout Int32, _ position: Int, _ differing: inout UInt16) {
        firstKept(id, absent: -1, &kept, position, &differing)
    }

    /// Keeps the first value of a field that is `absent` when a row has none, and notes when a later row holds
    /// another.
    @inline(__always)
    private static func firstKept<Value: Equatable>(
        _ value: Value, absent: Value, _ kept: inout Value, _ position: Int, _ differing: inout UInt16
    ) {
        guard value != absent else { return }
        if kept == absent {
            kept = value
        } else if kept != value {
            // A field's position is below 16 (`position(of:)`): the shift needs no check.
            differing |= 1 &<< UInt16(position)
        }
    }

    /// Keeps the first value of a field (for an identity field, the merged one), and notes when a later row holds
    /// another.
    @inline(__always)
    private static func first<Value: Equatable>(
        _ value: Value?, _ merged: inout Value?, _ position: Int, _ differing: inout UInt16
    ) {
        guard let value else { return }
        guard let kept = merged else {
            merged = value
            return
        }
        if kept != value { differing |= 1 &<< UInt16(position) }
    }

    /// Takes the text of a best-ranked source, and notes when rows hold different texts.
    @inline(__always)
    private func take(
        _ id: Int32, _ chosen: inout Int32, _ first: inout Int32, _ best: inout Int, _ position: Int, _ source: Int,
        _ differing: inout UInt16
    ) {
        guard id >= 0 else { return }
        Self.firstText(id, &first, position, &differing)
        let rank = ranks[position][source]
        if rank < best {
            best = rank
            chosen = id
        }
    }

    /// The merged values of an asset whose rows are `members`, sorted in source order.
    func merge<Members: Collection<RecordReference>>(_ members: Members) -> AssetValues {
        var merged = AssetValues()
        for field in [CanonicalField.vtTag, .cnsNumber, .serialNumber, .macAddress] {
            if let first = members.first(where: { has(field, in: $0) }) { copy(field, from: first, into: &merged) }
        }
        for field in [CanonicalField.model, .description, .building, .room, .mount, .custodian, .stockNumber, .cost] {
            if let winner = best(members, having: field) { copy(field, from: winner, into: &merged) }
        }
        if let winner = best(members, having: .latitude, and: .longitude) {
            copy(.latitude, from: winner, into: &merged)
            copy(.longitude, from: winner, into: &merged)
        }
        var sighted: InventoryDate?
        var any: InventoryDate?
        for reference in members {
            guard let date = packed(reference).lastSeen else { continue }
            if any.map({ date > $0 }) ?? true { any = date }
            if sources[Int(reference.source)].file.role == .sighting, sighted.map({ date > $0 }) ?? true {
                sighted = date
            }
        }
        merged.lastSeen = sighted ?? any
        return merged
    }

    /// Copies one field of a row into `merged`, reading only that field.
    private func copy(_ field: CanonicalField, from reference: RecordReference, into merged: inout AssetValues) {
        packed(reference).copy(field, into: &merged)
    }

    /// The distinct values of `field` among `members`, the winning value first, when there are two or more.
    func conflict<Members: Collection<RecordReference>>(in field: CanonicalField, among members: Members)
        -> [FieldValue]?
    {
        // Nearly every asset agrees with itself: telling so costs a comparison per row, not a text per row.
        guard differ(in: field, among: members) else { return nil }
        let rank = ranks[Self.position(of: field)]
        let ordered = members.filter { has(field, in: $0) }.sorted {
            rank[Int($0.source)] < rank[Int($1.source)]
        }
        guard ordered.count > 1 else { return nil }
        var distinct: [FieldValue] = []
        // Positions by text keep this linear when one tag has thousands of rows (a filled-down tag column).
        var positions: [String: Int] = [:]
        for reference in ordered {
            let text = text(field, of: reference)
            if let index = positions[text] {
                distinct[index].locations.append(location(of: reference))
            } else {
                positions[text] = distinct.count
                distinct.append(FieldValue(text: text, locations: [location(of: reference)]))
            }
        }
        return distinct.count > 1 ? distinct : nil
    }

    private func best<Members: Collection<RecordReference>>(
        _ members: Members, having field: CanonicalField, and other: CanonicalField? = nil
    ) -> RecordReference? {
        let rank = ranks[Self.position(of: field)]
        var winner: RecordReference?
        for reference in members {
            guard has(field, in: reference), other.map({ has($0, in: reference) }) ?? true else { continue }
            if let current = winner, rank[Int(current.source)] <= rank[Int(reference.source)] { continue }
            winner = reference
        }
        return winner
    }

    /// The field's position in `CanonicalField.allCases`.
    private static func position(of field: CanonicalField) -> Int {
        switch field {
        case .vtTag: 0
        case .cnsNumber: 1
        case .serialNumber: 2
        case .macAddress: 3
        case .model: 4
        case .description: 5
        case .building: 6
        case .room: 7
        case .mount: 8
        case .custodian: 9
        case .latitude: 10
        case .longitude: 11
        case .lastSeen: 12
        case .stockNumber: 13
        case .cost: 14
        }
    }
}
