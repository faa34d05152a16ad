import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads credentials from files that only their owner can read, the way ssh treats private keys.
public enum SecretsFile {
    /// The file's text, trimmed; refuses a file that group or others can read.
    public static func read(_ path: String, account: String) throws(SyncError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .secrets(
                account: account, path: path,
                reason: "does not exist; create it holding only the secret, readable by its owner only (chmod 600)")
        }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw .secrets(
                account: account, path: path,
                reason: "can be read by others (mode \(String(permissions, radix: 8))); run chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .secrets(account: account, path: path, reason: "cannot be read by this user")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .secrets(account: account, path: path, reason: "is empty") }
        return text
    }
}
