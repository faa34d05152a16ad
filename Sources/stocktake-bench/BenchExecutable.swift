import Foundation

/// Where the running `stocktake-bench` is, so that the `stocktake` built with it is found beside it.
enum BenchExecutable {
    /// The folder of this program's file (links resolved), or that of its first argument when /proc is not
    /// mounted.
    static func folder() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path =
            count > 0
            ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        return (path as NSString).deletingLastPathComponent
    }

    /// The `stocktake` built beside this program; throws when there is none.
    static func stocktake() throws(BenchError) -> String {
        let stocktake = folder() + "/stocktake"
        guard FileManager.default.isExecutableFile(atPath: stocktake) else {
            throw .programMissing(
                path: stocktake, fix: "build it next to stocktake-bench with 'swift build -c release'.")
        }
        return stocktake
    }
}
