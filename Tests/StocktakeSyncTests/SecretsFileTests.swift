import Foundation
import StocktakeSync
import Testing

@Suite struct SecretsFileTests {
    static func write(_ text: String, mode: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func readsAnOwnerOnlyFile() throws {
        let path = try Self.write("  s3cret-token\n", mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SecretsFile.read(path, account: "acme") == "s3cret-token")
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func refusesAFileOthersCanRead(mode: Int) throws {
        let path = try Self.write("token", mode: mode)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: SyncError.secrets(
                account: "acme", path: path,
                reason: "can be read by others (mode \(String(mode, radix: 8))); run chmod 600 \(path)")
        ) { try SecretsFile.read(path, account: "acme") }
    }

    @Test func missingAndEmptyFiles() throws {
        #expect(
            throws: SyncError.secrets(
                account: "acme", path: "/nonexistent/token",
                reason: "does not exist; create it holding only the secret, readable by its owner only (chmod 600)")
        ) { try SecretsFile.read("/nonexistent/token", account: "acme") }
        let path = try Self.write("\n", mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SyncError.secrets(account: "acme", path: path, reason: "is empty")) {
            try SecretsFile.read(path, account: "acme")
        }
    }

    @Test func anUnreadableFileIsAClearError() throws {
        // A folder in place of the file cannot be read as one, whatever the user's privileges.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: SyncError.secrets(account: "acme", path: folder, reason: "cannot be read by this user")) {
            try SecretsFile.read(folder, account: "acme")
        }
    }

    @Test func staticTokensFromFileAndEnvironment() throws {
        let path = try Self.write("abc", mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = StaticTokenSource(.file(path), account: "acme")
        #expect(try fromFile.token() == "abc")
        #expect(try fromFile.refresh() == false)
        #expect(fromFile.renewal == "Renew it in \(path).")
        let unset = StaticTokenSource(.environment("STOCKTAKE_TEST_UNSET_VARIABLE"), account: "acme")
        #expect(
            throws: SyncError.secrets(account: "acme", path: "$STOCKTAKE_TEST_UNSET_VARIABLE", reason: "is not set")
        ) {
            try unset.token()
        }
        #expect(unset.renewal == "Set a fresh token in STOCKTAKE_TEST_UNSET_VARIABLE.")
    }
}
