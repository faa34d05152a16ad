import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Renders an HTML file in headless Chromium, as a clerk's browser shows it and prints it: a PNG screenshot, PDF
/// prints at given paper sizes, and every message the page wrote to the console, with its level.
///
/// Chromium is driven by `Chromium/render_page.py` through the DevTools protocol over `--remote-debugging-pipe`.
/// Chromium's own log (`--enable-logging=stderr`) prints every console message at INFO, without its level, and its
/// `--print-to-pdf` prints on one paper size only; the protocol says each message's level, reports uncaught
/// exceptions, Content-Security-Policy violations and files that fail to load, prints at any paper size, and tells
/// when the load event fired. The driver runs in a process group of its own and is killed, with Chromium, when it
/// takes longer than the timeout.
struct HeadlessChromium {
    /// The Chromium executable: `chromium` (Debian) or `chromium-browser` on the `PATH`, or `nil`.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Why the rendering tests are skipped, or `nil` when Chromium is installed (`make test` installs it).
    static let missingReason: String? =
        executable == nil ? "chromium is not installed (Debian package chromium; 'make test-deps' installs it)" : nil

    /// The driver script beside this file.
    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Chromium/render_page.py").path

    /// A paper size to print on, in inches.
    struct Paper: Sendable, CustomStringConvertible {
        var name: String
        var width: Double
        var height: Double

        static let a4 = Paper(name: "A4", width: 8.27, height: 11.69)
        static let letter = Paper(name: "Letter", width: 8.5, height: 11)

        var description: String { name }
    }

    /// One message the page wrote to the console (or that Chromium logged for it: a failed load, a blocked script).
    struct ConsoleMessage: Decodable, Equatable, CustomStringConvertible {
        /// "error", "warning" or "info".
        var level: String
        var text: String
        /// The file or URL that wrote it.
        var source: String

        var description: String { "\(level): \(text) (\(source))" }
    }

    /// What one rendering produced.
    struct Rendering: Decodable {
        /// Seconds from navigating to the page to the first frame painted after its load event.
        var loadSeconds: Double
        /// Every console message, in order.
        var console: [ConsoleMessage]
        /// The text of each heading (h1–h6), in order, whitespace collapsed.
        var headings: [String]
        /// The header cells of each table that has header cells, in order.
        var tableHeaders: [[String]]

        /// The console messages of level error.
        var errors: [ConsoleMessage] { console.filter { $0.level == "error" } }
    }

    /// Why a page could not be rendered.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The longest a rendering may take before the driver and Chromium are killed.
    var timeout: Double = 120

    /// Loads `page` (a file), writes a `width`×`height` screenshot to `png` (when given) and one PDF per paper to
    /// `pdf[paper.name]`, and returns what the page logged and how it is structured.
    func render(
        page: String, png: String? = nil, width: Int = 1280, height: Int = 900, pdf: [(Paper, String)] = []
    ) throws -> Rendering {
        let chromium = try #require(Self.executable, "chromium is not installed")
        var arguments = [
            Self.driver, "--chromium", chromium, "--url", URL(fileURLWithPath: page).absoluteString, "--width",
            String(width), "--height", String(height), "--timeout", String(timeout),
        ]
        if let png { arguments += ["--png", png] }
        for (paper, file) in pdf { arguments += ["--pdf", "\(paper.name)=\(paper.width)x\(paper.height)=\(file)"] }
        let output = try Self.run(["/usr/bin/env", "python3"] + arguments, timeout: timeout + 15)
        guard output.status == 0 else {
            throw Failure(
                description: "headless Chromium could not render \(page) (status \(output.status)): "
                    + output.standardError)
        }
        do {
            return try JSONDecoder().decode(Rendering.self, from: Data(output.standardOutput.utf8))
        } catch {
            throw Failure(description: "render_page.py printed no rendering for \(page): \(output.standardOutput)")
        }
    }

    /// The text of each page of the PDF at `path`, as `pdftotext -layout` lays it out (poppler-utils).
    static func pages(ofPDF path: String) throws -> [String] {
        let output = try run(["/usr/bin/env", "pdftotext", "-layout", "-enc", "UTF-8", path, "-"], timeout: 60)
        guard output.status == 0 else {
            throw Failure(description: "pdftotext cannot read \(path): \(output.standardError)")
        }
        var pages = output.standardOutput.components(separatedBy: "\u{0C}")
        // pdftotext ends every page with a form feed, so the last piece is empty.
        if pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return pages
    }

    /// The PDF's page size in points, from `pdfinfo` ("Page size: 595.92 x 841.92 pts (A4)").
    static func pageSize(ofPDF path: String) throws -> (width: Double, height: Double) {
        let output = try run(["/usr/bin/env", "pdfinfo", path], timeout: 60)
        let line = try #require(output.standardOutput.split(separator: "\n").first { $0.hasPrefix("Page size:") })
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        try #require(numbers.count >= 2, "pdfinfo printed \(line)")
        return (numbers[0], numbers[1])
    }

    /// What a helper program did.
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `command` in a process group of its own, killing the group after `timeout` seconds.
    static func run(_ command: [String], timeout: Double) throws -> Output {
        let folder = NSTemporaryDirectory() + "headless-chromium-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, folder + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, folder + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pointers = command.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, &pointers, environ)
        guard spawned == 0 else {
            throw Failure(description: "\(command[0]) cannot be started: \(String(cString: strerror(spawned)))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var timedOut = false
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { break }
            if Date() > deadline && !timedOut {
                // SIGTERM first: the driver then kills Chromium's own process group; SIGKILL if it does not end.
                timedOut = true
                kill(-pid, SIGTERM)
            } else if timedOut && Date() > deadline.addingTimeInterval(5) {
                kill(-pid, SIGKILL)
            }
            usleep(20_000)
        }
        let read = { (name: String) in
            String(decoding: FileManager.default.contents(atPath: folder + "/" + name) ?? Data(), as: UTF8.self)
        }
        if timedOut {
            throw Failure(description: "\(command.joined(separator: " ")) took longer than \(Int(timeout)) s")
        }
        let exited = status & 0x7f == 0
        return Output(
            status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), standardOutput: read("stdout"),
            standardError: read("stderr"))
    }
}
