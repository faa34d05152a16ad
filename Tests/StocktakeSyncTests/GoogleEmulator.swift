import Foundation
import StocktakeSync
import Testing

/// The Google Sheets / Drive / OAuth emulator (`Servers/google_emulator.py`) running for one test.
///
/// Each test starts its own emulator with `start()`, so tests can run in parallel without sharing state, and calls
/// `stop()` when done (a `defer` right after starting). The emulator also exits by itself when this process closes
/// its standard input, so a crashed test run leaves nothing behind. Without `python3` the test is skipped, unless
/// the environment variable `STOCKTAKE_REQUIRE_SERVERS=1` says the servers must run: then it fails.
final class GoogleEmulator {
    /// Why the emulator could not be used.
    enum Failure: Error, CustomStringConvertible {
        case pythonMissing
        case startFailed(String)
        case control(String)

        var description: String {
            switch self {
            case .pythonMissing:
                "python3 is not installed, and STOCKTAKE_REQUIRE_SERVERS=1 requires the Google emulator tests. "
                    + "Install the Debian package python3."
            case .startFailed(let reason): "The Google emulator did not start: \(reason)"
            case .control(let reason): "The Google emulator's control API failed: \(reason)"
            }
        }
    }

    /// One tab of a spreadsheet as seeded: its title and rows (ragged rows allowed, "" is an empty cell).
    struct Sheet {
        var title: String
        var values: [[String]]
        var hidden = false
    }

    /// A spreadsheet as seeded. `access` is "write", "read" (writes get 403) or "none" (everything gets 403).
    struct Spreadsheet {
        var sheets: [Sheet]
        var access = "write"
    }

    /// A Drive file as seeded. A Google Sheet has `mimeType` `application/vnd.google-apps.spreadsheet` and
    /// `content` is what its CSV export gives. `access` is "write" or "read" (uploads get 403). A file on a shared
    /// drive is only found by requests with `supportsAllDrives=true`.
    struct DriveFile {
        var name: String
        var mimeType = "text/csv"
        var content: String
        /// The content as bytes (an `.xlsx` workbook), sent instead of `content` when set.
        var bytes: [UInt8]? = nil
        var version = 1
        var access = "write"
        var sharedDrive = false
    }

    /// Everything the emulator starts a test with; `setUp(_:)` replaces its whole state with this.
    struct Setup {
        var clientID = "emulator-client"
        var clientSecret = "emulator-secret"
        /// Refresh tokens the token endpoint accepts.
        var refreshTokens: [String] = []
        /// Whether every refresh answers with a new refresh token and revokes the one used.
        var rotatesRefreshTokens = false
        /// `expires_in` of issued access tokens.
        var accessTokenLifetime = 3599
        /// Access tokens valid from the start, with seconds until they expire (negative: already expired).
        var accessTokens: [String: Int] = [:]
        var spreadsheets: [String: Spreadsheet] = [:]
        var files: [String: DriveFile] = [:]
    }

    /// A way to misbehave, applied to requests whose path starts with `pathPrefix` (and whose method is `method`,
    /// when given), after letting `skip` of them through, for `times` requests (-1: for ever).
    struct Fault {
        var pathPrefix: String
        var method: String?
        var skip = 0
        var times = 1
        /// Answer with this status and a Google error body (`message` overrides the default message).
        var status: Int?
        var message: String?
        var retryAfter: String?
        /// Start a body, then send nothing for this many seconds.
        var stallSeconds: Double?
        /// Answer 200 with a body of this many bytes (without Content-Length when `omitLength`).
        var oversizeBytes: Int?
        var omitLength = false
        /// Answer 307 (or `status`) with this `Location`.
        var redirectTo: String?
    }

    /// A request one of the listeners received.
    struct RecordedRequest {
        /// "api" or "recorder".
        var listener: String
        var method: String
        /// Path and query as sent.
        var path: String
        /// Header names in lower case.
        var headers: [String: String]
        var body: String
    }

    /// A token that is what it is: it cannot be refreshed, like one read from a file.
    struct FixedToken: BearerTokenSource {
        var value: String
        func token() throws(SyncError) -> String { value }
        func refresh() throws(SyncError) -> Bool { false }
        var renewal: String { "Renew it in Jobs/acme/secrets/token." }
        var secrets: [String] { [value] }
    }

    /// The port of the emulated APIs and token endpoint.
    let port: Int
    /// The port of the recorder: another origin that only records what it receives.
    let recorderPort: Int
    private let process: Process
    private let input: Pipe
    private let control: HTTPClient

