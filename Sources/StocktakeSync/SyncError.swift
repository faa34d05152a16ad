import StocktakeCore

/// Why pulling or pushing a sheet failed, each with a one-line description naming the account, the URL (never a
/// token or query string) and what to do.
public enum SyncError: UserFacingError, Equatable {
    /// The server rejected the credentials (401), even after one refresh.
    case credentialsRejected(account: String, url: String, status: Int, detail: String, renewal: String)
    /// The server wants credentials and the account has none configured (401 or 403 without a token).
    case credentialsMissing(account: String, url: String, status: Int)
    /// The credentials are valid but may not do this (403).
    case accessDenied(account: String, url: String, detail: String, renewal: String)
    /// Nothing at the URL (404), or no file at a local path (a `url` without `://`).
    case notFound(account: String, url: String, detail: String, phase: SyncPhase)
    /// The server is overloaded or failing (429, 5xx) and stayed so through the retries.
    case unavailable(account: String, url: String, status: Int, detail: String, phase: SyncPhase)
    /// The server refused the request for another reason (another 4xx); status 0 with a local path (a `url`
    /// without `://`) when a file could not be read or written.
    case refused(account: String, url: String, status: Int, detail: String, phase: SyncPhase)
    /// Someone changed the sheet since it was pulled; nothing was written.
    case changedSincePull(account: String, url: String)
    /// The planned edit of a workbook central sheet cannot be placed exactly in its worksheet; nothing was written.
    /// Trying again does not help until a clerk saves the workbook again, so it is a data error (65).
    case notEditable(account: String, url: String, reason: String)
    /// The server could not be reached or the transfer broke off.
    case unreachable(account: String, error: HTTPError, phase: SyncPhase)
    /// The server answered with something that is not what the API documents.
    case badResponse(account: String, url: String, reason: String)
    /// A secrets file is missing, unreadable, or readable by others.
    case secrets(account: String, path: String, reason: String)
    /// The central sheet is not UTF-8 (Windows-1252, UTF-16), so a push would not keep the bytes it does not
    /// change; nothing was pushed.
    case centralNotUTF8(account: String, url: String, encoding: TextEncoding)
    /// A real failure made on purpose by `--simulate-failure` or an account's `testFailureMode` (see
    /// `FailureSimulation`): the same error, its sentence after `label`. Nothing was sent to a server.
    indirect case simulated(SyncError, label: String)

    /// The exit status a command ends with because of this error (sysexits).
    public var exitStatus: ExitStatus {
        switch self {
        case .credentialsRejected, .credentialsMissing, .accessDenied, .secrets: .noPermission
        case .changedSincePull: .temporaryFailure
        case .notFound(_, _, _, let phase), .unavailable(_, _, _, _, let phase), .refused(_, _, _, _, let phase),
            .unreachable(_, _, let phase):
            phase == .push ? .temporaryFailure : .unavailable
        case .badResponse: .unavailable
        case .centralNotUTF8, .notEditable: .dataError
        case .simulated(let error, _): error.exitStatus
        }
    }

