import Foundation
import StocktakeTestServers

/// `Servers/token_server.py` running on 127.0.0.1: serves one sheet to one bearer token and records every
/// Authorization header it receives. Stops, and removes its folder, when released.
final class TokenServer {
    let recordFile: String
    /// The fresh folder in /tmp holding the sheet and the record of requests; removed when the server is released,
    /// so no `token-…` folder outlives its test.
    private let folder: String
    private let server: LoopbackScript

    init(token: String, csv: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var started = false
        defer { if !started { try? FileManager.default.removeItem(atPath: folder) } }
        self.folder = folder
        let sheet = folder + "/sheet.csv"
        recordFile = folder + "/requests.txt"
        try csv.write(toFile: sheet, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: recordFile, contents: nil)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Servers/token_server.py").path
        server = try LoopbackScript(script: script, arguments: [token, sheet, recordFile])
        started = true
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    var port: Int { server.port }

    /// `path<TAB>Authorization` of every request received so far.
    var requests: [String] {
        ((try? String(contentsOfFile: recordFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
