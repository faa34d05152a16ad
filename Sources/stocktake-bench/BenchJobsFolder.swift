import Foundation
import StocktakeCore
import StocktakeGenerator

/// The jobs folder `stocktake run` reads in a many-account benchmark: one folder per account, each with its own
/// `account.json`, the way an administrator sets up companies.
///
/// Generating a thousand accounts would take far longer than running them, so the accounts share a handful of
/// generated datasets: account `i` reads dataset `i mod datasets.count` (by absolute paths), under its own name
/// and with its own state. Each is still a complete, separately configured account.
struct BenchJobsFolder {
    /// One account of the folder.
    struct Account: Sendable {
        /// The folder name, `bench-0001`.
        var name: String
        /// The dataset it reads.
        var dataset: Dataset
    }

    /// The jobs folder.
    var path: String
    /// Its accounts, in name order.
    var accounts: [Account]

    /// Writes `count` accounts over `datasets` into the new folder `path`.
    static func write(count: Int, datasets: [Dataset], into path: String) throws(BenchError) -> BenchJobsFolder {
        var accounts: [Account] = []
        for index in 0..<count {
            let account = Account(name: accountName(index, of: count), dataset: datasets[index % datasets.count])
            let folder = path + "/" + account.name
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(configuration(of: account).utf8).write(to: URL(fileURLWithPath: folder + "/account.json"))
            } catch {
                throw .cannotWrite(path: folder, reason: "the account folder cannot be made (check the free space)")
            }
            accounts.append(account)
        }
        return BenchJobsFolder(path: path, accounts: accounts)
    }

    /// The folder name of account `index` (from 0) of `count`: `bench-0001`, with as many digits as `count` needs
    /// (at least four), so that name order is number order.
    static func accountName(_ index: Int, of count: Int) -> String {
        let width = max(4, String(count).count)
        let number = String(index + 1)
        return "bench-" + String(repeating: "0", count: max(0, width - number.count)) + number
    }

    /// The `account.json` of `account`: its dataset's files, identifier widths and staleness, and no push.
    static func configuration(of account: Account) -> String {
        let dataset = account.dataset
        let parameters = dataset.parameters
        return """
            {
              "name": \(JSONText.quoted("Benchmark account \(account.name) (seed \(parameters.seed))")),
              "central": { "provider": "file", "url": \(JSONText.quoted(dataset.central)) },
              "sightings": [\(JSONText.quoted(dataset.sightings + "/"))],
              "registers": [\(JSONText.quoted(dataset.registers + "/"))],
              "buildings": \(JSONText.quoted(dataset.buildings)),
              "rules": { "tagDigits": \(parameters.tagDigits), "cnsDigits": \(parameters.cnsDigits), \
            "staleAfterDays": \(GeneratorOptions.staleAfterDays) },
              "push": { "cleaned": false }
            }

            """
    }
}
