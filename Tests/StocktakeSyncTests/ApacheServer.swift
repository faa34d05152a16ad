import Foundation
import StocktakeSync

#if canImport(Glibc)
    import Glibc
#endif

/// A private Apache httpd with mod_dav, serving a throwaway document root over TLS on a free port of 127.0.0.1.
///
/// Each server gets its own temporary folder with a certificate authority made by `openssl`, a configuration
/// (from the template `Servers/apache-dav.conf`) and a document root that only one bearer token may read and
/// write. It is started with `apache2 -f CONF -k start` and stopped with `-k stop`. Suites get one with the
/// `.apacheServer` trait, which stops it after the suite whatever happened; tests reach it as
/// `ApacheServer.current`.
final class ApacheServer: Sendable {
    /// The server of the suite being run.
    @TaskLocal static var current: ApacheServer?

    /// `https://127.0.0.1:PORT`, without a trailing slash.
    let baseURL: String
    let port: Int
    /// The certificate authority to trust (PEM).
    let caFile: String
    /// The only bearer token the server lets in.
    let token: String
    /// The folder served at `/`, for reading and changing files behind the server's back.
    let documentRoot: String
    private let directory: String
    private let configuration: String
    private let apache: String
    /// Debian's httpd account, which owns the document root when the tests run as root.
    private let owner: (user: uid_t, group: gid_t)?

    /// Where Debian installs httpd.
    static let apacheCandidates = ["/usr/sbin/apache2"]

    /// Whether the environment insists that server tests run (`make test` sets `STOCKTAKE_REQUIRE_SERVERS=1`).
    static var serversRequired: Bool {
        ProcessInfo.processInfo.environment["STOCKTAKE_REQUIRE_SERVERS"] == "1"
    }

    /// The first program the server needs that is not installed, if any.
    static var missingProgram: ApacheServerFailure? {
        if ExternalProgram.find("apache2", candidates: apacheCandidates) == nil
            || !(ApacheConfiguration.moduleFiles ?? []).allSatisfy({ FileManager.default.fileExists(atPath: $0) })
        {
            return .missingProgram(name: "Apache httpd with mod_dav", package: "apache2")
        }
        if ExternalProgram.find("openssl") == nil { return .missingProgram(name: "openssl", package: "openssl") }
        return nil
    }

    /// Whether suites using the server run: always when required (they then fail if a program is missing),
    /// otherwise only when everything is installed.
    static var isEnabled: Bool { serversRequired || missingProgram == nil }

    private init(
        port: Int, directory: String, configuration: String, apache: String, token: String,
        owner: (user: uid_t, group: gid_t)?
    ) {
        self.port = port
        self.baseURL = "https://127.0.0.1:\(port)"
        self.caFile = directory + "/ca.pem"
        self.token = token
        self.documentRoot = directory + "/documents"
        self.directory = directory
        self.configuration = configuration
        self.apache = apache
        self.owner = owner
    }

    /// Makes the certificates and the configuration in a new temporary folder and starts httpd; returns once it
    /// accepts connections.
    static func start() throws(ApacheServerFailure) -> ApacheServer {
        if let missingProgram { throw missingProgram }
        let apache = ExternalProgram.find("apache2", candidates: apacheCandidates)!
        let openssl = ExternalProgram.find("openssl")!
        let directory = try makeDirectory()
        var started = false
        defer { if !started { try? FileManager.default.removeItem(atPath: directory) } }
        var owner: (user: uid_t, group: gid_t)?
        if geteuid() == 0 {
            guard let account = getpwnam("www-data") else {
                throw .setUp("the tests run as root but there is no www-data account for httpd's workers")
            }
            owner = (account.pointee.pw_uid, account.pointee.pw_gid)
        }
        for folder in ["documents", "lock", "run"] {
            let path = directory + "/" + folder
            guard mkdir(path, 0o755) == 0 else { throw .setUp("could not create \(path)") }
            if let owner, folder != "run" { chown(path, owner.user, owner.group) }
        }
        try TestCertificateAuthority.make(in: directory, openssl: openssl)
        let token = "stocktake-test-" + UUID().uuidString.lowercased()
        let configuration = directory + "/httpd.conf"
        var lastFailure = ApacheServerFailure.setUp("httpd did not start")
        for _ in 0..<3 {
            let port = try freePort()
            let text = try ApacheConfiguration.text(
                directory: directory, port: port, token: token, user: owner == nil ? nil : "www-data")
            do {
                try text.write(toFile: configuration, atomically: true, encoding: .utf8)
            } catch {
                throw .setUp("could not write \(configuration): \(error)")
            }
            let server = ApacheServer(
                port: port, directory: directory, configuration: configuration, apache: apache, token: token,
                owner: owner)
            do throws(ApacheServerFailure) {
                try server.launch()
                started = true
                return server
            } catch {
                server.stop(removingFiles: false)
                lastFailure = error
            }
        }
        throw lastFailure
    }

