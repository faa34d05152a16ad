import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `Servers/cutoff_server.py` on 127.0.0.1: serves a sheet without a Content-Length and closes the connection after
/// a share of its bytes, the first `cutTimes` times (-1: always); PUT replaces the sheet. Stops when released.
final class CutOffServer {
    let port: Int
    let sheetFile: String
    private let recordFile: String
    private let process: pid_t
    private let input: Int32

    init(sheet: String, fraction: Double, cutTimes: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cutoff-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        sheetFile = folder + "/central.csv"
        recordFile = folder + "/requests.txt"
        try sheet.write(toFile: sheetFile, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: recordFile, contents: nil)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Servers/cutoff_server.py").path
        var toServer: [Int32] = [0, 0]
        var fromServer: [Int32] = [0, 0]
        guard pipe(&toServer) == 0, pipe(&fromServer) == 0 else { throw Failure.cannotStart("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toServer[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromServer[1], 1)
        posix_spawn_file_actions_addclose(&actions, toServer[1])
        posix_spawn_file_actions_addclose(&actions, fromServer[0])
        let arguments = ["/usr/bin/env", "python3", script, sheetFile, String(fraction), String(cutTimes), recordFile]
        var pointers = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/env", &actions, nil, &pointers, environ) == 0 else {
            throw Failure.cannotStart("python3 could not be started; install it (Debian package python3)")
        }
        close(toServer[0])
        close(fromServer[1])
        process = pid
        input = toServer[1]
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fromServer[0], &byte, 1) == 1, byte != 0x0A { line.append(byte) }
        close(fromServer[0])
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            throw Failure.cannotStart("the cut-off server printed no port")
        }
        self.port = port
    }

    deinit {
        close(input)
        var status: Int32 = 0
        waitpid(process, &status, 0)
    }

    /// The sheet's address.
    var url: String { "http://127.0.0.1:\(port)/central.csv" }

    /// The sheet as the server holds it now.
    var sheet: String { (try? String(contentsOfFile: sheetFile, encoding: .utf8)) ?? "" }

    /// `METHOD path` of every request so far.
    var requests: [String] {
        ((try? String(contentsOfFile: recordFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    enum Failure: Error {
        case cannotStart(String)
    }
}
