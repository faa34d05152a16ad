import Foundation

/// A throwaway certificate authority, made with `openssl` at test time, and a server certificate it signed for
/// `127.0.0.1` and `localhost`.
///
/// The authority lives two days and its key stays in the test's temporary folder, so nothing is trusted beyond
/// the test run. Elliptic-curve keys keep the whole thing well under a second. The settings are in
/// `Servers/test-ca.cnf`.
enum TestCertificateAuthority {
    /// The openssl settings (`Servers/test-ca.cnf`), next to this source file.
    static let settingsPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Servers/test-ca.cnf").path

    /// Writes `ca.pem` (the authority to trust), `server.pem` and `server.key` into `directory`.
    static func make(in directory: String, openssl: String) throws(ApacheServerFailure) {
        // Use the settings file where it is: it names the authority and the server certificate's addresses.
        let configuration = settingsPath
        guard FileManager.default.isReadableFile(atPath: configuration) else {
            throw .setUp("the openssl settings \(configuration) cannot be read")
        }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let steps = [
            ["req", "-config", configuration, "-x509"] + key
                + ["-keyout", directory + "/ca.key", "-out", directory + "/ca.pem", "-days", "2"],
            ["req", "-config", configuration, "-new"] + key
                + ["-keyout", directory + "/server.key", "-out", directory + "/server.csr", "-subj", "/CN=127.0.0.1"],
            [
                "x509", "-req", "-in", directory + "/server.csr", "-CA", directory + "/ca.pem", "-CAkey",
                directory + "/ca.key", "-set_serial", "2", "-days", "2", "-extfile", configuration, "-extensions",
                "server", "-out", directory + "/server.pem",
            ],
        ]
        let log = directory + "/openssl.log"
        for arguments in steps {
            guard let status = ExternalProgram.run(openssl, arguments, log: log) else {
                throw .setUp("could not run \(openssl)")
            }
            guard status == 0 else {
                throw .setUp(
                    "openssl \(arguments[0]) failed with status \(status): \(ApacheServerFailure.tail(of: log))")
            }
        }
    }
}
