import Foundation
import StocktakeCore

/// Puts the run's output files under a folder URL (`--report-to`), one PUT each, so a team finds the reports where
/// it keeps its sheets.
///
/// Only the named files are written: no folder is created (the folder must exist) and nothing is deleted. Files
/// go in the order given; the first failure stops the upload and is thrown, so files before it stay uploaded.
public struct ReportUploader: Sendable {
    /// The account whose token and limits the requests use.
    public var session: AccountSession

    public init(session: AccountSession) {
        self.session = session
    }

    /// PUTs each file as `folder/name`; errors are `SyncError`s of the push phase. A simulated `upload` fails the
    /// first file as a server that stays unavailable does, without sending anything.
    public func upload(_ files: [(name: String, bytes: [UInt8])], to folder: EndpointURL) throws(SyncError) {
        if let label = session.simulation.label(.upload) {
            // The first file's PUT fails as on a server that stays unavailable; nothing is sent.
            let url = try target(of: files.first?.name ?? "", in: folder)
            throw .simulated(
                .unavailable(account: session.account, url: url.redacted, status: 503, detail: "", phase: .push),
                label: label)
        }
        try session.guarded { () throws(SyncError) in try uploadEach(files, to: folder) }
    }

    private func uploadEach(_ files: [(name: String, bytes: [UInt8])], to folder: EndpointURL) throws(SyncError) {
        for file in files {
            let url = try target(of: file.name, in: folder)
            let request = HTTPRequest(
                "PUT", url, headers: [(name: "Content-Type", value: Self.contentType(of: file.name))], body: file.bytes)
            let response = try session.send(request, phase: .push)
            try session.check(response, expecting: [200, 201, 204], phase: .push)
        }
    }

    /// The URL of `name` under `folder`, each path segment percent-encoded.
    func target(of name: String, in folder: EndpointURL) throws(SyncError) -> EndpointURL {
        let encoded = name.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? String($0)
        }
        do {
            return try folder.appending(path: encoded.joined(separator: "/"))
        } catch {
            throw .unreachable(account: session.account, error: error, phase: .push)
        }
    }

    /// The media type of an output file, so a browser shows it rather than downloading it.
    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "csv": "text/csv; charset=utf-8"
        case "tsv": "text/tab-separated-values; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    private static let segmentCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;"))
}
