import Foundation

/// The private `httpd.conf` of the test WebDAV server, made from the template `Servers/apache-dav.conf`.
enum ApacheConfiguration {
    /// Where Debian's apache2 package keeps its modules.
    static let modulesDirectory = "/usr/lib/apache2/modules"

    /// The template, next to this source file.
    static let templatePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Servers/apache-dav.conf").path

    /// The module files the template loads, or `nil` when the template cannot be read.
    static var moduleFiles: [String]? {
        guard let template = try? template() else { return nil }
        return template.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "LoadModule" else { return nil }
            return words[2].replacingOccurrences(of: "@MODULES@", with: modulesDirectory)
        }
    }

    /// The configuration text.
    /// - Parameters:
    ///   - directory: the server's private folder; it holds the certificates, the pid file, the log, the lock
    ///     database (`lock/`) and the document root (`documents/`).
    ///   - port: the TCP port on 127.0.0.1.
    ///   - token: the only bearer token let in.
    ///   - user: the account the workers run as when started by root (Debian's `www-data`); `nil` otherwise.
    static func text(directory: String, port: Int, token: String, user: String?) throws(ApacheServerFailure)
        -> String
    {
        let values = [
            "@DIRECTORY@": directory, "@PORT@": String(port), "@TOKEN@": token, "@MODULES@": modulesDirectory,
            "@ACCOUNT@": user.map { "User \($0)\nGroup \($0)" } ?? "# (not root: the workers run as this user)",
        ]
        var text = try template()
        for (name, value) in values { text = text.replacingOccurrences(of: name, with: value) }
        return text
    }

    private static func template() throws(ApacheServerFailure) -> String {
        guard let data = FileManager.default.contents(atPath: templatePath) else {
            throw .setUp("the configuration template \(templatePath) cannot be read")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
