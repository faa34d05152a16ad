/// Chooses each field's cleaned value from an asset's rows, following DOMAIN.md "Field values".
///
/// Identity fields take the first value in source order (central first). Other fields take the value of the most
/// authoritative source: by default sightings, then registers, in the order given, with central last; an account
/// may order sources per field. `last_seen` is the newest sighting date (or, without one, the newest date of any
/// source). Latitude and longitude are taken together from one row.
struct AssetMerger {
    /// One distinct value of a field on an asset, with the rows that carry it.
    struct FieldValue {
        var text: String
        var locations: [SourceLocation]
    }

    private let sources: [SourceData]
    /// For each field, the rank of each source (lower wins).
    private let ranks: [CanonicalField: [Int]]

    init(sources: [SourceData], precedence: [CanonicalField: FieldPrecedence]) {
        self.sources = sources
        var defaultRanks: [Int] = []
        for (index, source) in sources.enumerated() {
            defaultRanks.append(source.file.role == .central ? sources.count + index : index)
        }
        var ranks: [CanonicalField: [Int]] = [:]
        for field in CanonicalField.allCases {
            guard let order = precedence[field] else {
                ranks[field] = defaultRanks
                continue
            }
            ranks[field] = sources.indices.map { index in
                order.rank(of: sources[index].file).map { $0 - 1000 } ?? defaultRanks[index]
            }
        }
        self.ranks = ranks
    }

    func values(of reference: RecordReference) -> AssetValues {
        sources[Int(reference.source)].records[Int(reference.record)].values
    }

    func location(of reference: RecordReference) -> SourceLocation {
        let source = sources[Int(reference.source)]
        return SourceLocation(file: source.file.displayName, row: Int(source.records[Int(reference.record)].row))
    }

    /// The merged values of an asset whose rows are `members`, sorted in source order.
    func merge(_ members: [RecordReference]) -> AssetValues {
        var merged = AssetValues()
        for field in [CanonicalField.vtTag, .cnsNumber, .serialNumber, .macAddress] {
            if let first = members.first(where: { values(of: $0).has(field) }) {
                merged.copy(field, from: values(of: first))
            }
        }
        for field in [CanonicalField.model, .description, .building, .room, .mount, .custodian, .stockNumber] {
            if let winner = best(members, having: field) { merged.copy(field, from: values(of: winner)) }
        }
        if let winner = best(members, having: .latitude, and: .longitude) {
            merged.latitude = values(of: winner).latitude
            merged.longitude = values(of: winner).longitude
        }
        let sighted = members.filter { sources[Int($0.source)].file.role == .sighting }
        merged.lastSeen =
            sighted.compactMap { values(of: $0).lastSeen }.max()
            ?? members.compactMap { values(of: $0).lastSeen }.max()
        return merged
    }

    /// The distinct values of `field` among `members`, the winning value first, when there are two or more.
    func conflict(in field: CanonicalField, among members: [RecordReference]) -> [FieldValue]? {
        guard let rank = ranks[field] else { return nil }
        let ordered = members.filter { values(of: $0).has(field) }.sorted {
            rank[Int($0.source)] < rank[Int($1.source)]
        }
        guard ordered.count > 1 else { return nil }
        var distinct: [FieldValue] = []
        // Positions by text keep this linear when one tag has thousands of rows (a filled-down tag column).
        var positions: [String: Int] = [:]
        for reference in ordered {
            let text = values(of: reference).text(field)
            if let index = positions[text] {
                distinct[index].locations.append(location(of: reference))
            } else {
                positions[text] = distinct.count
                distinct.append(FieldValue(text: text, locations: [location(of: reference)]))
            }
        }
        return distinct.count > 1 ? distinct : nil
    }

    private func best(_ members: [RecordReference], having field: CanonicalField, and other: CanonicalField? = nil)
        -> RecordReference?
    {
        guard let rank = ranks[field] else { return nil }
        var winner: RecordReference?
        for reference in members {
            let candidate = values(of: reference)
            guard candidate.has(field), other.map(candidate.has) ?? true else { continue }
            if let current = winner, rank[Int(current.source)] <= rank[Int(reference.source)] { continue }
            winner = reference
        }
        return winner
    }
}
