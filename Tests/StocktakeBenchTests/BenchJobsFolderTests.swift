import Foundation
import StocktakeCore
import StocktakeGenerator
import StocktakeJob
import Testing

@testable import stocktake_bench

/// The many-account jobs folder: accounts share datasets round-robin, each a valid account of its own.
struct BenchJobsFolderTests {
    let runner = BenchRunner()

    @Test func accountsShareTheDatasetsRoundRobinAndLoadAsAccounts() throws {
        let store = DatasetStore(root: runner.path("data"))
        let datasets = try [3, 4].map { seed throws in
            try store.dataset(
                for: DatasetParameters(
                    assets: 100, seed: UInt64(seed), tagDigits: 7, cnsDigits: 6,
                    asOf: CalendarDay(year: 2026, month: 11, day: 20)!))
        }
        let jobs = try BenchJobsFolder.write(count: 5, datasets: datasets, into: runner.path("Jobs"))
        #expect(jobs.accounts.map(\.name) == ["bench-0001", "bench-0002", "bench-0003", "bench-0004", "bench-0005"])
        #expect(jobs.accounts.map(\.dataset.parameters.seed) == [3, 4, 3, 4, 3])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: runner.path("Jobs")).sorted()
                == jobs.accounts.map(\.name))
        for account in jobs.accounts {
            let config = try AccountConfig.load(folder: runner.path("Jobs/" + account.name))
            #expect(config.central.location == account.dataset.central)
            #expect(config.sightings == [SourceEntry(account.dataset.sightings + "/")])
            #expect(config.registers == [SourceEntry(account.dataset.registers + "/")])
            #expect(config.buildings == account.dataset.buildings)
            #expect(config.tagDigits == 7 && config.cnsDigits == 6 && config.staleAfterDays == 365)
            #expect(!config.pushCleaned)
            #expect(config.name == "Benchmark account \(account.name) (seed \(account.dataset.parameters.seed))")
        }
    }

    @Test func namesWidenForTenThousandAccounts() {
        #expect(BenchJobsFolder.accountName(0, of: 1000) == "bench-0001")
        #expect(BenchJobsFolder.accountName(999, of: 1000) == "bench-1000")
        #expect(BenchJobsFolder.accountName(0, of: 10_000) == "bench-00001")
        #expect(BenchJobsFolder.accountName(9_999, of: 10_000) == "bench-10000")
    }
}
