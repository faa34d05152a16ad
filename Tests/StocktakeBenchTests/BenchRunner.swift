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
        try Self.writeExecutable(Array(("#!/bin/sh\n" + text).utf8), to: file)
        return file
    }

    /// Copies the executable at `source` to `name` in the folder and returns its path.
    func copyExecutable(_ source: String, to name: String) throws -> String {
        let file = path(name)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let bytes = try #require(FileManager.default.contents(atPath: source), "\(source) cannot be read")
        try Self.writeExecutable(Array(bytes), to: file)
        return file
    }

    /// Writes a new executable file through a close-on-exec descriptor: a program another test starts meanwhile
    /// must not inherit it open for writing, or running the file would fail with "Text file busy" (ETXTBSY).
    static func writeExecutable(_ bytes: [UInt8], to file: String) throws {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0, "\(file) cannot be created (errno \(errno))")
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        close(descriptor)
        try #require(written == bytes.count, "\(file) was not written whole")
    }

    /// Whether `error`, thrown by `Process.run()`, is exec's ETXTBSY: Foundation reports it as a POSIX error or as a
    /// Cocoa one whose underlying error is the POSIX one.
    static func isTextFileBusy(_ error: NSError) -> Bool {
        if error.domain == NSPOSIXErrorDomain { return error.code == Int(ETXTBSY) }
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError else { return false }
        return underlying.domain == NSPOSIXErrorDomain && underlying.code == Int(ETXTBSY)
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
            } catch let error as NSError where Self.isTextFileBusy(error) {
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