    /// Stops httpd, waits for it to exit, and removes the temporary folder.
    func stop() {
        stop(removingFiles: true)
    }

    /// The URL of a file in the document root.
    func url(_ name: String) -> String {
        baseURL + "/" + name
    }

    /// Puts a file into the document root directly, as another user of the share would.
    ///
    /// Its modification time is set `modifiedSecondsAgo` in the past: httpd gives files changed within the last
    /// second a weak `ETag`, which `If-Match` never matches; pass 0 to get exactly that.
    func write(_ bytes: [UInt8], to name: String, modifiedSecondsAgo: Double = 10) throws {
        let path = documentRoot + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        if let owner { chown(path, owner.user, owner.group) }
        guard modifiedSecondsAgo > 0 else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let back = Int(modifiedSecondsAgo.rounded(.up))
        let past = timespec(tv_sec: now.tv_sec - back, tv_nsec: now.tv_nsec)
        let times = [past, past]
        guard utimensat(AT_FDCWD, path, times, 0) == 0 else {
            throw ApacheServerFailure.setUp("could not set the modification time of \(path)")
        }
    }

    /// Makes a folder in the document root that httpd may write into.
    func makeFolder(_ name: String) throws {
        let path = documentRoot + "/" + name
        guard mkdir(path, 0o755) == 0 else { throw ApacheServerFailure.setUp("could not create \(path)") }
        if let owner { chown(path, owner.user, owner.group) }
    }

    /// The strong `ETag` httpd gives a file that has not changed for a second: its size and its modification time
    /// in microseconds, both in hexadecimal (`FileETag MTime Size`).
    func etag(of name: String) throws -> String {
        var status = stat()
        guard stat(documentRoot + "/" + name, &status) == 0 else {
            throw ApacheServerFailure.setUp("no file \(name) in the document root")
        }
        let microseconds = Int(status.st_mtim.tv_sec) * 1_000_000 + Int(status.st_mtim.tv_nsec) / 1000
        return "\"\(String(status.st_size, radix: 16))-\(String(microseconds, radix: 16))\""
    }

    /// An account session for this server: the server's token (or `token`), sent to its origin only, and the
    /// test certificate authority trusted unless `trustingTheAuthority` is false. Retries do not wait.
    func session(account: String = "acme", token: String? = nil, trustingTheAuthority: Bool = true)
        -> AccountSession
    {
        var limits = TransferLimits()
        limits.caFile = trustingTheAuthority ? caFile : nil
        limits.connectTimeoutSeconds = 5
        limits.totalTimeoutSeconds = 20
        return AccountSession(
            account: account, client: HTTPClient(limits: limits, sleep: { _ in }),
            credentials: FixedToken(value: token ?? self.token), allowedOrigins: ["https://127.0.0.1:\(port)"])
    }

    /// A bearer token that never changes: the test double of an account's credentials.
    struct FixedToken: BearerTokenSource {
        let value: String

        func token() throws(SyncError) -> String { value }

        func refresh() throws(SyncError) -> Bool { false }

        var renewal: String { "Renew it in Jobs/acme/secrets/token." }

        var secrets: [String] { [value] }
    }

