import Foundation
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

    /// The port of the sheet server.
    let port: Int
    /// The port of the recorder, another origin.
    let recorderPort: Int
    /// The sheet the server serves; never written by it.
    let sheet: String
    private let record: String
    private let process: Process
    private let input: Pipe

    /// Starts the server in `mode`, serving `csv`; files go into `folder`.
    init(mode: String, csv: String, folder: String) throws {
        sheet = (folder as NSString).appendingPathComponent("served.csv")
        record = (folder as NSString).appendingPathComponent("requests.jsonl")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try csv.write(toFile: sheet, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: record, contents: nil)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StocktakeSyncTests/Servers/hostile_server.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, mode, sheet, record]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var text = ""
        while text.filter({ $0 == "\n" }).count < 2 {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let ports = text.split(separator: "\n").compactMap { Int($0) }
        guard ports.count == 2 else {
            process.terminate()
            process.waitUntilExit()
            throw Failure(reason: "the hostile server printed \(text.debugDescription) instead of two ports")
        }
        port = ports[0]
        recorderPort = ports[1]
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

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

    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }
}
