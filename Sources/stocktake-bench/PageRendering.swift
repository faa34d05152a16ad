import Foundation

/// How long headless Chromium takes to load a page and paint it: `chromium --headless --screenshot`, from start to
/// exit, as a clerk's browser opens the report (Chromium's own start included; ``blankSeconds`` says how much that
/// is).
struct PageRendering: Sendable {
    /// The longest one rendering may take before it is killed and counted as failed.
    static let timeoutSeconds = 300

    /// Each rendering's wall seconds, in the order run.
    var seconds: [Double]
    /// The wall seconds of rendering an empty page the same way: Chromium's start and exit alone.
    var blankSeconds: Double

    /// The median of ``seconds``.
    var medianSeconds: Double {
        let sorted = seconds.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// The Chromium executable on the `PATH` (`chromium`, or `chromium-browser`).
    static func chromium() throws(BenchError) -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"]
            where FileManager.default.isExecutableFile(
                atPath: "\(folder)/\(name)")
            {
                return "\(folder)/\(name)"
            }
        }
        throw .programMissing(path: "chromium", fix: "install it with 'make test-deps' (Debian package chromium).")
    }

    /// Renders `page` `runs` times (and an empty page once) with `chromium`, writing screenshots and logs in `work`.
    static func measure(page: String, runs: Int, chromium: String, work: String) throws(BenchError) -> PageRendering {
        let blank = work + "/blank.html"
        do {
            try Data("<!doctype html><title>blank</title>\n".utf8).write(to: URL(fileURLWithPath: blank))
        } catch {
            throw .cannotWrite(path: blank, reason: "the file cannot be created (check the free space)")
        }
        let blankSeconds = try once(page: blank, chromium: chromium, work: work, name: "blank")
        var seconds: [Double] = []
        for run in 1...runs {
            seconds.append(try once(page: page, chromium: chromium, work: work, name: "report-\(run)"))
        }
        return PageRendering(seconds: seconds, blankSeconds: blankSeconds)
    }

    /// One rendering of `page`; throws when Chromium fails, times out or writes no screenshot.
    private static func once(page: String, chromium: String, work: String, name: String) throws(BenchError)
        -> Double
    {
        let screenshot = work + "/\(name).png"
        let process = MeasuredProcess(
            program: "/usr/bin/timeout",
            arguments: [
                "--kill-after=10", String(timeoutSeconds), chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars",
                "--user-data-dir=" + work
                    + "/profile-\(name)", "--window-size=1280,900", "--screenshot=" + screenshot,
                URL(fileURLWithPath: page).absoluteString,
            ], standardOutput: work + "/\(name).out", standardError: work + "/\(name).err")
        let (outcome, measurement) = try process.run()
        guard outcome.succeeded else {
            // timeout(1) exits 124 when it stopped Chromium.
            let log =
                outcome == .exited(124)
                ? "  it did not finish within \(timeoutSeconds) s" : LogTail.read(work + "/\(name).err")
            throw .programFailed(program: "chromium --headless --screenshot", outcome: outcome, log: log)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: screenshot)[.size] as? Int) ?? 0
        guard size > 0 else {
            throw .programFailed(
                program: "chromium --headless --screenshot", outcome: outcome,
                log: "  it wrote no screenshot of \(page)")
        }
        return measurement.wallSeconds
    }
}
