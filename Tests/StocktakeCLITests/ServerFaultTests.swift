import Foundation
import StocktakeCore
import Testing

/// The cells of the server-fault matrix (README "Reliability") that no other test covered: a nightly `stocktake run`
/// whose central sheet's server resets the connection, answers a pull with an HTML login page, or refuses a push
/// with 403, 429, 500, 503 or a reset. Each checks the account's exact line, that nothing was pushed, what the state
/// keeps, and that the next night, with the server mended, pushes.
struct ServerFaultTests {
    /// The fault a server mode makes while pulling.
    enum PullFault: String, CaseIterable, Sendable {
        case reset = "GET:reset"
        case loginPage = "GET:login"
    }

    @Test(arguments: PullFault.allCases)
    func aPullFaultFailsTheAccountAndChangesNothing(fault: PullFault) throws {
        let matrix = try KillMatrix.make()
        let night = try NightUnderTest(matrix: matrix)
        try night.firstNight()
        let previous = try night.latest()
        let previousFiles = try night.files(inRun: previous)
        try night.server.answer(fault.rawValue)

        let result = try night.run(killAt: nil)
        #expect(result.status == 75)
        let url = night.server.url
        switch fault {
        case .reset:
            #expect(
                result.standardOutput == "0 of 1 account reconciled, 1 failed\n"
                    + "acme: FAILED: Account acme: \(url) could not be reached (Recv failure: Connection reset by peer). "
                    + "Check the address and the network, and try again later.\n")
            #expect(night.server.requests == ["GET 200"] + Array(repeating: "GET reset", count: 4), "4 tries")
        case .loginPage:
            // The pulled copy is refused as a web page before it is read as a sheet of 2 rows (so also on an
            // account's first night, when there is no good night for the shrink guard to hold it against).
            #expect(
                result.standardOutput.hasPrefix("0 of 1 account reconciled, 1 failed\nacme: FAILED: state/acme/runs/"))
            #expect(
                result.standardOutput.hasSuffix(
                    "/pulled/central.csv: the file is a web page (HTML), not a spreadsheet, so it is not read; it may be "
                        + "a sign-in or error page saved in the sheet's place. Download the sheet again as \"CSV UTF-8\" "
                        + "or .xlsx.\n"))
            #expect(night.server.requests == ["GET 200", "GET 200"], "the first night's pull, then tonight's")
        }
        #expect(night.server.sheet == matrix.original, "nothing was pushed")
        #expect(try night.latest() == previous)
        #expect(try night.files(inRun: previous) == previousFiles)
        #expect(night.leftovers() == [])

        try night.server.answer("")
        let next = try night.run(killAt: nil)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(night.server.sheet == matrix.reference.pushedCentral)
    }

    /// The fault a server mode makes while pushing, the reason the push stays pending, and the PUTs it takes.
    struct PushFault: Sendable, CustomTestStringConvertible {
        var mode: String
        var reason: @Sendable (_ url: String) -> String
        var tries: Int
        var testDescription: String { mode }

        static func unavailable(_ status: Int) -> PushFault {
            PushFault(
                mode: "PUT:\(status)",
                reason: {
                    "Account acme: \($0) is unavailable (\(status)): the server says no (\(status)) and stayed so after "
                        + "retries. The outputs are kept; the push is retried on the next run."
                }, tries: 4)
        }

        static let all = [
            PushFault(
                mode: "PUT:403",
                reason: {
                    "The token for account acme may not use \($0) (403): the server says no (403). Ask the sheet's "
                        + "owner for access, or renew it in Jobs/acme/secrets/token."
                }, tries: 1),
            unavailable(429), unavailable(500), unavailable(503),
            PushFault(
                mode: "PUT:reset",
                reason: {
                    "Account acme: \($0) could not be reached (Recv failure: Connection reset by peer). Check the "
                        + "address and the network, and try again later. The outputs are kept."
                }, tries: 4),
        ]
    }

    @Test(arguments: PushFault.all)
    func aPushFaultKeepsTheOutputsAndLeavesThePushPending(fault: PushFault) throws {
        let matrix = try KillMatrix.make()
        let night = try NightUnderTest(matrix: matrix)
        try night.firstNight()
        let previous = try night.latest()
        try night.server.answer(fault.mode)

        let result = try night.run(killAt: nil)
        #expect(result.status == 75)
        let reason = fault.reason(night.server.url)
        let latest = try night.latest()
        let since = try #require(night.pendingPush?.since)
        #expect(
            result.standardOutput == "1 of 1 account reconciled, 1 push pending\n" + matrix.reference.assetsLine
                + "0 new, 35 open, 0 resolved findings; push pending since \(RunDetails.timestamp(since)): \(reason); "
                + "report state/acme/\(latest)/report.html\n")
        #expect(night.pendingPush?.reason == reason)
        #expect(night.server.sheet == matrix.original, "nothing was pushed")
        #expect(night.server.requests.filter { $0.hasPrefix("PUT") }.count == fault.tries)
        #expect(latest != previous)
        try night.expectComplete(run: latest)
        #expect(night.data(inRun: latest, "cleaned.csv") == matrix.reference.outputs["cleaned.csv"])

        try night.server.answer("")
        let next = try night.run(killAt: nil)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(next.standardOutput.contains(" (was pending since \(RunDetails.timestamp(since))); report "))
        #expect(night.server.sheet == matrix.reference.pushedCentral)
        #expect(night.leftovers() == [])
    }
}

