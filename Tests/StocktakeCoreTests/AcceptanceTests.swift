import Foundation
import StocktakeCore
import StocktakeGenerator
import Testing

/// The acceptance criteria of the reconciliation: on realistic accounts with known, injected discrepancies, the
/// job finds every expected one and no unexpected error or warning.
@Suite("Acceptance: generated accounts reconcile to exactly their injected discrepancies")
struct AcceptanceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs the job as `stocktake reconcile` would on an account folder written by the generator.
    static func reconcile(_ folder: URL, asOf: InventoryDate, output: URL) throws -> Reconciliation {
        var rules = ReconciliationRules(asOf: asOf)
        rules.staleAfterDays = 365
        var request = ReconcileRequest(
            account: folder.lastPathComponent, central: folder.appendingPathComponent("central.csv").path,
            rules: rules, outputDirectory: output.path)
        request.sightings = [SourceEntry(folder.appendingPathComponent("sightings").path)]
        request.registers = [SourceEntry(folder.appendingPathComponent("registers").path)]
        request.buildings = folder.appendingPathComponent("buildings.csv").path
        return try ReconcileJob.run(request, log: Log(account: "test", isEnabled: false)).0
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stocktake-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The status counts of cleaned.csv equal the code counts: one `missing`, `unrecorded` and `typo` asset per
    /// MISSING, UNRECORDED and POSSIBLE_TYPO finding, and no cleaned row for the scanned tag of a typo.
    static func checkStatusCounts(_ result: Reconciliation) {
        let counts = result.countsByCode
        #expect(result.count(AssetStatus.missing) == counts[.missing])
        #expect(result.count(AssetStatus.unrecorded) == counts[.unrecorded])
        #expect(result.count(AssetStatus.typo) == counts[.possibleTypo])
        let tags = Dictionary(result.assets.map { ($0.values.vtTag!.description, $0.status) }) { first, _ in first }
        for typo in result.discrepancies where typo.code == .possibleTypo {
            #expect(tags[typo.expected] == .typo, "\(typo.expected)")
            #expect(tags[typo.value] == nil, "\(typo.value)")
        }
    }

    @Test func theBundledSampleAccount() throws {
        let sample = Self.repository.appendingPathComponent("samples/vt-nis")
        let settings =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: sample.appendingPathComponent("generated.json"))) as! [String: Any]
        let asOf = try #require(InventoryDate.parseISO(settings["asOf"] as! String))
        let output = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Self.reconcile(sample, asOf: asOf, output: output)
        let expected = try ExpectedDiscrepancies(path: sample.appendingPathComponent("expected.csv").path)
        #expect(expected.rows.count >= 2 * StocktakeCore.DiscrepancyCode.allCases.count)
        #expect(Set(result.discrepancies.map(\.code)) == Set(StocktakeCore.DiscrepancyCode.allCases))
        let mismatches = expected.mismatches(in: result)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n"))")
        #expect(result.assets.count > 2900)
        Self.checkStatusCounts(result)
        // The cron mail counts the statuses the way the table of codes does.
        let summary = try String(contentsOf: output.appendingPathComponent("summary.txt"), encoding: .utf8)
        let counts = result.countsByCode
        #expect(
            summary.contains(
                "\(counts[.missing]!) missing, \(counts[.unrecorded]!) unrecorded, \(counts[.possibleTypo]!) typo, "))
    }

    @Test func aFreshlyGeneratedTwentyThousandAssetAccount() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try AccountGenerator.generate(GeneratorOptions(assets: 20_000, seed: 4_512), into: folder)
        let output = folder.appendingPathComponent("out")
        let result = try Self.reconcile(folder, asOf: InventoryDate(year: 2026, month: 11, day: 20)!, output: output)
        let expected = try ExpectedDiscrepancies(path: account.expectedPath)
        #expect(expected.rows.count == account.expected.count)
        #expect(Set(result.discrepancies.map(\.code)) == Set(StocktakeCore.DiscrepancyCode.allCases))
        let mismatches = expected.mismatches(in: result)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n"))")
        Self.checkStatusCounts(result)
        for file in ReconcileJob.outputFiles {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(file).path))
        }
    }

    @Test func theComparisonCanFail() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try AccountGenerator.generate(GeneratorOptions(assets: 300, seed: 1), into: folder)
        var result = try Self.reconcile(
            folder, asOf: InventoryDate(year: 2026, month: 11, day: 20)!, output: folder.appendingPathComponent("out"))
        let expected = try ExpectedDiscrepancies(path: account.expectedPath)
        #expect(expected.mismatches(in: result).isEmpty)
        let dropped = result.discrepancies.removeFirst()
        #expect(expected.mismatches(in: result).count == 1, "dropping \(dropped.code) must be noticed")
        result.discrepancies.append(
            Discrepancy(code: .noCNS, vtTag: VTTag(number: 1, digits: 6), sources: [], message: "planted"))
        #expect(expected.mismatches(in: result).count == 2)
    }
}
