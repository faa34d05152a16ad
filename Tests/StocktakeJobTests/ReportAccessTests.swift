import Foundation
import Testing

@testable import StocktakeJob

#if canImport(Glibc)
    import Glibc
#endif

/// `ReportAccess`: run folders and their files go to the report group, folders 0750 and files 0640.
@Suite struct ReportAccessTests {
    let root = TemporaryStateRoot()

    static func group(of path: String) -> gid_t? {
        var information = stat()
        guard lstat(path, &information) == 0 else { return nil }
        return information.st_gid
    }

    /// A run folder holding a report, a sub-folder with a file, and a link that must not be followed.
    func makeRun() throws -> (AccountState, RunFolder) {
        let state = root.state("acme")
        let run = try state.newRun(startedAt: Date(timeIntervalSince1970: 1_795_000_000))
        try Data("<html/>".utf8).write(to: URL(fileURLWithPath: run.path(of: "report.html")))
        try FileManager.default.createDirectory(atPath: run.path(of: "snapshot"), withIntermediateDirectories: false)
        try Data("VT Tag\n".utf8).write(to: URL(fileURLWithPath: run.path(of: "snapshot/central.csv")))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: root.path + "/outside"))
        chmod(root.path + "/outside", 0o600)
        symlink(root.path + "/outside", run.path(of: "link"))
        return (state, run)
    }

    @Test(.enabled(if: geteuid() == 0 && ReportAccess.groupID(named: "nogroup") != nil, "needs root and nogroup"))
    func theNamedGroupGetsEveryFolderAndFileOfTheRun() throws {
        let (state, run) = try makeRun()
        let access = try #require(ReportAccess(reportGroup: "nogroup", stateRoot: root.path))
        #expect(access.groupName == "nogroup")
        try access.share(run, of: state)
        let nogroup = try #require(ReportAccess.groupID(named: "nogroup"))
        for folder in [state.path, state.runsPath, run.path, run.path(of: "snapshot")] {
            #expect(TemporaryStateRoot.mode(of: folder) == 0o750, "\(folder)")
            #expect(Self.group(of: folder) == nogroup, "\(folder)")
        }
        for file in [run.path(of: "report.html"), run.path(of: "snapshot/central.csv")] {
            #expect(TemporaryStateRoot.mode(of: file) == 0o640, "\(file)")
            #expect(Self.group(of: file) == nogroup, "\(file)")
        }
        // The link's target, outside the run, is left as it was.
        #expect(TemporaryStateRoot.mode(of: root.path + "/outside") == 0o600)
        #expect(Self.group(of: root.path + "/outside") != nogroup)
        // The lock keeps its mode.
        _ = try state.lock()
        #expect(TemporaryStateRoot.mode(of: state.lockPath) == 0o600)
    }

    @Test func withoutAGroupTheStateFoldersGroupIsUsed() throws {
        let (state, run) = try makeRun()
        let access = try #require(ReportAccess(reportGroup: nil, stateRoot: state.root))
        #expect(access.group == Self.group(of: state.root))
        try access.share(run, of: state)
        #expect(TemporaryStateRoot.mode(of: run.path) == 0o750)
        #expect(TemporaryStateRoot.mode(of: run.path(of: "report.html")) == 0o640)
        #expect(Self.group(of: run.path(of: "report.html")) == Self.group(of: state.root))
    }

    @Test func anUnknownGroupIsAConfigurationProblem() {
        #expect(ReportAccess.groupID(named: "no-such-group-stocktake") == nil)
        #expect(ReportAccess(reportGroup: "no-such-group-stocktake", stateRoot: root.path) == nil)
        let jobs = AccountConfigTests.Jobs()
        let folder = jobs.account(
            "acme", #"{"central": "central.csv", "rules": {"reportGroup": "no-such-group-stocktake"}}"#)
        #expect(
            AccountConfig.problems(folder: folder).map(\.description) == [
                "Account acme: \"rules.reportGroup\" names the group no-such-group-stocktake, which this machine does "
                    + "not have. Name an existing group (getent group lists them), such as the group of the clerks "
                    + "who read the reports, or create it with groupadd no-such-group-stocktake."
            ])
        let known = jobs.account("known", #"{"central": "central.csv", "rules": {"reportGroup": "root"}}"#)
        #expect(AccountConfig.problems(folder: known) == [])
        #expect((try? AccountConfig.load(folder: known))?.reportGroup == "root")
    }

    @Test func aFolderThatCannotBeGivenAwayIsASentence() throws {
        let (state, run) = try makeRun()
        try FileManager.default.removeItem(atPath: state.runsPath)
        let access = ReportAccess(group: 0, groupName: "clerks")
        let error = AccountStateError.cannotShare(
            account: state.account, path: state.runsPath, group: "clerks", reason: "the folder does not exist")
        #expect(throws: error) { try access.share(run, of: state) }
        #expect(error.exitStatus.rawValue == 77)
        #expect(
            error.description
                == "Account acme: cannot give \(state.runsPath) to the group clerks (the folder does not exist); "
                + "run stocktake as root or as a member of clerks, or name another group with rules.reportGroup in "
                + "account.json.")
    }
}
