import Foundation

/// A temporary folder for one benchmark's outputs, logs and (without `--data`) generated data.
struct WorkFolder {
    /// Its path.
    var path: String

    /// Makes a new, empty folder under the temporary directory.
    init() throws(BenchError) {
        var template = Array(
            (NSTemporaryDirectory() as NSString).appendingPathComponent("stocktake-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .cannotWrite(path: NSTemporaryDirectory(), reason: "no temporary folder can be made there")
        }
        path = String(cString: made)
    }

    /// Removes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
