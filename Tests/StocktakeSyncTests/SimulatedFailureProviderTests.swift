import Foundation
import StocktakeCore
import Testing

@testable import StocktakeSync

/// `--simulate-failure pull` and `push` at the provider: the real failure's error under its label, and the sheet
/// never touched.
@Suite struct SimulatedFailureProviderTests {
    static let label = "(simulated failure: --simulate-failure push)"

    /// Calls `body` with a factory of account acme simulating `kinds` and the path of a local sheet in a fresh
    /// `simulated-provider-…` folder in /tmp, and removes the folder when `body` returns or throws.
    func withFactory(_ kinds: [SimulatedFailure], _ body: (ProviderFactory, String) throws -> Void) throws {
        let folder = NSTemporaryDirectory() + "simulated-provider-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sheet = folder + "/central.csv"
        try "VT Tag\n100001\n".write(toFile: sheet, atomically: true, encoding: .utf8)
        let settings = ConnectionSettings()
        let factory = try settings.factory(
            account: "acme", locations: [.file(path: sheet)], reportTo: nil,
            simulation: FailureSimulation(kinds, origin: .commandLine))
        try body(factory, sheet)
    }

    @Test func aSimulatedPushOfALocalSheetIsARefusedWriteAndWritesNothing() throws {
        try withFactory([.push]) { factory, sheet in
            let provider = factory.provider(for: .file(path: sheet))
            let pulled = try provider.pull()
            #expect(
                throws: SyncError.simulated(
                    .refused(account: "acme", url: sheet, status: 0, detail: "permission denied", phase: .push),
                    label: Self.label)
            ) {
                try provider.push(Array("VT Tag\n100002\n".utf8), over: pulled)
            }
            #expect(try String(contentsOfFile: sheet, encoding: .utf8) == "VT Tag\n100001\n")
            let message =
                "\(Self.label) Account acme: could not write \(sheet): permission denied. Check the file and the "
                + "permissions of its folder."
            #expect(
                SyncError.simulated(
                    .refused(account: "acme", url: sheet, status: 0, detail: "permission denied", phase: .push),
                    label: Self.label
                ).description == message)
        }
    }

    @Test func aSimulatedPullOfALocalSheetIsAMissingFile() throws {
        try withFactory([.pull]) { factory, sheet in
            let error = #expect(throws: SyncError.self) { try factory.provider(for: .file(path: sheet)).pull() }
            #expect(error?.exitStatus == .unavailable)
            #expect(
                error?.description
                    == "(simulated failure: --simulate-failure pull) Account acme: nothing at \(sheet): no such file. "
                    + "Check the path.")
        }
    }

    @Test func aSimulatedFailureOfARemoteSheetIsAnUnavailableServer() throws {
        let url = try EndpointURL("https://dav.example.org/inventory/central.csv?signature=s3cr3t")
        let session = AccountSession(account: "acme")
        let provider = SimulatedFailureProvider(
            base: WebDAVProvider(url: url, session: session), isLocal: false, account: "acme",
            simulation: FailureSimulation([.push], origin: .account))
        #expect(
            provider.failure(.push)
                == .unavailable(
                    account: "acme", url: "https://dav.example.org/inventory/central.csv", status: 503, detail: "",
                    phase: .push))
        #expect(SyncError.simulated(provider.failure(.push), label: "x").exitStatus == .temporaryFailure)
        #expect(SyncError.simulated(provider.failure(.pull), label: "x").exitStatus == .unavailable)
    }

    @Test func withoutASimulationTheRealProviderIsMade() throws {
        try withFactory([.token]) { factory, sheet in
            #expect(factory.provider(for: .file(path: sheet)) is FileProvider)
        }
    }
}
