import Foundation
import StocktakeCore
import StocktakeJob
import Testing

@Suite struct AccountStateTests {
    private let start = Date(timeIntervalSince1970: 1_795_400_100)

    @Test func pathsLieUnderTheRootInTheAccountsFolder() {
        let state = AccountState(root: "/var/lib/stocktake/", account: AccountName("acme")!)
        #expect(state.path == "/var/lib/stocktake/acme")
        #expect(state.lockPath == "/var/lib/stocktake/acme/lock")
        #expect(state.runsPath == "/var/lib/stocktake/acme/runs")
        #expect(state.latestPath == "/var/lib/stocktake/acme/latest")
        #expect(state.pendingPushPath == "/var/lib/stocktake/acme/pending-push.json")
        #expect(AccountState(root: "/", account: AccountName("acme")!).path == "/acme")
    }

    @Test func createsTheRootAndAPrivateAccountFolder() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        #expect(TemporaryStateRoot.mode(of: state.path) == nil)
        _ = try state.newRun(startedAt: start)
        #expect(TemporaryStateRoot.mode(of: root.path + "/state") != nil)
        #expect(TemporaryStateRoot.mode(of: state.path) == 0o700)
        #expect(TemporaryStateRoot.mode(of: state.runsPath) == 0o700)
    }

    @Test func latestPointsAtTheMarkedRun() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let first = try state.newRun(startedAt: start)
        let second = try state.newRun(startedAt: start.addingTimeInterval(60))
        try state.markLatest(first)
        #expect(state.latest == first)
        try state.markLatest(second)
        #expect(state.latest == second)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: state.latestPath) == "runs/" + second.id)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).sorted() == ["latest", "runs"])
    }

    @Test func aRunKilledBeforeTheSwapLeavesThePreviousLatest() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let previous = try state.newRun(startedAt: start)
        try state.markLatest(previous)
        // A killed run made its temporary link but never renamed it over `latest`.
        let interrupted = try state.newRun(startedAt: start.addingTimeInterval(60))
        #expect(symlink("runs/" + interrupted.id, state.latestPath + ".partial-999999") == 0)
        #expect(state.latest == previous)

        let next = try state.newRun(startedAt: start.addingTimeInterval(120))
        try state.markLatest(next)
        #expect(state.latest == next)
        #expect(TemporaryStateRoot.mode(of: state.latestPath + ".partial-999999") == nil)
    }

    @Test func danglingOrForeignLatestIsNoRun() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let run = try state.newRun(startedAt: start)
        try state.markLatest(run)
        try FileManager.default.removeItem(atPath: run.path)
        #expect(state.latest == nil)
        _ = try state.newRun(startedAt: start)
        unlink(state.latestPath)
        #expect(symlink("/tmp", state.latestPath) == 0)
        #expect(state.latest == nil)
    }

    @Test func pruneKeepsTheNewestRuns() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let runs = try (0..<5).map { try completeRun(state, day: $0) }
        try state.markLatest(runs[4])
        // The oldest run holds files, a folder and a link to a folder outside, which must survive.
        let outside = root.path + "/outside"
        #expect(mkdir(outside, 0o755) == 0)
        #expect(FileManager.default.createFile(atPath: outside + "/keep.csv", contents: Data("a\n".utf8)))
        #expect(FileManager.default.createFile(atPath: runs[0].path(of: "cleaned.csv"), contents: Data("a\n".utf8)))
        #expect(mkdir(runs[0].path(of: "pulled"), 0o700) == 0)
        #expect(FileManager.default.createFile(atPath: runs[0].path(of: "pulled/central.csv"), contents: nil))
        #expect(symlink(outside, runs[0].path(of: "outside")) == 0)
        let removed = try state.prune(keeping: 3)
        #expect(removed == [runs[0].id, runs[1].id])
        #expect(try state.runs() == Array(runs[2...]))
        #expect(TemporaryStateRoot.mode(of: runs[0].path) == nil)
        #expect(FileManager.default.contents(atPath: outside + "/keep.csv") == Data("a\n".utf8))
        #expect(try state.prune(keeping: 3) == [])
    }

    @Test func pruneNeverRemovesLatest() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let runs = try (0..<4).map { try completeRun(state, day: $0) }
        try state.markLatest(runs[0])
        #expect(try state.prune(keeping: 1) == [runs[1].id, runs[2].id])
        #expect(try state.runs() == [runs[0], runs[3]])
        #expect(state.latest == runs[0])
    }

    @Test func pruneKeepsThirtyByDefault() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let runs = try (0..<32).map { _ in try completeRun(state, day: 0) }
        #expect(try state.prune() == [runs[0].id, runs[1].id])
        #expect(try state.runs().count == 30)
    }

    /// The audit's kill test left 13 incomplete run folders among 29: runs killed while writing their outputs, before
    /// `run.json`.
    @Test func incompleteRunsAreRemovedAndOnlyThem() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let killed: Set<Int> = [1, 2, 4, 7, 8, 11, 13, 16, 19, 20, 23, 26, 28]
        var runs: [RunFolder] = []
        for day in 0..<29 {
            if killed.contains(day) {
                let run = try state.newRun(startedAt: start.addingTimeInterval(Double(day) * 86_400))
                #expect(FileManager.default.createFile(atPath: run.path(of: "cleaned.csv"), contents: Data("a\n".utf8)))
                let partial = ".discrepancies.csv.stocktake-4242-000000000000dead.partial"
                #expect(FileManager.default.createFile(atPath: run.path(of: partial), contents: Data("b".utf8)))
                runs.append(run)
            } else {
                runs.append(try completeRun(state, day: day))
            }
        }
        try state.markLatest(runs[27])
        let others = try plantOthers(in: state, root: root)

        let removed = try state.removeIncompleteRuns()

        #expect(removed == killed.sorted().map { runs[$0].id })
        #expect(try state.runs() == runs.indices.filter { !killed.contains($0) }.map { runs[$0] })
        for day in killed { #expect(TemporaryStateRoot.mode(of: runs[day].path) == nil) }
        #expect(state.latest == runs[27])
        try expectUntouched(others, in: state, root: root)
        #expect(try state.removeIncompleteRuns() == [])
    }

    @Test func latestIsNeverRemovedEvenIncomplete() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let runs = try (0..<2).map { try state.newRun(startedAt: start.addingTimeInterval(Double($0) * 86_400)) }
        try state.markLatest(runs[0])
        #expect(try state.removeIncompleteRuns() == [runs[1].id])
        #expect(try state.runs() == [runs[0]])
        #expect(state.latest == runs[0])
    }

    @Test func aRunJSONThatIsNoFileDoesNotMakeARunComplete() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let asFolder = try state.newRun(startedAt: start)
        #expect(mkdir(asFolder.path(of: "run.json"), 0o700) == 0)
        let asLink = try state.newRun(startedAt: start.addingTimeInterval(60))
        let elsewhere = root.path + "/run.json"
        #expect(FileManager.default.createFile(atPath: elsewhere, contents: Data("{}\n".utf8)))
        #expect(symlink(elsewhere, asLink.path(of: "run.json")) == 0)
        #expect(try state.removeIncompleteRuns() == [asFolder.id, asLink.id])
        #expect(FileManager.default.contents(atPath: elsewhere) == Data("{}\n".utf8))
    }

    @Test func pruneCountsOnlyCompleteRuns() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let killed: Set<Int> = [1, 2, 4, 7, 8, 11, 13, 16, 19, 20, 23, 26, 28]
        let runs = try (0..<29).map { day in
            killed.contains(day)
                ? try state.newRun(startedAt: start.addingTimeInterval(Double(day) * 86_400))
                : try completeRun(state, day: day)
        }
        try state.markLatest(runs[27])
        let others = try plantOthers(in: state, root: root)
        let complete = runs.indices.filter { !killed.contains($0) }

        let removed = try state.prune(keeping: 10)

        #expect(removed == complete.prefix(6).map { runs[$0].id })
        let remaining = runs.indices.filter { killed.contains($0) || complete.suffix(10).contains($0) }
        #expect(try state.runs() == remaining.map { runs[$0] })
        #expect(state.latest == runs[27])
        try expectUntouched(others, in: state, root: root)

        #expect(try state.removeIncompleteRuns().count == 13)
        #expect(try state.prune(keeping: 10) == [])
        #expect(try state.runs() == complete.suffix(10).map { runs[$0] })
    }

    @Test func aStateRootUnderAFileIsAClearError() throws {
        let root = TemporaryStateRoot()
        let file = root.path + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let state = AccountState(root: file + "/state", account: AccountName("vt-nis")!)
        let expected = AccountStateError.cannotCreate(
            account: AccountName("vt-nis")!, path: file + "/state", reason: "a file is where a folder should be"
        )
        #expect(throws: expected) { try state.newRun(startedAt: start) }
        #expect(throws: expected) { try state.lock() }
        #expect(throws: expected) {
            try state.recordPendingPush(PendingPush(since: start, runID: "r", target: "t", reason: "x"))
        }
        #expect(
            expected.description
                == "Account vt-nis: cannot create the folder \(file)/state (a file is where a folder should be); "
                + "check that the state folder is a writable folder, or choose another one with --state.")
        #expect(expected.exitStatus == .cannotCreate)
    }

    @Test func aFileInPlaceOfTheAccountFolderIsAClearError() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        #expect(mkdir(state.root, 0o755) == 0)
        #expect(FileManager.default.createFile(atPath: state.path, contents: nil))
        #expect(
            throws: AccountStateError.cannotCreate(
                account: state.account, path: state.path, reason: "a file is in the way")
        ) {
            try state.lock()
        }
    }

    @Test(.enabled(if: getuid() != 0, "root may write into read-only folders"))
    func aReadOnlyStateFolderIsAClearError() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        _ = try state.newRun(startedAt: start)
        #expect(chmod(state.path, 0o500) == 0)
        defer { chmod(state.path, 0o700) }
        #expect(
            throws: AccountStateError.cannotWrite(
                account: state.account, path: state.pendingPushPath, reason: "permission denied")
        ) {
            try state.recordPendingPush(PendingPush(since: start, runID: "r", target: "t", reason: "x"))
        }
    }
}

