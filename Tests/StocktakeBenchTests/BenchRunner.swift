import Foundation
import Testing

/// What one run of `stocktake-bench` did.
struct BenchResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs the built `stocktake-bench` (which runs the `stocktake` beside it) in a fresh temporary folder.
final class BenchRunner {
    /// The folder; removed when the runner goes away.
    let folder: String

    init() {
        folder = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "stocktake-bench-test-" + UUID().uuidString)
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The folder holding the built executables: that of the test bundle, or a `.build/debug` above it.
    static let buildFolder: String? = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var candidates = [bundle.deletingLastPathComponent().path]
        var folder = bundle.deletingLastPathComponent()
        while folder.path != "/" {
            candidates.append(folder.appendingPathComponent(".build/debug").path)
            folder = folder.deletingLastPathComponent()
        }
        return candidates.first { candidate in
            ["stocktake", "stocktake-bench"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: candidate + "/" + $0)
            }
        }
    }()

    /// The built executable `name` (`stocktake` or `stocktake-bench`).
    static func executable(_ name: String) throws -> String {
        let folder = try #require(
            buildFolder,
            """
            stocktake and stocktake-bench were not found next to \(CommandLine.arguments[0]) or in a .build/debug \
            folder above it; build them with 'swift build' first
            """)
        return folder + "/" + name
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String {
        (folder as NSString).appendingPathComponent(name)
    }

    /// Writes an executable shell script `name` into the folder and returns its path.
    @discardableResult
    func script(_ name: String, _ text: String) throws -> String {
        let file = path(name)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(("#!/bin/sh\n" + text).utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
        return file
    }

    /// Runs the built `stocktake-bench` with `arguments`.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BenchResult {
        try run(program: Self.executable("stocktake-bench"), arguments, environment: environment)
    }

    /// Runs `program` with `arguments` in the folder, with `environment` added, and waits for it.
    func run(program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> BenchResult {
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
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: error))
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        // An executable this test copied a moment ago may still be open for writing in a child that another test
        // started meanwhile (it inherited the descriptor): exec then fails with ETXTBSY until that child has exec'd.
        var attempts = 0
        while true {
            do {
                try process.run()
                break
            } catch let error as NSError where error.domain == NSPOSIXErrorDomain && error.code == Int(ETXTBSY) {
                attempts += 1
                if attempts >= 50 { throw error }
                usleep(20_000)
            }
        }
        process.waitUntilExit()
        try outputHandle.close()
        try errorHandle.close()
        let text = { (file: String) in
            String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
        }
        return BenchResult(
            status: process.terminationStatus, standardOutput: text(output), standardError: text(error))
    }
}
