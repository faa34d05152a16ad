import Foundation
import Testing

@testable import StocktakeCore
@testable import StocktakeJob

/// The account launcher's warm-up: a made-up account run as an account's process runs one, in a folder of its own
/// that is removed after.
final class LauncherWarmUpTests {
    /// The temporary folder each test gives the warm-up: its own, since launchers that other tests start warm up in
    /// the system's at the same time.
    let parent = NSTemporaryDirectory() + "warm-up-tests-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: parent)
    }

    /// What the warm-up left in `parent`.
    func leftOver() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: parent)
    }

    @Test func theMadeUpAccountIsReconciledAndItsFolderRemoved() throws {
        #expect(LauncherWarmUp.run(environment: [:], temporaryFolder: parent))
        #expect(try leftOver() == [])
    }

    /// A temporary folder it cannot make its folder in: it is left out, quietly, and the accounts run as before.
    @Test func itIsLeftOutWhenItCannotMakeItsFolder() throws {
        let file = parent + "/not-a-folder"
        try #require(FileManager.default.createFile(atPath: file, contents: Data("a file\n".utf8)))
        #expect(!LauncherWarmUp.run(environment: [:], temporaryFolder: file))
        #expect(try leftOver() == ["not-a-folder"])
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "a file\n")
    }

    /// The crash test hooks read the environment once: the made-up account would reach them first, in the launcher.
    @Test func itIsLeftOutWhenTheCrashTestHooksAreOn() throws {
        #expect(!LauncherWarmUp.run(environment: [KillPoint.enablingVariable: "1"], temporaryFolder: parent))
        #expect(try leftOver() == [])
    }

    /// The made-up sheets take the paths real accounts take: every sheet is read, values of every kind are
    /// normalized, and findings of many codes fill the tables and the report.
    @Test func theMadeUpAccountMakesEveryOutputAndFindingsOfManyCodes() throws {
        let folder = parent + "/account"
        try #require(LauncherWarmUp.writeAccount(into: folder))

        let outcome = NightlyRun.runAccount(LauncherWarmUp.account, options: LauncherWarmUp.options(in: folder))

        #expect(outcome.status == .success, "\(outcome.push)")
        #expect(outcome.assets == 10)
        // Nothing leaves the folder: no push, no upload.
        #expect(outcome.push == "no push")
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
        // A POSSIBLE_TYPO pair, whose tables an account's process would otherwise make for the first time itself.
        #expect(codes.contains("POSSIBLE_TYPO"), "\(codes.sorted())")
    }
}