    /// The base URL of every emulated API: `http://127.0.0.1:PORT`.
    var baseURL: EndpointURL { try! EndpointURL("http://127.0.0.1:\(port)") }
    /// The emulated token endpoint.
    var tokenURL: EndpointURL { try! EndpointURL("http://127.0.0.1:\(port)/token") }
    /// A URL on the recorder.
    func recorderURL(path: String = "/elsewhere") -> String { "http://127.0.0.1:\(recorderPort)\(path)" }

    /// Starts an emulator, or skips the test when python3 is missing and not required.
    static func start() throws -> GoogleEmulator {
        guard pythonIsInstalled else {
            if ProcessInfo.processInfo.environment["STOCKTAKE_REQUIRE_SERVERS"] == "1" {
                throw Failure.pythonMissing
            }
            try Test.cancel("python3 is not installed, so the Google emulator tests are skipped.")
        }
        return try GoogleEmulator()
    }

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Servers/google_emulator.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw Failure.startFailed("\(error)")
        }
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
            throw Failure.startFailed("it printed \(text.debugDescription) instead of two port numbers.")
        }
        port = ports[0]
        recorderPort = ports[1]
        control = Self.client(attempts: 1)
    }

    deinit {
        stop()
    }

    /// Stops the emulator and waits for it to exit.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    /// Whether `python3` is on the PATH, where `/usr/bin/env` looks for it.
    private static var pythonIsInstalled: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
    }

    /// A client with small limits whose waits are recorded instead of slept.
    static func client(
        sleeps: SleepRecorder = SleepRecorder(), attempts: Int = 4, configure: (inout TransferLimits) -> Void = { _ in }
    ) -> HTTPClient {
        var limits = TransferLimits()
        limits.connectTimeoutSeconds = 5
        limits.totalTimeoutSeconds = 10
        configure(&limits)
        var retry = RetryPolicy()
        retry.maximumAttempts = attempts
        retry.baseDelaySeconds = 0.5
        return HTTPClient(limits: limits, retry: retry, sleep: sleeps.sleep)
    }

    /// Account acme's session against this emulator: its token may go to the emulator's origin only.
    func session(credentials: any BearerTokenSource, client: HTTPClient = GoogleEmulator.client()) -> AccountSession {
        AccountSession(account: "acme", client: client, credentials: credentials, allowedOrigins: [baseURL.origin])
    }

    // MARK: Control API

    /// Replaces the emulator's whole state.
    func setUp(_ setup: Setup) throws {
        let spreadsheets = setup.spreadsheets.mapValues { book -> [String: Any] in
            [
                "access": book.access,
                "sheets": book.sheets.map { ["title": $0.title, "values": $0.values, "hidden": $0.hidden] },
            ]
        }
        let files = setup.files.mapValues { file -> [String: Any] in
            var fields: [String: Any] = [
                "name": file.name, "mimeType": file.mimeType, "content": file.content, "version": file.version,
                "access": file.access, "sharedDrive": file.sharedDrive,
            ]
            if let bytes = file.bytes { fields["contentBase64"] = Data(bytes).base64EncodedString() }
            return fields
        }
        let body: [String: Any] = [
            "client": ["id": setup.clientID, "secret": setup.clientSecret],
            "refreshTokens": setup.refreshTokens,
            "rotateRefreshTokens": setup.rotatesRefreshTokens,
            "accessTokenLifetime": setup.accessTokenLifetime,
            "tokens": setup.accessTokens.map { ["token": $0.key, "expiresIn": $0.value] },
            "spreadsheets": spreadsheets,
            "files": files,
        ]
        _ = try call("POST", "state", body)
    }

    /// The rows of a tab as values.get would show them (trailing empty cells and rows removed).
    func values(of spreadsheet: String, sheet: String? = nil) throws -> [[String]] {
        let state = try call("GET", "state") as? [String: Any]
        guard let books = state?["spreadsheets"] as? [String: Any], let book = books[spreadsheet] as? [String: Any],
            let sheets = book["sheets"] as? [[String: Any]],
            let tab = sheets.first(where: { sheet == nil || $0["title"] as? String == sheet })
        else { throw Failure.control("no spreadsheet \(spreadsheet) tab \(sheet ?? "(first)")") }
        return (tab["values"] as? [[Any]] ?? []).map { row in row.map { "\($0)" } }
    }

    /// A Drive file's content and version.
    func file(_ identifier: String) throws -> (content: String, version: Int) {
        let state = try call("GET", "state") as? [String: Any]
        guard let files = state?["files"] as? [String: Any], let file = files[identifier] as? [String: Any],
            let content = file["content"] as? String, let version = file["version"] as? Int
        else { throw Failure.control("no file \(identifier)") }
        return (content, version)
    }

    /// A Drive file's content as bytes, and its version.
    func fileBytes(_ identifier: String) throws -> (bytes: [UInt8], version: Int) {
        let state = try call("GET", "state") as? [String: Any]
        guard let files = state?["files"] as? [String: Any], let file = files[identifier] as? [String: Any],
            let encoded = file["contentBase64"] as? String, let bytes = Data(base64Encoded: encoded),
            let version = file["version"] as? Int
        else { throw Failure.control("no file \(identifier)") }
        return ([UInt8](bytes), version)
    }

    /// Another writer replaces a Drive file's content with `bytes`, which raises its version.
    func edit(file: String, bytes: [UInt8]) throws {
        _ = try call("POST", "edit", ["file": file, "contentBase64": Data(bytes).base64EncodedString()])
    }

    /// The refresh tokens the token endpoint currently accepts.
    func refreshTokens() throws -> [String] {
        let state = try call("GET", "state") as? [String: Any]
        return state?["refreshTokens"] as? [String] ?? []
    }

    /// Another writer replaces a tab's values.
    func edit(spreadsheet: String, sheet: String? = nil, values: [[String]]) throws {
        var body: [String: Any] = ["spreadsheet": spreadsheet, "values": values]
        if let sheet { body["sheet"] = sheet }
        _ = try call("POST", "edit", body)
    }

    /// Another writer replaces a Drive file's content, which raises its version.
    func edit(file: String, content: String) throws {
        _ = try call("POST", "edit", ["file": file, "content": content])
    }

    /// Makes `token` valid for `seconds` (negative: expired).
    func seed(accessToken token: String, expiresIn seconds: Int) throws {
        _ = try call("POST", "tokens", ["token": token, "expiresIn": seconds])
    }

    /// Expires one access token, or all of them.
    func expire(accessToken token: String? = nil) throws {
        _ = try call("POST", "expire", token.map { ["token": $0] } ?? [:])
    }

    /// Adds a fault.
    func inject(_ fault: Fault) throws {
        var body: [String: Any] = ["pathPrefix": fault.pathPrefix, "skip": fault.skip, "times": fault.times]
        if let method = fault.method { body["method"] = method }
        if let status = fault.status { body["status"] = status }
        if let message = fault.message { body["message"] = message }
        if let retryAfter = fault.retryAfter { body["retryAfter"] = retryAfter }
        if let stallSeconds = fault.stallSeconds { body["stallSeconds"] = stallSeconds }
        if let oversizeBytes = fault.oversizeBytes { body["oversizeBytes"] = oversizeBytes }
        if fault.omitLength { body["omitLength"] = true }
        if let redirectTo = fault.redirectTo { body["redirectTo"] = redirectTo }
        _ = try call("POST", "fault", body)
    }

    /// What the recorder answers to anything.
    func setRecorderAnswer(status: Int = 200, contentType: String = "application/json", body: String) throws {
        _ = try call("POST", "recorder", ["status": status, "contentType": contentType, "body": body])
    }

    /// Every request both listeners received, in order (control calls excluded).
    func requests() throws -> [RecordedRequest] {
        guard let list = try call("GET", "requests") as? [[String: Any]] else {
            throw Failure.control("requests is not a list")
        }
        return list.map { item in
            RecordedRequest(
                listener: item["listener"] as? String ?? "", method: item["method"] as? String ?? "",
                path: item["path"] as? String ?? "", headers: item["headers"] as? [String: String] ?? [:],
                body: item["body"] as? String ?? "")
        }
    }

    /// The API requests received, as "METHOD path" lines, for exact comparisons.
    func requestLines(listener: String = "api") throws -> [String] {
        try requests().filter { $0.listener == listener }.map { "\($0.method) \($0.path)" }
    }

    /// Forgets the requests received so far.
    func forgetRequests() throws {
        _ = try call("DELETE", "requests")
    }

    private func call(_ method: String, _ name: String, _ body: [String: Any]? = nil) throws -> Any {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let request = HTTPRequest(
            method, try baseURL.appending(path: "/_control/\(name)"),
            headers: [(name: "Content-Type", value: "application/json")], body: data.map { [UInt8]($0) })
        let response = try control.send(request)
        guard response.status == 200 else { throw Failure.control("\(method) \(name): \(response.text)") }
        return try JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
    }
}
