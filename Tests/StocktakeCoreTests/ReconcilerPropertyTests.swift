import Testing

@testable import StocktakeCore

/// A small, fast, seeded random number generator (SplitMix64), so every run generates the same accounts.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }

    /// True with probability `chance`.
    mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }

    mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices.randomElement(using: &self)!
    }
}

/// Builds random small accounts whose identifiers collide on purpose: a dozen tags share ten serials, ten MACs and
/// eight CNS numbers, written in the harmless variants a real account has, with some bad cells and repeated rows.
struct RandomAccount {
    var random: SeededRandom

    static let optionalColumns = ["CNS #", "Serial", "MAC", "Model", "Bldg", "Room", "Custodian", "Scanned At"]

    mutating func tag() -> String {
        let number = 4500 + Int.random(in: 0..<12, using: &random)
        return random.pick([
            "00\(number)", "\(number)", "VT-\(number)", "\(number).0", random.chance(0.3) ? "4.51E+03" : "",
        ])
    }

    mutating func cell(_ column: String) -> String {
        guard random.chance(0.7) else { return random.pick(["", "N/A"]) }
        let index = Int.random(in: 1...10, using: &random)
        switch column {
        case "VT Tag", "P-Tag": return tag()
        case "CNS #": return random.pick(["C00000\(index % 8)", "c-\(index % 8)", "\(index % 8)"])
        case "Serial": return random.pick(["SN\(index)", "sn \(index)", random.chance(0.2) ? "00000" : "SN\(index)"])
        case "MAC":
            let hex = String(index, radix: 16)
            return random.pick(["aa:bb:cc:dd:ee:0\(hex)", "AA-BB-CC-DD-EE-0\(hex)", random.chance(0.2) ? "bad" : ""])
        case "Model": return random.pick(["AP-515", "ap-515", "AP-635"])
        case "Bldg": return random.pick(["BUR", "TORG", "burruss hall", random.chance(0.3) ? "ZZB" : "BUR"])
        case "Room": return random.pick(["101", "102", "1 01"])
        case "Custodian": return random.pick(["jdoe", "asmith"])
        default: return random.pick(["2026-03-0\(index % 9 + 1)", "1/2/2024", random.chance(0.2) ? "13/45/2025" : ""])
        }
    }

    /// CSV text with `header`, a few random rows, now and then a repeated row or a blank line.
    mutating func file(header: [String]) -> String {
        var rows: [String] = []
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            if !rows.isEmpty, random.chance(0.12) {
                rows.append(random.pick(rows))
            } else if random.chance(0.04) {
                rows.append("")
            } else {
                rows.append(header.map { cell($0) }.joined(separator: ","))
            }
        }
        return ([header.joined(separator: ",")] + rows).joined(separator: "\n")
    }

    mutating func header(tagged: Bool) -> [String] {
        var header = tagged ? ["P-Tag"] : []
        header += Self.optionalColumns.filter { _ in random.chance(0.5) }
        // A source without an identifier column is refused before reconciling (exit 65), so each has one.
        if !header.contains(where: ["P-Tag", "CNS #", "Serial", "MAC"].contains) { header.insert("Serial", at: 0) }
        return header
    }

    mutating func fixture() -> ReconcileFixture {
        var fixture = ReconcileFixture(central: file(header: ["VT Tag"] + Self.optionalColumns.dropLast()))
        for index in 0..<Int.random(in: 1...3, using: &random) {
            fixture.sighting("sighting_\(index).csv", file(header: header(tagged: random.chance(0.7))))
        }
        for index in 0..<Int.random(in: 0...2, using: &random) {
            fixture.register("register_\(index).csv", file(header: header(tagged: random.chance(0.5))))
        }
        fixture.rules.tagDigits = random.pick([6, 6, 6, 7])
        fixture.rules.cnsDigits = random.pick([6, 6, 6, 7])
        fixture.rules.precedence = random.pick([
            [:], [:], [.room: FieldPrecedence(["central"])],
            [.model: FieldPrecedence(["register", "sighting_1"]), .custodian: FieldPrecedence(["registers"])],
        ])
        fixture.rules.fallbackIdentifiers = random.pick([
            [.serialNumber, .macAddress, .cnsNumber], [.serialNumber, .macAddress, .cnsNumber],
            [.macAddress, .serialNumber, .cnsNumber], [.cnsNumber, .macAddress, .serialNumber], [.macAddress],
        ])
        return fixture
    }
}

