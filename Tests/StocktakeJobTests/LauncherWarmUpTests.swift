import Foundation
import Testing

@testable import StocktakeCore
@testable import StocktakeJob

/// The account launcher's warm-up: a made-up account run as an account's process runs one, in a folder of its own
/// that is removed after.
struct LauncherWarmUpTests {
    /// The warm-up folders in the temporary folder.
    func warmUpFolders() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
        return Set(names.filter { $0.hasPrefix(LauncherWarmUp.folderPrefix) })
    }

    @Test func theMadeUpAccountIsReconciledAndItsFolderRemoved() {
        let before = warmUpFolders()
        #expect(LauncherWarmUp.run(environment: [:]))
        #expect(warmUpFolders().subtracting(before).isEmpty)
    }

    /// The crash test hooks read the environment once: the made-up account would reach them first, in the launcher.
    @Test func itIsLeftOutWhenTheCrashTestHooksAreOn() {
        let before = warmUpFolders()
        #expect(!LauncherWarmUp.run(environment: [KillPoint.enablingVariable: "1"]))
        #expect(warmUpFolders().subtracting(before).isEmpty)
    }

    /// The made-up sheets take the paths real accounts take: every sheet is read, values of every kind are
    /// normalized, and findings of many codes fill the tables and the report.
    @Test func theMadeUpAccountMakesEveryOutputAndFindingsOfManyCodes() throws {
        let folder = NSTemporaryDirectory() + "warm-up-test-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(LauncherWarmUp.writeAccount(into: folder))
        var options = NightlyRunOptions()
        options.jobs = folder + "/Jobs"
        options.state = folder + "/state"
        options.asOf = try #require(InventoryDate(year: 2026, month: 11, day: 20))
        options.push = false
        options.logs = false

        let outcome = NightlyRun.runAccount(LauncherWarmUp.account, options: options)

        #expect(outcome.status == .success, "\(outcome.push)")
        #expect(outcome.assets == 10)
        let latest = folder + "/state/" + LauncherWarmUp.account + "/latest/"
        for file in [
            "cleaned.csv", "cleaned.xlsx", "discrepancies.csv", "discrepancies.xlsx", "resolved.csv", "changes.csv",
            "report.html", "summary.txt", "ledger.csv", "run.json",
        ] {
            #expect(FileManager.default.fileExists(atPath: latest + file), "\(file)")
        }
        let discrepancies = try String(contentsOfFile: latest + "discrepancies.csv", encoding: .utf8)
        let codes = Set(discrepancies.split(whereSeparator: \.isNewline).dropFirst().map { $0.prefix { $0 != "," } })
        #expect(codes.count >= 8, "\(codes.sorted())")
    }
}
