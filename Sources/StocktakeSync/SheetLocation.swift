import Foundation

/// Where a sheet lives, as a user writes it on the command line or in an account's configuration.
///
/// Without an explicit provider: a value with `://` is read by its scheme (`file://`, `https://`, Google Sheets
/// and Drive web addresses); `gsheets:ID[/RANGE]` and `gdrive:ID` name Google files; anything else is a local path.
/// With the provider `https`, a value without a scheme means `https://`.
public enum SheetLocation: Sendable, Hashable, CustomStringConvertible {
    /// A file on this machine.
    case file(path: String)
    /// A CSV/TSV over HTTPS: WebDAV, a presigned object-store URL.
    case https(EndpointURL)
    /// A Google Sheet read through the Sheets API; `range` in A1 notation, `nil` for the first sheet.
    case googleSheet(id: String, range: String?)
    /// A file in Google Drive: a Google Sheet exported as CSV, or an uploaded CSV.
    case googleDrive(id: String)

    /// The provider names an account may give.
    public static let providers = ["file", "https", "google-sheets", "google-drive"]

    /// Parses `text`, with the account's `provider` when it gives one.
    public init(_ text: String, provider: String? = nil) throws(HTTPError) {
        let value = Whitespace.trimmed(text)
        switch provider {
        case "file":
            self = .file(path: FileProvider.path(of: value))
        case "https":
            self = .https(try EndpointURL(value))
        case "google-sheets":
            self = Self.googleSheet(value) ?? .googleSheet(id: value, range: nil)
        case "google-drive":
            self = Self.googleDrive(value) ?? .googleDrive(id: value)
        case nil:
            if value.hasPrefix("file://") {
                self = .file(path: FileProvider.path(of: value))
            } else if let sheet = Self.googleSheet(value) {
                self = sheet
            } else if let drive = Self.googleDrive(value) {
                self = drive
            } else if value.contains("://") {
                self = .https(try EndpointURL(value))
            } else {
                self = .file(path: value)
            }
        case let other?:
            throw .invalidURL("provider \(other) (use one of \(Self.providers.joined(separator: ", ")))")
        }
    }

    /// Whether the sheet is on this machine.
    public var isLocal: Bool {
        if case .file = self { return true }
        return false
    }

    /// Whether the sheet arrives as the bytes of a file (a local file, an https download, a Drive file or export),
    /// so that a last row shorter than the header means the transfer was cut off. Google Sheets' values arrive as
    /// JSON rows, which are ragged by nature.
    public var arrivesAsFile: Bool {
        if case .googleSheet = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .https(let url): url.redacted
        case .googleSheet(let id, let range): "Google Sheet \(id)" + (range.map { " (\($0))" } ?? "")
        case .googleDrive(let id): "Google Drive file \(id)"
        }
    }

    private static func googleSheet(_ value: String) -> SheetLocation? {
        for prefix in ["gsheets:", "google-sheets:"] where value.hasPrefix(prefix) {
            let rest = value.dropFirst(prefix.count).drop { $0 == "/" }
            let parts = rest.split(separator: "/", maxSplits: 1)
            guard let id = parts.first, !id.isEmpty else { return nil }
            return .googleSheet(id: String(id), range: parts.count > 1 ? String(parts[1]) : nil)
        }
        guard let id = pathIdentifier(value, host: "docs.google.com", after: ["spreadsheets", "d"]) else { return nil }
        return .googleSheet(id: id, range: nil)
    }

    private static func googleDrive(_ value: String) -> SheetLocation? {
        for prefix in ["gdrive:", "google-drive:"] where value.hasPrefix(prefix) {
            let id = value.dropFirst(prefix.count).drop { $0 == "/" }
            return id.isEmpty ? nil : .googleDrive(id: String(id))
        }
        if let id = pathIdentifier(value, host: "drive.google.com", after: ["file", "d"]) {
            return .googleDrive(id: id)
        }
        if let components = URLComponents(string: value), components.host == "drive.google.com",
            let id = components.queryItems?.first(where: { $0.name == "id" })?.value, !id.isEmpty
        {
            return .googleDrive(id: id)
        }
        return nil
    }

    /// The path segment after `prefix` in a URL on `host` (`/spreadsheets/d/ID/edit` → `ID`).
    private static func pathIdentifier(_ value: String, host: String, after prefix: [String]) -> String? {
        guard let components = URLComponents(string: value), components.host == host else { return nil }
        let segments = components.path.split(separator: "/").map(String.init)
        guard segments.count > prefix.count, Array(segments.prefix(prefix.count)) == prefix else { return nil }
        return segments[prefix.count]
    }
}
