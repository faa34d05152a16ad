import Foundation
import Testing

@testable import StocktakeCore

struct AllowedRootsTests {
    let folder = TemporaryFolder()
    let quiet = Log(account: "acme", isEnabled: false)

    /// An account in `Jobs/acme` whose sightings folder holds a sheet and a symbolic link to `outside/secret.csv`,
    /// a sheet that looks like one (so that, read, it would show up in the outputs).
    func accountWithALinkOut() throws -> (request: ReconcileRequest, link: String, secret: String) {
        let secret = folder.write("VT Tag,Serial\n000777,TOP-SECRET-SERIAL\n", to: "outside/secret.csv")
        let central = folder.write("VT Tag\n000001\n", to: "Jobs/acme/central.csv")
        _ = folder.write("Tag,Serial\n1,S1\n", to: "Jobs/acme/scans/a.csv")
        let link = folder.path("Jobs/acme/scans/b.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../../../outside/secret.csv")
        var request = ReconcileRequest(
            account: "acme", central: central,
            rules: ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!),
            outputDirectory: folder.path("out"))
        request.sightings = [SourceEntry(folder.path("Jobs/acme/scans"))]
        request.allowedRoots = AllowedRoots([folder.path("Jobs/acme")])
        return (request, link, secret)
    }

    @Test func aLinkInASourcesFolderLeadingOutsideIsRefusedAndNothingIsRead() throws {
        let (request, link, secret) = try accountWithALinkOut()
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        let real = try #require(AllowedRoots.realPath(secret))
        #expect(
            error?.description
                == "\(link): it leads to \(real), outside the folders the account may read (rules.allowedRoots: "
                + "\(folder.path("Jobs/acme"))), so it is not read. Replace the link with the file itself, or add its "
                + "folder to rules.allowedRoots in the account's account.json.")
        #expect(error?.exitStatus == .dataError)
        #expect(!folder.list().contains("out"), "nothing is written")
    }

    @Test func theSameLinkIsReadWhenItsTargetIsAllowed() throws {
        var (request, _, _) = try accountWithALinkOut()
        request.allowedRoots = AllowedRoots([folder.path("Jobs/acme"), folder.path("outside")])
        _ = try ReconcileJob.run(request, log: quiet)
        // The test would see the secret in the outputs had it been read.
        #expect(folder.read("out/cleaned.csv")?.contains("TOP-SECRET-SERIAL") == true)
        // Without roots (stocktake reconcile), any path given is read.
        request.allowedRoots = nil
        request.outputDirectory = folder.path("out2")
        _ = try ReconcileJob.run(request, log: quiet)
        #expect(folder.read("out2/cleaned.csv")?.contains("TOP-SECRET-SERIAL") == true)
    }

    @Test func aSourcePathThatIsALinkOutsideIsRefusedToo() throws {
        var (request, _, secret) = try accountWithALinkOut()
        let link = folder.path("Jobs/acme/central-link.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: secret)
        request.central = link
        request.sightings = []
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(error?.description.hasPrefix("\(link): it leads to \(AllowedRoots.realPath(secret)!), outside") == true)
    }

    /// A root named by the configuration is taken as named: a link planted in its place (the central sheet, a
    /// sources folder) leads out and is refused, where following it would have made its target a root.
    @Test func aLinkPutInPlaceOfANamedPathIsRefused() throws {
        var (request, _, secret) = try accountWithALinkOut()
        let central = folder.path("Jobs/acme/central.csv")
        try FileManager.default.removeItem(atPath: central)
        try FileManager.default.createSymbolicLink(atPath: central, withDestinationPath: secret)
        let scans = folder.path("Jobs/acme/scans")
        request.sightings = []
        request.allowedRoots = AllowedRoots([folder.path("Jobs/other")], named: [central, scans])
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        let real = try #require(AllowedRoots.realPath(secret))
        #expect(error?.description.hasPrefix("\(central): it leads to \(real), outside the folders") == true)
        #expect(!folder.list().contains("out"), "nothing is written")
        // Fully followed, as an explicit rules.allowedRoots is, the same link would have been a root.
        #expect(AllowedRoots([central]).contains(real))
        // A real file at a named path, in a folder reached through a link, is its own root.
        try FileManager.default.createSymbolicLink(atPath: folder.path("linked"), withDestinationPath: "Jobs/acme")
        let named = AllowedRoots([], named: [folder.path("linked/scans/a.csv")])
        #expect(try named.check(source: folder.path("linked/scans/a.csv")) == ())
    }

    @Test func aRootContainsItselfAndWhatIsBelowItOnly() {
        let roots = AllowedRoots(["/srv/acme", "/data/central.csv"])
        #expect(roots.contains("/srv/acme"))
        #expect(roots.contains("/srv/acme/scans/a.csv"))
        #expect(!roots.contains("/srv/acme-other/a.csv"))
        #expect(!roots.contains("/srv"))
        #expect(roots.contains("/data/central.csv"))
        #expect(!roots.contains("/data/central.csv.bak"))
    }
}