extension AccountStateTests {
    @Test func aFileInPlaceOfTheRunsFolderIsAClearError() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        _ = try state.lock()
        #expect(FileManager.default.createFile(atPath: state.runsPath, contents: nil))
        #expect(
            throws: AccountStateError.cannotRead(
                account: state.account, path: state.runsPath, reason: "a file is where a folder should be")
        ) {
            try state.runs()
        }
    }
}

extension AccountStateTests {
    /// The folder of a run that ended: it holds its outputs and, last, `run.json`.
    private func completeRun(_ state: AccountState, day: Int) throws -> RunFolder {
        let run = try state.newRun(startedAt: start.addingTimeInterval(Double(day) * 86_400))
        for name in ReconcileJob.outputFiles {
            #expect(FileManager.default.createFile(atPath: run.path(of: name), contents: Data("\(name)\n".utf8)))
        }
        return run
    }

    /// Entries of `runs/` that are not run folders: a file, a folder, a folder named almost like a run, and a link
    /// named like a run to a folder elsewhere, none with `run.json`.
    private func plantOthers(in state: AccountState, root: TemporaryStateRoot) throws -> [String] {
        #expect(FileManager.default.createFile(atPath: state.runsPath + "/notes.txt", contents: Data("n\n".utf8)))
        #expect(mkdir(state.runsPath + "/archive", 0o700) == 0)
        #expect(mkdir(state.runsPath + "/20261101T000000Z-0", 0o700) == 0)
        #expect(mkdir(root.path + "/elsewhere", 0o700) == 0)
        #expect(FileManager.default.createFile(atPath: root.path + "/elsewhere/keep.csv", contents: Data("k\n".utf8)))
        #expect(symlink(root.path + "/elsewhere", state.runsPath + "/20300101T000000Z") == 0)
        return ["notes.txt", "archive", "20261101T000000Z-0", "20300101T000000Z"]
    }