extension ServerFaultTests {
    /// A server certificate the run must refuse although the authority that signed it is trusted.
    enum CertificateFault: String, CaseIterable, Sendable {
        /// Signed for `example.org`, served on 127.0.0.1.
        case wrongHost
        /// Signed for 127.0.0.1, valid only on 1 and 2 January 2020.
        case expired
    }

    @Test(arguments: CertificateFault.allCases)
    func aCertificateForAnotherHostOrExpiredIsRefusedAndNothingIsSent(fault: CertificateFault) throws {
        let matrix = try KillMatrix.make()
        let authority = CommandRunner()
        let certificate = try Self.makeCertificate(fault, in: authority.folder)
        let night = try NightUnderTest(
            matrix: matrix, certificate: certificate, authority: authority.path("ca.pem"))

        let result = try night.run(killAt: nil)
        #expect(result.status == 75)
        let reason =
            switch fault {
            case .wrongHost: "SSL: no alternative certificate subject name matches target host name '127.0.0.1'"
            case .expired: "SSL certificate problem: certificate has expired"
            }
        #expect(
            result.standardOutput == "0 of 1 account reconciled, 1 failed\n"
                + "acme: FAILED: Account acme: \(night.server.url) could not be reached (\(reason)). "
                + "Check the address and the network, and try again later.\n")
        #expect(night.server.requests == [], "no request got through the handshake")
        #expect(night.server.sheet == matrix.original, "nothing was pushed")
        #expect((try? night.latest()) == nil)
        #expect(night.leftovers() == [])
    }

    /// Makes `ca.pem` and the certificate and key of `fault` in `folder` with openssl; returns the latter two.
    static func makeCertificate(_ fault: CertificateFault, in folder: String) throws -> (file: String, key: String) {
        let host = fault == .wrongHost ? "DNS:example.org" : "IP:127.0.0.1"
        try "subjectAltName=\(host)\n".write(toFile: folder + "/san.cnf", atomically: true, encoding: .utf8)
        let settings = """
            [ca]
            default_ca = test
            [test]
            database = \(folder)/index.txt
            new_certs_dir = \(folder)
            serial = \(folder)/serial
            default_md = sha256
            policy = any
            [any]
            commonName = supplied

            """
        try settings.write(toFile: folder + "/ca.cnf", atomically: true, encoding: .utf8)
        try "".write(toFile: folder + "/index.txt", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: folder + "/serial", atomically: true, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        var steps = [
            ["req", "-x509"] + key + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=kill-matrix CA",
            ],
            ["req", "-new"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=server"],
        ]
        // `openssl ca` takes any validity; `x509 -req` only one that starts now.
        let dates =
            fault == .expired ? ["-startdate", "20200101000000Z", "-enddate", "20200102000000Z"] : ["-days", "2"]
        steps.append(
            [
                "ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", "server.csr",
                "-out", "server.pem", "-notext", "-extfile", "san.cnf",
            ] + dates)
        for arguments in steps {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "openssl \(arguments.prefix(2).joined(separator: " ")) failed")
        }
        return (folder + "/server.pem", folder + "/server.key")
    }
}
