import Foundation

/// Why the test WebDAV server could not be started.
enum ApacheServerFailure: Error, CustomStringConvertible {
    /// A program the server is made of is not installed.
    case missingProgram(name: String, package: String)
    /// A step of making the certificates, the configuration or starting httpd failed.
    case setUp(String)

    var description: String {
        switch self {
        case .missingProgram(let name, let package):
            "\(name) is not installed, and STOCKTAKE_REQUIRE_SERVERS=1 requires the server tests to run. "
                + "Install the Debian package \(package) (apt-get install -y \(package))."
        case .setUp(let reason):
            "The test WebDAV server could not be started: \(reason)"
        }
    }

    /// The end of a log file, for a failure message that explains itself.
    static func tail(of path: String, characters: Int = 1200) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "(no log at \(path))" }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.count <= characters ? text : "…" + text.suffix(characters)
    }
}
