import Foundation
import StocktakeTestServers

/// `Servers/cutoff_server.py` on 127.0.0.1: serves a sheet without a Content-Length and closes the connection after
/// a share of its bytes, the first `cutTimes` times (-1: always); PUT replaces the sheet. Stops, and removes its
/// folder, when released.
final class CutOffServer {
    let sheetFile: String
    private let recordFile: String
    /// The fresh folder in /tmp holding the sheet and the record of requests; removed when the server is released,
    /// so no `cutoff-…` folder outlives its test.
    private let folder: String
    private let server: LoopbackScript

    /// The sheet's file name, the last part of its address.
    let name: String

    convenience init(sheet: String, fraction: Double, cutTimes: Int) throws {
        try self.init(bytes: Array(sheet.utf8), name: "central.csv", fraction: fraction, cutTimes: cutTimes)
    }

    /// Serves `bytes` as `name` (`central.xlsx` for a workbook).
    init(bytes: [UInt8], name: String, fraction: Double, cutTimes: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cutoff-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var started = false
        defer { if !started { try? FileManager.default.removeItem(atPath: folder) } }
        self.folder = folder
        self.name = name
        sheetFile = folder + "/" + name
        recordFile = folder + "/requests.txt"
        try Data(bytes).write(to: URL(fileURLWithPath: sheetFile))
        _ = FileManager.default.createFile(atPath: recordFile, contents: nil)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Servers/cutoff_server.py").path
        server = try LoopbackScript(
            script: script, arguments: [sheetFile, String(fraction), String(cutTimes), recordFile])
        started = true
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    var port: Int { server.port }

    /// The sheet's address.
    var url: String { "http://127.0.0.1:\(port)/\(name)" }

    /// The sheet as the server holds it now.
    var sheet: String { (try? String(contentsOfFile: sheetFile, encoding: .utf8)) ?? "" }

    /// The sheet's bytes as the server holds them now.
    var bytes: [UInt8] { FileManager.default.contents(atPath: sheetFile).map { [UInt8]($0) } ?? [] }

    /// `METHOD path` of every request so far.
    var requests: [String] {
        ((try? String(contentsOfFile: recordFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
