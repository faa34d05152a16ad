import Foundation

/// A fresh folder under the system's temporary folder, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("stocktake-tests-" + UUID().uuidString)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// Writes `text` as UTF-8 to `name` (creating its sub-folders) and returns the file's path.
    @discardableResult
    func write(_ text: String, to name: String) -> String {
        write(Array(text.utf8), to: name)
    }

    /// Writes `bytes` to `name` (creating its sub-folders) and returns the file's path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) -> String {
        let file = path(name)
        let folder = (file as NSString).deletingLastPathComponent
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
        return file
    }

    /// The text of `name`, or `nil` when it does not exist.
    func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: path(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The names in the folder (or in its sub-folder `name`), sorted.
    func list(_ name: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: name.isEmpty ? path : path(name))) ?? []).sorted()
    }
}