    /// `METHOD PATH CONTENT-TYPE IF-MATCH` of the requests httpd has answered so far whose line contains `text`
    /// (`-` for a missing header). httpd logs a request after answering it, so the log is read again for
    /// up to two seconds until it holds `count` such lines.
    func requestLog(containing text: String, count: Int) -> [String] {
        var lines: [String] = []
        for _ in 0..<40 {
            let log = FileManager.default.contents(atPath: directory + "/requests.log").map {
                String(decoding: $0, as: UTF8.self)
            }
            lines = (log ?? "").split(separator: "\n").map(String.init).filter { $0.contains(text) }
            if lines.count >= count { break }
            usleep(50_000)
        }
        return lines
    }

    /// The bytes of a file in the document root, or `nil` when there is none.
    func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: documentRoot + "/" + name).map { [UInt8]($0) }
    }

    /// Deletes a file from the document root, if it is there.
    func remove(_ name: String) {
        unlink(documentRoot + "/" + name)
    }

    /// The names of the files in the document root, sorted.
    func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: documentRoot)) ?? []).sorted()
    }

    // MARK: - Starting and stopping

    private static func makeDirectory() throws(ApacheServerFailure) -> String {
        var template = Array((NSTemporaryDirectory() + "/stocktake-dav-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw .setUp("could not create a temporary folder") }
        let directory = String(cString: made)
        // httpd's workers (www-data) must be able to reach the document root.
        chmod(directory, 0o755)
        return directory
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    private static func freePort() throws(ApacheServerFailure) -> Int {
        let socketHandle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketHandle >= 0 else { throw .setUp("could not open a socket to find a free port") }
        defer { close(socketHandle) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketHandle, generic, length) == 0 && getsockname(socketHandle, generic, &length) == 0
            }
        }
        guard bound else { throw .setUp("could not find a free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Whether something accepts TCP connections on the port.
    private static func accepts(port: Int) -> Bool {
        let socketHandle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketHandle >= 0 else { return false }
        defer { close(socketHandle) }
        var address = loopback(port: UInt16(port))
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                connect(socketHandle, generic, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private var errorLog: String { directory + "/error.log" }
    private var controlLog: String { directory + "/apache2.log" }

    /// `apache2 -k start`, then waits until httpd listens or says why it cannot.
    private func launch() throws(ApacheServerFailure) {
        guard let status = ExternalProgram.run(apache, ["-f", configuration, "-k", "start"], log: controlLog) else {
            throw .setUp("could not run \(apache)")
        }
        guard status == 0 else {
            throw .setUp("apache2 -k start failed with status \(status): \(ApacheServerFailure.tail(of: controlLog))")
        }
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if processIdentifier() != nil && Self.accepts(port: port) { return }
            let log = ApacheServerFailure.tail(of: errorLog)
            if log.contains("could not bind") || log.contains("no listening sockets") || log.contains("AH00016") {
                throw .setUp("httpd could not listen on 127.0.0.1:\(port): \(log)")
            }
            usleep(20_000)
        }
        throw .setUp("httpd did not accept connections within 15 seconds: \(ApacheServerFailure.tail(of: errorLog))")
    }

    /// The process identifier in httpd's pid file, while that process runs.
    private func processIdentifier() -> pid_t? {
        guard let data = FileManager.default.contents(atPath: directory + "/httpd.pid"),
            let number = pid_t(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
            Self.isRunning(number)
        else { return nil }
        return number
    }

    /// Whether the process exists and is not a zombie waiting to be reaped.
    private static func isRunning(_ process: pid_t) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(process)/stat") else {
            return kill(process, 0) == 0
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let end = text.lastIndex(of: ")") else { return true }
        return !text[text.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    private func stop(removingFiles: Bool) {
        let running = processIdentifier()
        _ = ExternalProgram.run(apache, ["-f", configuration, "-k", "stop"], log: controlLog)
        if let running {
            let deadline = Date().addingTimeInterval(10)
            while Self.isRunning(running) && Date() < deadline { usleep(20_000) }
            // A server that ignores the polite stop is one this test started: end it.
            if Self.isRunning(running) { kill(running, SIGKILL) }
        }
        if removingFiles { try? FileManager.default.removeItem(atPath: directory) }
    }
}
