import Foundation

/// A sheet stored in Google Drive, read and written through the Drive API v3.
///
/// Pull reads the file's metadata (`id,name,mimeType,version`), then its content: a Google Sheet is exported as
/// CSV (`files/{id}/export?mimeType=text/csv`, which gives its first sheet), any other file (an uploaded CSV, TSV
/// or `.xlsx` workbook) is downloaded as it is (`files/{id}?alt=media`). The Drive `version`, which goes up on every change, is the
/// pulled version.
///
/// Push re-reads the metadata and writes nothing when the version moved since the pull; otherwise it uploads the
/// new content with `PATCH upload/drive/v3/files/{id}?uploadType=media`, typed by `SheetMediaType` (Drive converts
/// CSV into a Google Sheet's first sheet; an `.xlsx` file stays a workbook, whose edited worksheet is all that
/// changed). The check and the upload are two requests: Drive v3 has no conditional upload. Requests carry
/// `supportsAllDrives=true` where Drive asks for it, so files on shared drives are found too.
public struct GoogleDriveProvider: SheetProvider {
    /// Where the Drive API lives unless configured otherwise.
    public static let defaultBaseURL = EndpointURL(httpsRootOf: "www.googleapis.com")
    /// The MIME type of a Google Sheet.
    public static let googleSheetType = "application/vnd.google-apps.spreadsheet"

    /// The account's session: its client, credentials and the origins its token may go to.
    public var session: AccountSession
    /// The file's id, as in `https://drive.google.com/file/d/ID/view`.
    public var fileID: String
    /// The API's base URL; tests and companies behind a proxy point it elsewhere.
    public var baseURL: EndpointURL

    public init(session: AccountSession, fileID: String, baseURL: EndpointURL = GoogleDriveProvider.defaultBaseURL) {
        self.session = session
        self.fileID = fileID
        self.baseURL = baseURL
    }

    public var location: String {
        (try? baseURL.appending(path: "/drive/v3/files/\(fileSegment)").redacted)
            ?? "\(baseURL.redacted) file \(fileID)"
    }

    public func pull() throws(SyncError) -> PulledSheet {
        try session.guarded { () throws(SyncError) -> PulledSheet in try pullSheet() }
    }

    public func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        try session.guarded { () throws(SyncError) in try pushSheet(bytes, over: pulled) }
    }

    private func pullSheet() throws(SyncError) -> PulledSheet {
        let file = try metadata(phase: .pull)
        let bytes = try content(of: file, phase: .pull)
        return PulledSheet(bytes: bytes, fileName: file.fileName, version: file.version, location: location)
    }

    private func pushSheet(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        let file = try metadata(phase: .push)
        if let version = pulled.version {
            guard file.version == version else { throw .changedSincePull(account: session.account, url: location) }
        } else {
            guard try content(of: file, phase: .push) == pulled.bytes else {
                throw .changedSincePull(account: session.account, url: location)
            }
        }
        let type = SheetMediaType.of(bytes, fileName: pulled.fileName)
        let upload = "/upload/drive/v3/files/\(fileSegment)?uploadType=media&supportsAllDrives=true&fields=id,version"
        let request = HTTPRequest(
            "PATCH", try url(upload, phase: .push), headers: [(name: "Content-Type", value: type)], body: bytes)
        let response = try session.send(request, phase: .push)
        try session.check(response, phase: .push)
    }

    // MARK: Requests

    /// What the metadata says about the file.
    struct FileMetadata {
        var name: String
        var mimeType: String
        var version: String?

        var isGoogleSheet: Bool { mimeType == GoogleDriveProvider.googleSheetType }

        /// A name whose extension tells the reader the delimiter: the file's own when it has `.csv`, `.tsv`, `.txt`,
        /// `.xlsx` or `.xlsm`, else one added from the type (an exported Google Sheet is CSV).
        var fileName: String {
            let lower = name.lowercased()
            let kept = [".csv", ".tsv", ".txt", ".xlsx", ".xlsm"]
            if !isGoogleSheet, kept.contains(where: { lower.hasSuffix($0) }) { return name }
            let base = name.isEmpty ? "sheet" : name.replacingOccurrences(of: "/", with: "-")
            switch mimeType {
            case "text/tab-separated-values": return base + ".tsv"
            case SheetMediaType.workbook: return base + ".xlsx"
            case SheetMediaType.macroEnabledWorkbook: return base + ".xlsm"
            default: return base + ".csv"
            }
        }
    }

    private func metadata(phase: SyncPhase) throws(SyncError) -> FileMetadata {
        let path = "/drive/v3/files/\(fileSegment)?fields=id,name,mimeType,version&supportsAllDrives=true"
        let request = HTTPRequest("GET", try url(path, phase: phase))
        let response = try session.send(request, phase: phase)
        try session.check(response, phase: phase)
        let object = try GoogleSheetsProvider.object(response, account: session.account)
        guard let mimeType = object["mimeType"] as? String else {
            throw .badResponse(
                account: session.account, url: response.url.redacted, reason: "the file's metadata has no mimeType")
        }
        let version = (object["version"] as? String) ?? (object["version"] as? NSNumber)?.stringValue
        return FileMetadata(name: object["name"] as? String ?? fileID, mimeType: mimeType, version: version)
    }

    private func content(of file: FileMetadata, phase: SyncPhase) throws(SyncError) -> [UInt8] {
        let path =
            file.isGoogleSheet
            ? "/drive/v3/files/\(fileSegment)/export?mimeType=text/csv"
            : "/drive/v3/files/\(fileSegment)?alt=media&supportsAllDrives=true"
        let response = try session.send(HTTPRequest("GET", try url(path, phase: phase)), phase: phase)
        try session.check(response, phase: phase)
        return response.body
    }

    private var fileSegment: String { GoogleSheetsProvider.pathSegment(fileID) }

    /// The base URL followed by `pathAndQuery`.
    private func url(_ pathAndQuery: String, phase: SyncPhase) throws(SyncError) -> EndpointURL {
        do {
            return try baseURL.appending(path: pathAndQuery)
        } catch {
            throw .unreachable(account: session.account, error: error, phase: phase)
        }
    }
}
