import Foundation

/// A fresh folder's place in /tmp (`prefix` and a UUID), the folder removed when the last reference goes. A test value
/// that is copied and changed (a fixture, a site) cannot remove its folder itself: it holds one of these, and the
/// folder goes with the last copy.
final class TemporaryFolder: Sendable {
    let url: URL

    var path: String { url.path }

    init(prefix: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + UUID().uuidString)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
