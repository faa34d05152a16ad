import Foundation
import StocktakeJob

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh folder for one test's state tree, removed when the test ends.
final class TemporaryStateRoot {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "stocktake-state-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The state folder of the account `name` under this root.
    func state(_ name: String = "vt-nis") -> AccountState {
        AccountState(root: path + "/state", account: AccountName(name)!)
    }

    /// The permission bits of the file or folder at `path`, or `nil` when it does not exist.
    static func mode(of path: String) -> mode_t? {
        var information = stat()
        guard lstat(path, &information) == 0 else { return nil }
        return information.st_mode & 0o7777
    }
}
