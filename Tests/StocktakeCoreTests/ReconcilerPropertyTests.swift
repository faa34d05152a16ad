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

    static func severities() -> [String: String] {
        Dictionary(uniqueKeysWithValues: DiscrepancyCodeTests.documented.map { ($0.code, $0.severity) })
    }

    @Test func randomAccountsKeepTheInvariants() throws {
        var generator = RandomAccount(random: SeededRandom(seed: 2014))
        let severities = Self.severities()
        for account in 0..<Self.accounts {
            let fixture = generator.fixture()
            let sources = try fixture.sources()
            let result = try fixture.reconcile()
            let context = "account \(account): \(fixture.files.map(\.text))"
            let named = Set(result.discrepancies.flatMap(\.sources))

            // Every kept record is in the cleaned asset of its tag, or named in a discrepancy.
            let graph = AssetGraph(sources: sources, fallbackIdentifiers: fixture.rules.fallbackIdentifiers)
            let byTag = Dictionary(result.assets.map { ($0.values.vtTag!, $0) }) { first, _ in first }
            for (sourceIndex, source) in sources.enumerated() {
                let name = source.file.displayName
                for (recordIndex, record) in source.records.enumerated() {
                    let location = SourceLocation(file: name, row: Int(record.row))
                    let asset = Int(graph.assetOfRecord[sourceIndex][recordIndex])
                    if let recordTag = record.values.vtTag {
                        #expect(graph.tags[asset] == recordTag, "\(context)")
                    }
                    if asset >= 0, let tag = graph.tags[asset] {
                        #expect(byTag[tag]?.sources.contains(name) == true, "\(location) is lost in \(context)")
                    } else {
                        #expect(named.contains(location), "\(location) is lost in \(context)")
                    }
                }
                // Every repeated row is named by a DUPLICATE_ROW, with the row it repeats.
                for repeated in source.repeatedRows {
                    let first = SourceLocation(file: name, row: Int(source.records[repeated.firstRecordIndex].row))
                    let again = SourceLocation(file: name, row: repeated.row)
                    #expect(
                        result.found(.duplicateRow).contains { $0.sources == [first, again] },
                        "\(again) repeats \(first) in \(context)")
                }
                // Every bad cell and row is named, and no data row is lost.
                for issue in source.issues {
                    #expect(named.contains(SourceLocation(file: name, row: issue.row)), "\(context)")
                }
                let kept = Set(source.records.map { Int($0.row) } + source.repeatedRows.map(\.row))
                for row in 1...max(1, source.rowCount) where source.rowCount > 0 {
                    let location = SourceLocation(file: name, row: row)
                    #expect(kept.contains(row) || named.contains(location), "\(location) is lost in \(context)")
                }
            }

            // Cleaned assets: one per tagged asset, sorted by tag, unique, with a status that fits their files.
            let tags = result.assets.map { $0.values.vtTag! }
            #expect(tags.count == graph.tags.compactMap { $0 }.count, "\(context)")
            #expect(zip(tags, tags.dropFirst()).allSatisfy { $0 < $1 }, "\(context)")
            let sightings = Set(sources.filter { $0.file.role == .sighting }.map(\.file.displayName))
            for asset in result.assets {
                let central = asset.sources.contains("central.csv")
                let sighted = asset.sources.contains(where: sightings.contains)
                #expect((asset.status == .unrecorded) == !central, "\(context)")
                #expect((asset.status == .missing) == (central && !sighted), "\(context)")
            }

            // Severities follow the documented table; discrepancies are listed most severe first.
            for discrepancy in result.discrepancies {
                #expect(discrepancy.severity.rawValue == severities[discrepancy.code.rawValue], "\(context)")
            }
            let listed = result.discrepancies
            #expect(zip(listed, listed.dropFirst()).allSatisfy { !Discrepancy.listedBefore($1, $0) }, "\(context)")

            // The same input gives the same bytes.
            let again = try fixture.reconcile()
            #expect(CleanedTable.csv(again) == CleanedTable.csv(result), "\(context)")
            #expect(DiscrepancyTable.csv(again) == DiscrepancyTable.csv(result), "\(context)")
        }
    }

    @Test func theGeneratorMakesTheCasesTheInvariantsAreAbout() throws {
        var generator = RandomAccount(random: SeededRandom(seed: 2014))
        var codes: Set<DiscrepancyCode> = []
        for _ in 0..<Self.accounts {
            codes.formUnion(try generator.fixture().reconcile().discrepancies.map(\.code))
        }
        #expect(codes == Set(DiscrepancyCode.allCases))
    }
}