@Suite("Reconciler: invariants over random accounts")
struct ReconcilerPropertyTests {
    static let accounts = 300

    /// One random account with its reconciliation and the graph its rows make.
    struct Outcome {
        var fixture: ReconcileFixture
        var sources: [SourceData]
        var result: Reconciliation
        var graph: AssetGraph
        /// Every row some discrepancy names.
        var named: Set<StocktakeCore.SourceLocation>
        /// The account's files, shown when an invariant fails.
        var context: String

        init(_ fixture: ReconcileFixture, number: Int) throws {
            self.fixture = fixture
            sources = try fixture.sources()
            result = try fixture.reconcile()
            graph = AssetGraph(sources: sources, fallbackIdentifiers: fixture.rules.fallbackIdentifiers)
            named = Set(result.discrepancies.flatMap(\.sources))
            assets = Dictionary(result.assets.map { ($0.values.vtTag!, $0) }) { first, _ in first }
            let digits = fixture.rules.tagDigits
            typos = Dictionary(
                result.discrepancies.filter { $0.code == .possibleTypo }.map {
                    (VTTag.normalize($0.value, digits: digits).value!, $0.vtTag!)
                }
            ) { first, _ in first }
            context = "account \(number): \(fixture.files.map(\.text))"
        }

        /// The cleaned assets by tag.
        var assets: [VTTag: CleanedAsset]
        /// The central tag of each POSSIBLE_TYPO, by scanned tag.
        var typos: [VTTag: VTTag]

        func asset(_ tag: VTTag?) -> CleanedAsset? {
            tag.flatMap { assets[$0] }
        }

        /// The distinct values of `field` among the rows of graph asset `asset`.
        func distinct(_ field: CanonicalField, of asset: Int) -> Set<String> {
            Set(
                graph.members[asset].map { sources[Int($0.source)].records[Int($0.record)].values.text(field) }
                    .filter { !$0.isEmpty })
        }
    }

    @Test func randomAccountsKeepTheInvariants() throws {
        var generator = RandomAccount(random: SeededRandom(seed: 2014))
        var codes: Set<DiscrepancyCode> = []
        for number in 0..<Self.accounts {
            let outcome = try Outcome(generator.fixture(), number: number)
            codes.formUnion(outcome.result.discrepancies.map(\.code))
            Self.checkNothingIsLost(outcome)
            Self.checkCleanedAssets(outcome)
            Self.checkIdentityFindings(outcome)
            Self.checkPresenceFindings(outcome)
            Self.checkWinningValues(outcome)
            Self.checkListing(outcome)
        }
        // The generator makes every case the invariants are about.
        #expect(codes == Set(DiscrepancyCode.allCases))
    }

