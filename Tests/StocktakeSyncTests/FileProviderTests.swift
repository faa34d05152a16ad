import Foundation
import StocktakeSync
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct FileProviderTests {
    let sheet: [UInt8] = Array("asset,room\nVT-0001,A-101\n".utf8)
    let cleaned: [UInt8] = Array("asset,room\nVT-0001,A-102\nVT-0002,B-001\n".utf8)

    /// A new empty folder, removed by `body`'s end.
    private func inFolder(_ body: (String) throws -> Void) throws {
        var template = Array((NSTemporaryDirectory() + "/stocktake-file-XXXXXX").utf8CString)
        let folder = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    @Test func fingerprintIsSizeAndFNV1a() {
        #expect(FileProvider.fingerprint(of: []) == "0-cbf29ce484222325")
        #expect(FileProvider.fingerprint(of: Array("a".utf8)) == "1-af63dc4c8601ec8c")
        #expect(FileProvider.fingerprint(of: sheet) == "25-7e453695f6c8aea2")
    }

    @Test func locationsArePathsOrFileURLs() {
        #expect(FileProvider("Jobs/acme/central.csv", account: "acme").path == "Jobs/acme/central.csv")
        #expect(
            FileProvider("file:///srv/stock%20take/central.csv", account: "acme").path == "/srv/stock take/central.csv")
        #expect(FileProvider("file://localhost/srv/central.tsv", account: "acme").path == "/srv/central.tsv")
        #expect(FileProvider("FILE:///srv/a.csv", account: "acme").location == "/srv/a.csv")
    }

    @Test func pullReadsTheFile() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            let pulled = try FileProvider(path, account: "acme").pull()
            #expect(pulled.bytes == sheet)
            #expect(pulled.fileName == "central.csv")
            #expect(pulled.version == "25-7e453695f6c8aea2")
            #expect(pulled.location == path)
        }
    }

    @Test func pushReplacesAnUnchangedFile() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            let provider = FileProvider(path, account: "acme")
            try provider.push(cleaned, over: try provider.pull())
            #expect(contents(path) == cleaned)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["central.csv"])
        }
    }

    @Test func pushKeepsTheSheetsPermissions() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            #expect(chmod(path, 0o660) == 0)
            let provider = FileProvider(path, account: "acme")
            try provider.push(cleaned, over: try provider.pull())
            var status = stat()
            #expect(stat(path, &status) == 0)
            #expect(status.st_mode & 0o7777 == 0o660)
            #expect(contents(path) == cleaned)
        }
    }

    @Test func aChangeSinceThePullIsNotOverwritten() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            let provider = FileProvider(path, account: "acme")
            let pulled = try provider.pull()
            // Same size, one byte different: only the content can tell.
            let concurrent = Array("asset,room\nVT-0001,A-109\n".utf8)
            try write(concurrent, to: path)
            #expect(throws: SyncError.changedSincePull(account: "acme", url: path)) {
                try provider.push(cleaned, over: pulled)
            }
            #expect(contents(path) == concurrent)
        }
    }

    @Test func aFileDeletedSinceThePullIsNotRecreated() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            let provider = FileProvider(path, account: "acme")
            let pulled = try provider.pull()
            unlink(path)
            #expect(throws: SyncError.changedSincePull(account: "acme", url: path)) {
                try provider.push(cleaned, over: pulled)
            }
            #expect(contents(path) == nil)
        }
    }

    @Test func withoutAVersionTheBytesAreCompared() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            let provider = FileProvider(path, account: "acme")
            let stale = PulledSheet(bytes: Array("other".utf8), fileName: "central.csv", version: nil, location: path)
            #expect(throws: SyncError.changedSincePull(account: "acme", url: path)) {
                try provider.push(cleaned, over: stale)
            }
            #expect(contents(path) == sheet)
            try provider.push(
                cleaned, over: PulledSheet(bytes: sheet, fileName: "central.csv", version: nil, location: path))
            #expect(contents(path) == cleaned)
        }
    }

    @Test func aMissingFileIsNotFound() throws {
        try inFolder { folder in
            let path = folder + "/missing.csv"
            let error = #expect(
                throws: SyncError.notFound(
                    account: "acme", url: path, detail: "no such file", phase: .pull)
            ) {
                try FileProvider(path, account: "acme").pull()
            }
            #expect(error?.description == "Account acme: nothing at \(path): no such file. Check the path.")
            #expect(error?.exitStatus.rawValue == 69)
        }
    }

    @Test func aFolderIsNotASheet() throws {
        try inFolder { folder in
            let error = #expect(
                throws: SyncError.refused(
                    account: "acme", url: folder, status: 0, detail: "it is a folder, not a file", phase: .pull)
            ) {
                try FileProvider(folder, account: "acme").pull()
            }
            #expect(
                error?.description
                    == "Account acme: could not read \(folder): it is a folder, not a file. "
                    + "Check the file and the permissions of its folder.")
        }
    }

    @Test func aFailedWriteKeepsTheSheetAndTheOutputs() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            let provider = FileProvider(path, account: "acme")
            let pulled = try provider.pull()
            // AtomicFile writes to "<path>.partial-<pid>" first; a folder in its way makes the write fail even
            // for root, which permissions would not stop.
            #expect(mkdir(path + ".partial-\(getpid())", 0o755) == 0)
            let error = #expect(
                throws: SyncError.refused(
                    account: "acme", url: path, status: 0, detail: "is a directory", phase: .push)
            ) {
                try provider.push(cleaned, over: pulled)
            }
            #expect(
                error?.description
                    == "Account acme: could not write \(path): is a directory. "
                    + "Check the file and the permissions of its folder.")
            #expect(error?.exitStatus.rawValue == 75)
            #expect(contents(path) == sheet)
        }
    }
}