    public var description: String {
        switch self {
        case .credentialsRejected(let account, let url, let status, let detail, let renewal):
            return
                "The token for account \(account) was rejected (\(status)) by \(url)\(Self.quote(detail)). \(renewal)"
        case .credentialsMissing(let account, let url, let status):
            return "Account \(account): \(url) needs credentials (\(status)) and none are configured. Give a token "
                + "with --token-file or STOCKTAKE_TOKEN, or an OAuth file with --oauth."
        case .accessDenied(let account, let url, let detail, let renewal):
            return "The token for account \(account) may not use \(url) (403)\(Self.quote(detail)). "
                + "Ask the sheet's owner for access, or \(renewal.prefix(1).lowercased() + renewal.dropFirst())"
        case .notFound(let account, let url, let detail, _) where !url.contains("://"):
            return "Account \(account): nothing at \(url)\(Self.quote(detail)). Check the path."
        case .notFound(let account, let url, let detail, _):
            return "Account \(account): nothing at \(url) (404)\(Self.quote(detail)). Check the URL or the sheet's id."
        case .unavailable(let account, let url, let status, let detail, let phase):
            return "Account \(account): \(url) is unavailable (\(status))\(Self.quote(detail)) and stayed so after "
                + "retries. "
                + (phase == .push ? "The outputs are kept; the push is retried on the next run." : "Try again later.")
        case .refused(let account, let url, 0, let detail, let phase) where !url.contains("://"):
            return "Account \(account): could not \(phase == .pull ? "read" : "write") \(url)\(Self.quote(detail)). "
                + "Check the file and the permissions of its folder."
        case .refused(let account, let url, let status, let detail, let phase):
            return "Account \(account): \(url) refused the \(phase.rawValue) (\(status))\(Self.quote(detail)). "
                + "Check the account's configuration for this URL."
        case .changedSincePull(let account, let url):
            return "Account \(account): \(url) was changed by someone else since it was pulled, so it was not "
                + "overwritten. The outputs are kept; the next run pulls the new version and pushes again."
        case .notEditable(let account, let url, let reason):
            return "Account \(account): \(url): \(reason) The outputs are kept."
        case .unreachable(let account, let error, let phase):
            return "Account \(account): \(error)" + (phase == .push ? " The outputs are kept." : "")
        case .badResponse(let account, let url, let reason):
            return
                "Account \(account): \(url) answered with something unexpected (\(reason)). Check the URL and the provider."
        case .secrets(let account, let path, let reason):
            return "Account \(account): the secrets file \(path) \(reason)."
        case .centralNotUTF8(let account, let url, let encoding):
            return "Account \(account): the central sheet \(url) is encoded as \(encoding.rawValue), and stocktake "
                + "writes back only to a UTF-8 central sheet, so nothing was pushed. Open it in a spreadsheet and "
                + "save it as \"CSV UTF-8\"; the outputs and changes.csv are kept."
        case .simulated(let error, let label):
            return "\(label) \(error)"
        }
    }

    /// The same error with `scrub` applied to every text that may have come from a server (addresses, details,
    /// reasons), so a server that echoes a token back never gets it shown or stored.
    public func scrubbed(_ scrub: (String) -> String) -> SyncError {
        switch self {
        case .credentialsRejected(let account, let url, let status, let detail, let renewal):
            .credentialsRejected(
                account: account, url: scrub(url), status: status, detail: scrub(detail), renewal: renewal)
        case .credentialsMissing(let account, let url, let status):
            .credentialsMissing(account: account, url: scrub(url), status: status)
        case .accessDenied(let account, let url, let detail, let renewal):
            .accessDenied(account: account, url: scrub(url), detail: scrub(detail), renewal: renewal)
        case .notFound(let account, let url, let detail, let phase):
            .notFound(account: account, url: scrub(url), detail: scrub(detail), phase: phase)
        case .unavailable(let account, let url, let status, let detail, let phase):
            .unavailable(account: account, url: scrub(url), status: status, detail: scrub(detail), phase: phase)
        case .refused(let account, let url, let status, let detail, let phase):
            .refused(account: account, url: scrub(url), status: status, detail: scrub(detail), phase: phase)
        case .changedSincePull(let account, let url):
            .changedSincePull(account: account, url: scrub(url))
        case .notEditable(let account, let url, let reason):
            .notEditable(account: account, url: scrub(url), reason: scrub(reason))
        case .unreachable(let account, let error, let phase):
            .unreachable(account: account, error: error.scrubbed(scrub), phase: phase)
        case .badResponse(let account, let url, let reason):
            .badResponse(account: account, url: scrub(url), reason: scrub(reason))
        case .secrets(let account, let path, let reason):
            .secrets(account: account, path: path, reason: scrub(reason))
        case .centralNotUTF8(let account, let url, let encoding):
            .centralNotUTF8(account: account, url: scrub(url), encoding: encoding)
        case .simulated(let error, let label):
            .simulated(error.scrubbed(scrub), label: label)
        }
    }

    /// The server's detail after a colon, without its closing period: the sentence goes on after it.
    private static func quote(_ detail: String) -> String {
        guard !detail.isEmpty else { return "" }
        let open = detail.hasSuffix(".") && !detail.hasSuffix("..") ? String(detail.dropLast()) : detail
        return ": \(open)"
    }
}
