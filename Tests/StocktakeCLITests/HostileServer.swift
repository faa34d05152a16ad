import Foundation
import StocktakeTestServers
import Testing

/// `Tests/StocktakeSyncTests/Servers/hostile_server.py` running on 127.0.0.1 for one test: a sheet server that
/// misbehaves as its mode says (redirects a push elsewhere, echoes the bearer token in error bodies), and a recorder
/// on another port. Stops when released; also exits by itself when this process closes its standard input.
final class HostileServer {
    /// One request a listener received.
    struct Request: Equatable {
        /// "sheet" or "recorder".
        var listener: String
        var method: String
        var path: String
        var authorization: String
        var bodyLength: Int
    }

    /// The sheet the server serves; never written by it.
    let sheet: String
    private let record: String
    private let server: LoopbackScript

    /// Starts the server in `mode`, serving `csv`; files go into `folder`.
    init(mode: String, csv: String, folder: String) throws {
        sheet = (folder as NSString).appendingPathComponent("served.csv")
        record = (folder as NSString).appendingPathComponent("requests.jsonl")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try csv.write(toFile: sheet, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: record, contents: nil)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StocktakeSyncTests/Servers/hostile_server.py").path
        server = try LoopbackScript(script: script, arguments: [mode, sheet, record], listeners: 2)
    }

    /// The port of the sheet server.
    var port: Int { server.ports[0] }
    /// The port of the recorder, another origin.
    var recorderPort: Int { server.ports[1] }

    /// The sheet's address on the sheet server.
    var url: String { "http://127.0.0.1:\(port)/c.csv" }

    /// Every request received so far, in order.
    var requests: [Request] {
        let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return Request(
                listener: object["listener"] as? String ?? "", method: object["method"] as? String ?? "",
                path: object["path"] as? String ?? "", authorization: object["authorization"] as? String ?? "",
                bodyLength: object["bodyLength"] as? Int ?? -1)
        }
    }

    /// The sheet as the server holds it now.
    var sheetText: String? {
        try? String(contentsOfFile: sheet, encoding: .utf8)
    }
}

extension CommandRunner {
    /// Account acme: its central sheet at `url`, a token file (mode 0600) holding `token`, a push after each run,
    /// and sightings that see the hostile server's two tags.
    func remoteAccount(central url: String, token: String) throws {
        write(
            """
            {"central": {"provider": "https", "url": "\(url)"}, "sightings": ["scans/"],
             "auth": {"tokenFile": "secrets/token"}, "push": {"cleaned": true}}
            """, to: "Jobs/acme/account.json")
        write("Tag,Serial\n100001,S1\n100002,S2\n", to: "Jobs/acme/scans/a.csv")
        write(token + "\n", to: "Jobs/acme/secrets/token")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: path("Jobs/acme/secrets/token"))
    }
}
