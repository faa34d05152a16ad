import Foundation
import StocktakeTestServers

/// `Servers/cutoff_server.py` on 127.0.0.1: serves a sheet without a Content-Length and closes the connection after
/// a share of its bytes, the first `cutTimes` times (-1: always); PUT replaces the sheet. Stops when released.
final class CutOffServer {
    let sheetFile: String
    private let recordFile: String
    private let server: LoopbackScript

    init(sheet: String, fraction: Double, cutTimes: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cutoff-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        sheetFile = folder + "/central.csv"
        recordFile = folder + "/requests.txt"
        try sheet.write(toFile: sheetFile, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: recordFile, contents: nil)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Servers/cutoff_server.py").path
        server = try LoopbackScript(
            script: script, arguments: [sheetFile, String(fraction), String(cutTimes), recordFile])
    }

    var port: Int { server.port }

    /// The sheet's address.
    var url: String { "http://127.0.0.1:\(port)/central.csv" }

    /// The sheet as the server holds it now.
    var sheet: String { (try? String(contentsOfFile: sheetFile, encoding: .utf8)) ?? "" }

    /// `METHOD path` of every request so far.
    var requests: [String] {
        ((try? String(contentsOfFile: recordFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
