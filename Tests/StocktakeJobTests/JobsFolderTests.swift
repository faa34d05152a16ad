import Foundation
import Testing

@testable import StocktakeJob

@Suite("Jobs folder: an account is a folder inside it, never a path out of it")
final class JobsFolderTests {
    /// A fresh `jobs-…` folder in /tmp for one test (each test has an instance of its own), made by `make` and
    /// removed when the test ends.
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-\(UUID().uuidString)").path

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    func make(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
    }

    @Test func aPlainFolderAndALinkInsideTheJobsFolderAreAccounts() throws {
        try make("Jobs/acme")
        try FileManager.default.createSymbolicLink(atPath: root + "/Jobs/alias", withDestinationPath: "acme")
        #expect(JobsFolder.problem(account: "acme", in: root + "/Jobs") == nil)
        #expect(JobsFolder.problem(account: "alias", in: root + "/Jobs") == nil)
        #expect(JobsFolder.problem(account: "not-there", in: root + "/Jobs") == nil, "a missing folder is load's job")
    }

    @Test func aLinkOutOfTheJobsFolderIsRefused() throws {
        try make("Jobs")
        try make("secret")
        try FileManager.default.createSymbolicLink(atPath: root + "/Jobs/evil", withDestinationPath: "../secret")
        try FileManager.default.createSymbolicLink(atPath: root + "/Jobs/etc", withDestinationPath: "/etc")
        let problem = try #require(JobsFolder.problem(account: "evil", in: root + "/Jobs"))
        #expect(problem.exitStatus == .configuration)
        #expect(problem.description.contains("a link to \(JobsFolder.realPath(root + "/secret")!), outside the jobs"))
        #expect(JobsFolder.problem(account: "etc", in: root + "/Jobs")?.description.contains("a link to /etc,") == true)
    }

    @Test func namesThatArePathsAreRefused() {
        #expect(
            JobsFolder.problem(account: "../outside/x", in: "Jobs")?.description
                == "Account ../outside/x: account.json cannot be read: the account name starts with a dot (hidden names "
                + "and .. are not accounts). Name an account by its folder's name under Jobs.")
        #expect(JobsFolder.problem(account: "/etc", in: "Jobs")?.description.contains("contains a slash") == true)
    }
}
