import Foundation
import StocktakeGenerator
import Testing

@testable import stocktake_bench

/// Generated data is kept per parameter set and reused only while its marker records the same parameters.
struct DatasetStoreTests {
    let runner = BenchRunner()

    static let parameters = DatasetParameters(
        assets: 100, seed: 3, tagDigits: 6, cnsDigits: 6, asOf: CalendarDay(year: 2026, month: 11, day: 20)!)

    @Test func generatesOnceThenReuses() throws {
        let store = DatasetStore(root: runner.path("data"))
        #expect(store.kept(Self.parameters) == nil)
        let first = try store.dataset(for: Self.parameters)
        #expect(!first.reused)
        #expect(first.folder == runner.path("data") + "/assets-100-seed-3-tags-6-cns-6-as-of-2026-11-20")
        #expect(
            try String(contentsOfFile: first.folder + "/bench-data.json", encoding: .utf8)
                == #"{"assets": 100, "seed": 3, "tagDigits": 6, "cnsDigits": 6, "asOf": "2026-11-20"}"# + "\n")
        #expect(try first.inputFiles().count == 14)
        #expect(try first.inputFiles().first == first.folder + "/central.csv")
        let second = try store.dataset(for: Self.parameters)
        #expect(second.reused && second.folder == first.folder)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: runner.path("data")) == [Self.parameters.folderName])
    }

    @Test func aFolderWhoseMarkerDiffersIsGeneratedAnew() throws {
        let store = DatasetStore(root: runner.path("data"))
        let folder = runner.path("data/" + Self.parameters.folderName)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"{"assets": 100, "seed": 4}"#.utf8).write(to: URL(fileURLWithPath: folder + "/bench-data.json"))
        try Data("stale".utf8).write(to: URL(fileURLWithPath: folder + "/central.csv"))
        #expect(store.kept(Self.parameters) == nil)
        let dataset = try store.dataset(for: Self.parameters)
        #expect(!dataset.reused)
        #expect(try String(contentsOfFile: folder + "/central.csv", encoding: .utf8) != "stale")
        #expect(store.kept(Self.parameters) != nil)
    }

    @Test func parametersTheGeneratorRefusesAreNotGenerated() throws {
        var parameters = Self.parameters
        parameters.assets = 10
        let store = DatasetStore(root: runner.path("data"))
        #expect(
            throws: BenchError.cannotGenerate(
                reason: "10 assets are too few to inject every discrepancy; ask for at least 100.")
        ) { try store.dataset(for: parameters) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: runner.path("data")) == [])
    }
}