    private func expectUntouched(_ others: [String], in state: AccountState, root: TemporaryStateRoot) throws {
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: state.runsPath))
        #expect(Set(others).isSubset(of: names))
        #expect(FileManager.default.contents(atPath: state.runsPath + "/notes.txt") == Data("n\n".utf8))
        #expect(FileManager.default.contents(atPath: root.path + "/elsewhere/keep.csv") == Data("k\n".utf8))
        #expect(ReconcileJob.outputFiles.last == "run.json")
    }

    @Test func partialRecordsOfKilledRunsAreRemovedAndThoseBeingWrittenStay() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        try state.recordPendingPush(
            PendingPush(since: start, runID: "20261120T021500Z", target: "central.csv", reason: "412"))
        let record = try #require(FileManager.default.contents(atPath: state.pendingPushPath))
        // A writer whose process is gone (pid 2^31 - 2 is never handed out) left two; this process writes a third.
        let killed = [
            ".push-journal.json.stocktake-2147483646-00000000000000aa.partial",
            ".pending-push.json.stocktake-2147483646-00000000000000bb.partial",
        ]
        let live = ".push-journal.json.stocktake-\(getpid())-00000000000000cc.partial"
        for name in killed + [live, "notes.json"] {
            #expect(FileManager.default.createFile(atPath: state.path + "/" + name, contents: Data("{".utf8)))
        }

        #expect(state.removeStaleRecordPartials().sorted() == killed.sorted())

        for name in killed { #expect(!FileManager.default.fileExists(atPath: state.path + "/" + name)) }
        #expect(FileManager.default.fileExists(atPath: state.path + "/" + live))
        #expect(FileManager.default.fileExists(atPath: state.path + "/notes.json"))
        #expect(FileManager.default.contents(atPath: state.pendingPushPath) == record)
        #expect(state.removeStaleRecordPartials() == [])
    }
}
