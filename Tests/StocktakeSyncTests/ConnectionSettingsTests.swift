import Foundation
import StocktakeSync
import Testing

@Suite struct ConnectionSettingsTests {
    /// The session a run gets holds every secret of the account: the token and the signatures of its presigned URLs,
    /// so text a server echoes is scrubbed of them.
    @Test func theSessionKnowsTheTokenAndTheSignaturesOfTheConfiguredURLs() throws {
        let folder = NSTemporaryDirectory() + "stocktake-connection-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokenFile = folder + "/token"
        #expect(
            FileManager.default.createFile(
                atPath: tokenFile, contents: Data("tok-123456789\n".utf8), attributes: [.posixPermissions: 0o600]))
        var settings = ConnectionSettings()
        settings.tokenFile = tokenFile
        let central = try EndpointURL("https://files.example.org/c.csv?X-Amz-Signature=abcdef0123456789&n=1")
        let reports = try EndpointURL("https://reports.example.org/acme/?sig=sv%2Bsig%2Fvalue%3D")
        let factory = try settings.factory(
            account: "acme", locations: [.https(central), .file(path: "scans/")], reportTo: reports)
        #expect(factory.session.configuredURLs == [central, reports])
        #expect(factory.session.secrets == ["tok-123456789", "abcdef0123456789", "sv+sig/value="])
        #expect(
            factory.session.scrubbed("echo tok-123456789 abcdef0123456789 sv%2Bsig%2Fvalue%3D")
                == "echo [redacted] [redacted] [redacted]")
    }
}
