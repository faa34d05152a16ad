import Foundation
import Testing

/// What one run of the `stocktake` executable did.
struct CommandResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs the built `stocktake` executable as a user would, in a fresh temporary folder.
final class CommandRunner {
    /// The folder the command runs in; removed when the runner goes away.
    let folder: String

    init() {
        folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("stocktake-cli-" + UUID().uuidString)
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The built executable: next to the test bundle, or in a `.build/debug` folder above it.
    static let executable: String? = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var candidates = [bundle.deletingLastPathComponent().appendingPathComponent("stocktake").path]
        var folder = bundle.deletingLastPathComponent()
        while folder.path != "/" {
            candidates.append(folder.appendingPathComponent(".build/debug/stocktake").path)
            folder = folder.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String {
        (folder as NSString).appendingPathComponent(name)
    }

    /// Writes `text` to `name` inside the folder (creating sub-folders) and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) -> String {
        let file = path(name)
        try! FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }

    /// The text of `name` inside the folder, or `nil`.
    func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: path(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The `runs/<id>` folder that `state/<account>/latest` names: the run whose report the account's line names.
    func latest(_ account: String) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: path("state/\(account)/latest"))
    }

    /// Runs `stocktake` with `arguments` in the folder and waits for it.
    func run(_ arguments: [String]) throws -> CommandResult {
        let executable = try #require(
            Self.executable,
            """
            the stocktake executable was not found next to \(CommandLine.arguments[0]) or in a .build/debug \
            folder above it; build it with 'swift build' first
            """)
        return try run(program: executable, arguments)
    }

    /// Runs `program` with `arguments` in the folder and waits for it (`prlimit` in front of `stocktake`, say),
    /// under exactly `environment` when one is given, else under the tests' own.
    func run(program: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
        let output = path(".stdout-" + UUID().uuidString)
        let error = path(".stderr-" + UUID().uuidString)
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: error, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: error)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardInput = FileHandle.nullDevice
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: error))
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        try process.run()
        process.waitUntilExit()
        try outputHandle.close()
        try errorHandle.close()
        let text = { (file: String) in
            String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
        }
        return CommandResult(
            status: process.terminationStatus, standardOutput: text(output), standardError: text(error))
    }
}
