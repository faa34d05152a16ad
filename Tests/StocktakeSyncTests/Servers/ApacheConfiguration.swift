/// The private `httpd.conf` of the test WebDAV server: Apache httpd 2.4 with mod_dav over TLS on 127.0.0.1.
///
/// Only the modules the tests need are loaded (`unixd` is built into Debian's httpd and must not be loaded). The
/// document root accepts GET and PUT from exactly one bearer token; any other `Authorization` gets 403. Two
/// redirects let tests follow a redirect to the same origin and to another origin (`localhost` instead of
/// `127.0.0.1`, which must not receive the token).
enum ApacheConfiguration {
    /// Where Debian's apache2 package keeps its modules.
    static let modulesDirectory = "/usr/lib/apache2/modules"

    /// The modules loaded, by Apache's module name and file.
    static let modules = [
        ("mpm_event_module", "mod_mpm_event.so"),
        ("authz_core_module", "mod_authz_core.so"),
        ("alias_module", "mod_alias.so"),
        ("ssl_module", "mod_ssl.so"),
        ("dav_module", "mod_dav.so"),
        ("dav_fs_module", "mod_dav_fs.so"),
    ]

    /// The configuration text.
    /// - Parameters:
    ///   - directory: the server's private folder; it holds the certificates, the pid file, the log, the lock
    ///     database (`lock/`) and the document root (`documents/`).
    ///   - port: the TCP port on 127.0.0.1.
    ///   - token: the only bearer token let in.
    ///   - user: the account the workers run as when started by root (Debian's `www-data`); `nil` otherwise.
    static func text(directory: String, port: Int, token: String, user: String?) -> String {
        let loads = modules.map { "LoadModule \($0.0) \(modulesDirectory)/\($0.1)" }.joined(separator: "\n")
        let account = user.map { "User \($0)\nGroup \($0)\n" } ?? ""
        return """
            ServerRoot "\(directory)"
            ServerName 127.0.0.1
            Listen 127.0.0.1:\(port)
            PidFile "\(directory)/httpd.pid"
            DefaultRuntimeDir "\(directory)/run"
            ErrorLog "\(directory)/error.log"
            LogLevel warn
            \(account)\(loads)

            StartServers 1
            ServerLimit 1
            ThreadLimit 16
            ThreadsPerChild 16
            MaxRequestWorkers 16
            MinSpareThreads 1
            MaxSpareThreads 32
            Timeout 20

            SSLEngine on
            SSLCertificateFile "\(directory)/server.pem"
            SSLCertificateKeyFile "\(directory)/server.key"

            DAVLockDB "\(directory)/lock/DAVLock"
            DocumentRoot "\(directory)/documents"
            Redirect 302 /same-origin/ https://127.0.0.1:\(port)/
            Redirect 302 /other-origin/ https://localhost:\(port)/
            <Directory "\(directory)/documents">
                Dav On
                Require expr "%{HTTP:Authorization} == 'Bearer \(token)'"
            </Directory>

            """
    }
}
