import Foundation
import StocktakeCore
import Testing

@testable import StocktakeSync

/// Uploading the run's outputs with PUT to a real Apache httpd with mod_dav over TLS.
@Suite(.serialized, .enabled(if: ApacheServer.isEnabled, "needs apache2 and openssl"), .apacheServer)
struct ReportUploaderTests {
    let files: [(name: String, bytes: [UInt8])] = [
        ("cleaned.csv", Array("asset,room\nVT-0001,A-102\n".utf8)),
        ("discrepancies.csv", Array("code,asset\nMOVED,VT-0001\n".utf8)),
        ("report.html", Array("<!doctype html><title>acme</title>".utf8)),
        ("run.json", Array("{\"account\":\"acme\"}".utf8)),
        ("summary.txt", Array("1 asset, 1 discrepancy\n".utf8)),
    ]

    @Test func everyFileIsPutUnderTheFolder() throws {
        let server = try #require(ApacheServer.current)
        try server.makeFolder("reports")
        defer { try? FileManager.default.removeItem(atPath: server.documentRoot + "/reports") }
        try server.write(Array("old".utf8), to: "reports/summary.txt")
        try ReportUploader(session: server.session()).upload(files, to: EndpointURL(server.url("reports/")))
        #expect(server.fileNames() == ["reports"])
        let uploaded = try FileManager.default.contentsOfDirectory(atPath: server.documentRoot + "/reports").sorted()
        #expect(uploaded == files.map(\.name))
        for file in files {
            #expect(server.read("reports/" + file.name) == file.bytes, "\(file.name)")
        }
    }

    @Test func aFolderWithoutTrailingSlashAndNamesThatNeedEncoding() throws {
        let server = try #require(ApacheServer.current)
        try server.makeFolder("acme")
        defer { try? FileManager.default.removeItem(atPath: server.documentRoot + "/acme") }
        let bytes = Array("ok\n".utf8)
        try ReportUploader(session: server.session()).upload(
            [("summary 2026#1.txt", bytes)], to: EndpointURL(server.url("acme")))
        #expect(server.read("acme/summary 2026#1.txt") == bytes)
    }

    @Test func aMissingFolderIsNotCreated() throws {
        let server = try #require(ApacheServer.current)
        let url = server.url("nowhere/cleaned.csv")
        let error = #expect(
            throws: SyncError.refused(account: "acme", url: url, status: 409, detail: "", phase: .push)
        ) {
            try ReportUploader(session: server.session()).upload(files, to: EndpointURL(server.url("nowhere/")))
        }
        #expect(
            error?.description
                == "Account acme: \(url) refused the push (409). Check the account's configuration for this URL.")
        #expect(error?.exitStatus.rawValue == 75)
        #expect(server.read("nowhere") == nil)
    }

    @Test func anotherTokenWritesNothing() throws {
        let server = try #require(ApacheServer.current)
        try server.makeFolder("denied")
        defer { try? FileManager.default.removeItem(atPath: server.documentRoot + "/denied") }
        #expect(
            throws: SyncError.accessDenied(
                account: "acme", url: server.url("denied/cleaned.csv"), detail: "",
                renewal: "Renew it in Jobs/acme/secrets/token.")
        ) {
            try ReportUploader(session: server.session(token: "someone-else")).upload(
                files, to: EndpointURL(server.url("denied/")))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.documentRoot + "/denied").isEmpty)
    }

    @Test func mediaTypesFollowTheExtension() {
        #expect(ReportUploader.contentType(of: "cleaned.csv") == "text/csv; charset=utf-8")
        #expect(ReportUploader.contentType(of: "report.html") == "text/html; charset=utf-8")
        #expect(ReportUploader.contentType(of: "run.json") == "application/json")
        #expect(ReportUploader.contentType(of: "summary.txt") == "text/plain; charset=utf-8")
        #expect(ReportUploader.contentType(of: "data.xlsx") == "application/octet-stream")
    }
}

extension ReportUploaderTests {
    @Test func aSimulatedUploadFailsAsAnUnavailableServerAndSendsNothing() throws {
        let server = try #require(ApacheServer.current)
        try server.makeFolder("rehearsal")
        defer { try? FileManager.default.removeItem(atPath: server.documentRoot + "/rehearsal") }
        var session = server.session()
        session.simulation = FailureSimulation([.upload], origin: .account)
        #expect(
            throws: SyncError.simulated(
                .unavailable(
                    account: "acme", url: server.url("rehearsal/cleaned.csv"), status: 503, detail: "", phase: .push),
                label: "(simulated failure: testFailureMode upload)")
        ) {
            try ReportUploader(session: session).upload(files, to: EndpointURL(server.url("rehearsal/")))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.documentRoot + "/rehearsal").isEmpty)
        // httpd logs every request it answers: none reached it for the folder.
        #expect(server.requestLog(containing: "/rehearsal/", count: 1) == [])
    }
}