    /// Every kept record is in the cleaned asset of its tag or named in a discrepancy; every repeated row is named
    /// by a DUPLICATE_ROW with the row it repeats; every bad cell is named; no data row is lost.
    static func checkNothingIsLost(_ outcome: Outcome) {
        let context = outcome.context
        for (sourceIndex, source) in outcome.sources.enumerated() {
            let name = source.file.displayName
            for (recordIndex, record) in source.records.enumerated() {
                let location = SourceLocation(file: name, row: Int(record.row))
                let asset = Int(outcome.graph.assetOfRecord[sourceIndex][recordIndex])
                if let recordTag = record.values.vtTag {
                    #expect(outcome.graph.tags[asset] == recordTag, "\(context)")
                }
                if asset >= 0, let tag = outcome.graph.tags[asset], outcome.typos[tag] == nil {
                    #expect(outcome.asset(tag)?.sources.contains(name) == true, "\(location) is lost in \(context)")
                } else {
                    #expect(outcome.named.contains(location), "\(location) is lost in \(context)")
                }
            }
            for repeated in source.repeatedRows {
                let first = SourceLocation(file: name, row: Int(source.records[repeated.firstRecordIndex].row))
                let again = SourceLocation(file: name, row: repeated.row)
                #expect(
                    outcome.result.found(.duplicateRow).contains { $0.sources == [first, again] },
                    "\(again) repeats \(first) in \(context)")
            }
            for issue in source.issues {
                #expect(outcome.named.contains(SourceLocation(file: name, row: issue.row)), "\(context)")
            }
            let kept = Set(source.records.map { Int($0.row) } + source.repeatedRows.map(\.row))
            for row in 1...max(1, source.rowCount) where source.rowCount > 0 {
                let location = SourceLocation(file: name, row: row)
                #expect(kept.contains(row) || outcome.named.contains(location), "\(location) is lost in \(context)")
            }
        }
    }

    /// One cleaned asset per tagged asset but the scanned tags of POSSIBLE_TYPO pairs, sorted by tag and unique, with
    /// a status that fits its files; the same input gives the same bytes.
    static func checkCleanedAssets(_ outcome: Outcome) {
        let context = outcome.context
        let tags = outcome.result.assets.map { $0.values.vtTag! }
        let tagged = outcome.graph.tags.compactMap { $0 }
        #expect(tags.count == tagged.count - outcome.typos.count, "\(context)")
        #expect(Set(tags) == Set(tagged).subtracting(outcome.typos.keys), "\(context)")
        let paired = Set(outcome.typos.values)
        #expect(zip(tags, tags.dropFirst()).allSatisfy { $0 < $1 }, "\(context)")
        let sightings = Set(outcome.sources.filter { $0.file.role == .sighting }.map(\.file.displayName))
        for asset in outcome.result.assets {
            let central = asset.sources.contains("central.csv")
            let sighted = asset.sources.contains(where: sightings.contains)
            let typo = paired.contains(asset.values.vtTag!)
            #expect((asset.status == .unrecorded) == !central, "\(context)")
            #expect((asset.status == .missing) == (central && !sighted && !typo), "\(context)")
            #expect((asset.status == .typo) == (central && !sighted && typo), "\(context)")
        }
        let again = try? outcome.fixture.reconcile()
        #expect(again.map(CleanedTable.csv) == CleanedTable.csv(outcome.result), "\(context)")
        #expect(again.map(DiscrepancyTable.csv) == DiscrepancyTable.csv(outcome.result), "\(context)")
    }

    /// DUPLICATE_TAG and TAG_CNS_MISMATCH once per tag whose rows disagree; SHARED_SERIAL, SHARED_MAC and
    /// CNS_REUSED once per identifier on several assets, except a serial or MAC on just the two tags of a
    /// POSSIBLE_TYPO pair; NO_TAG once per tag-less asset; disputed assets are `conflict` unless they are missing,
    /// unrecorded or typo.
    static func checkIdentityFindings(_ outcome: Outcome) {
        let context = outcome.context
        let result = outcome.result
        for (asset, tag) in outcome.graph.tags.enumerated() {
            guard let tag else { continue }
            let serials = outcome.distinct(.serialNumber, of: asset).count
            let macs = outcome.distinct(.macAddress, of: asset).count
            let duplicates = result.found(.duplicateTag).filter { $0.vtTag == tag }
            #expect(duplicates.count == (serials > 1 || macs > 1 ? 1 : 0), "\(tag) in \(context)")
            #expect(duplicates.first.map { $0.field == (serials > 1 ? .serialNumber : .macAddress) } ?? true)
            let pairings = result.found(.tagCNSMismatch).filter { $0.vtTag == tag }
            #expect(pairings.count == (outcome.distinct(.cnsNumber, of: asset).count > 1 ? 1 : 0), "\(context)")
        }
        /// The values on several assets, but not on just the two tags of a typo pair.
        func values<Key>(_ shared: [Key: [Int]], pairsCount: Bool) -> [String] {
            shared.filter { entry in
                let tags = Set(
                    entry.value.map { asset in
                        outcome.graph.tags[asset].map { (outcome.typos[$0] ?? $0).description } ?? "untagged \(asset)"
                    })
                return pairsCount || tags.count > 1
            }.map { "\($0.key)" }
        }
        let shared = [
            (DiscrepancyCode.sharedSerial, values(outcome.graph.serialIndex.shared, pairsCount: false)),
            (.sharedMAC, values(outcome.graph.macIndex.shared, pairsCount: false)),
            (.cnsReused, values(outcome.graph.cnsIndex.shared, pairsCount: true)),
        ]
        for (code, values) in shared {
            let found = result.found(code).map { finding in
                [finding.serialNumber?.description, finding.macAddress?.description, finding.cnsNumber?.description]
                    .compactMap { $0 }.joined()
            }
            #expect(found.sorted() == values.sorted(), "\(code) in \(context)")
        }
        #expect(result.found(.noTag).count == outcome.graph.tags.filter { $0 == nil }.count, "\(context)")
        #expect(result.found(.noTag).allSatisfy { $0.vtTag == nil }, "\(context)")
        let disputes: [DiscrepancyCode] = [
            .duplicateTag, .tagCNSMismatch, .fieldConflict, .sharedSerial, .sharedMAC, .cnsReused,
        ]
        let disputedText = result.discrepancies.filter { disputes.contains($0.code) }.map {
            ($0.vtTag?.description ?? "") + "; " + $0.value
        }
        for asset in result.assets where asset.status == .ok {
            let tag = asset.values.vtTag!.description
            #expect(!disputedText.contains { $0.contains(tag) }, "\(tag) is ok but disputed in \(context)")
        }
        for asset in result.assets where asset.status == .conflict {
            let tag = asset.values.vtTag!.description
            #expect(disputedText.contains { $0.contains(tag) }, "\(tag) is in conflict over nothing in \(context)")
        }
    }

    /// MISSING, UNRECORDED and POSSIBLE_TYPO agree with the statuses, and the status counts equal the code counts; a
    /// typo replaces its pair, and its scanned tag has no cleaned row.
    static func checkPresenceFindings(_ outcome: Outcome) {
        let context = outcome.context
        let result = outcome.result
        for finding in result.found(.missing) {
            #expect(outcome.asset(finding.vtTag)?.status == .missing, "\(context)")
        }
        for finding in result.found(.unrecorded) {
            #expect(outcome.asset(finding.vtTag)?.status == .unrecorded, "\(context)")
        }
        let typos = result.found(.possibleTypo)
        for typo in typos {
            let scanned = VTTag.normalize(typo.value, digits: outcome.fixture.rules.tagDigits).value
            #expect(typo.vtTag?.description == typo.expected, "\(context)")
            #expect(outcome.asset(scanned) == nil, "\(context)")
            #expect(outcome.asset(typo.vtTag)?.status == .typo, "\(context)")
            #expect(!result.found(.unrecorded).contains { $0.vtTag == scanned }, "\(context)")
            #expect(!result.found(.missing).contains { $0.vtTag == typo.vtTag }, "\(context)")
        }
        #expect(result.found(.missing).count == result.count(AssetStatus.missing), "\(context)")
        #expect(result.found(.unrecorded).count == result.count(AssetStatus.unrecorded), "\(context)")
        #expect(typos.count == result.count(AssetStatus.typo), "\(context)")
    }

    /// The value a FIELD_CONFLICT says won, and the first value of a DUPLICATE_TAG or TAG_CNS_MISMATCH, is the one
    /// in the cleaned sheet; the other values differ from it. The scanned tag of a typo pair has no cleaned row.
    static func checkWinningValues(_ outcome: Outcome) {
        let context = outcome.context
        let disputes = outcome.result.discrepancies.filter {
            [.fieldConflict, .duplicateTag, .tagCNSMismatch].contains($0.code)
        }
        for finding in disputes {
            if let tag = finding.vtTag, outcome.typos[tag] != nil {
                #expect(outcome.asset(tag) == nil, "\(finding.code) on typo \(tag) in \(context)")
                continue
            }
            guard let field = finding.field, let asset = outcome.asset(finding.vtTag) else {
                Issue.record("\(finding.code) without a field or an asset in \(context)")
                continue
            }
            let winner = finding.code == .fieldConflict ? finding.value : finding.expected
            let others = (finding.code == .fieldConflict ? finding.expected : finding.value).split(separator: "; ")
            #expect(asset.values.text(field) == winner, "\(finding.code) \(field) in \(context)")
            #expect(!others.isEmpty && !others.contains { $0 == winner }, "\(finding.code) \(field) in \(context)")
            #expect(Set(others).count == others.count, "\(finding.code) \(field) in \(context)")
        }
    }

    /// Severities follow the documented table; discrepancies are listed most severe first.
    static func checkListing(_ outcome: Outcome) {
        let severities = Dictionary(
            uniqueKeysWithValues: DiscrepancyCodeTests.documented.map { ($0.code, $0.severity) })
        let listed = outcome.result.discrepancies
        for discrepancy in listed {
            #expect(discrepancy.severity.rawValue == severities[discrepancy.code.rawValue], "\(outcome.context)")
        }
        #expect(
            zip(listed, listed.dropFirst()).allSatisfy { !Discrepancy.listedBefore($1, $0) }, "\(outcome.context)")
    }
}
