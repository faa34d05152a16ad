import Foundation
import StocktakeCore
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
            #expect(pulled.version == nil)
            #expect(pulled.location == path)
        }
    }

    @Test func aLargeSheetIsReadWhole() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
            try write(large, to: path)
            let pulled = try FileProvider(path, account: "acme").pull()
            #expect(pulled.bytes == large)
        }
    }

    /// A file whose size is not known beforehand (a pipe's size is 0) is read to its end all the same: the
    /// provider reads into an array of the size `fstat` gives, then goes on a chunk at a time.
    @Test func aSheetLongerThanItsStatedSizeIsReadToItsEnd() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            #expect(mkfifo(path, 0o600) == 0)
            let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
            let writer = Thread {
                let descriptor = open(path, O_WRONLY)
                content.withUnsafeBytes { bytes in
                    var written = 0
                    while written < bytes.count {
                        let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                        if count <= 0 { break }
                        written += count
                    }
                }
                close(descriptor)
            }
            writer.start()
            let pulled = try FileProvider(path, account: "acme").pull()
            #expect(pulled.bytes == content)
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

    @Test func thePushComparesTheBytesPulledWhateverTheVersionSays() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            let provider = FileProvider(path, account: "acme")
            let stale = PulledSheet(bytes: Array("other".utf8), fileName: "central.csv", version: nil, location: path)
            #expect(throws: SyncError.changedSincePull(account: "acme", url: path)) {
                try provider.push(cleaned, over: stale)
            }
            // A version that matches the file does not stand in for the bytes.
            let claimed = PulledSheet(
                bytes: Array("other".utf8), fileName: "central.csv", version: PushIntent.fingerprint(of: sheet),
                location: path)
            #expect(throws: SyncError.changedSincePull(account: "acme", url: path)) {
                try provider.push(cleaned, over: claimed)
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
            var provider = FileProvider(path, account: "acme")
            let pulled = try provider.pull()
            // Every temporary name is the same one, and a folder is in its way: the write fails even for root, which
            // permissions would not stop.
            provider.partialNames = PartialFileName(random: { 7 })
            let taken = provider.partialNames.make(for: "central.csv")
            #expect(mkdir(folder + "/" + taken, 0o755) == 0)
            let detail =
                "5 random temporary names in a row were already taken in its folder, which only happens when "
                + "someone plants files there (look for .central.csv.stocktake-*.partial)"
            let error = #expect(
                throws: SyncError.refused(account: "acme", url: path, status: 0, detail: detail, phase: .push)
            ) {
                try provider.push(cleaned, over: pulled)
            }
            #expect(
                error?.description
                    == "Account acme: could not write \(path): \(detail). "
                    + "Check the file and the permissions of its folder.")
            #expect(error?.exitStatus.rawValue == 75)
            #expect(contents(path) == sheet)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [taken, "central.csv"])
        }
    }

    /// The audit's attack: links planted in the sheet's shared folder, at the name the push used to write to
    /// (`central.csv.partial-<pid>`) and at the random name it draws first, point at a private file of root's.
    @Test func linksPlantedAtTemporaryNamesCannotRedirectThePush() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            #expect(chmod(path, 0o640) == 0)
            let victim = folder + "/victim"
            let secret = Array("root:secret\n".utf8)
            try write(secret, to: victim)
            #expect(chmod(victim, 0o600) == 0)
            let predictable = "central.csv.partial-\(getpid())"
            #expect(symlink(victim, folder + "/" + predictable) == 0)
            var provider = FileProvider(path, account: "acme")
            provider.partialNames = PartialFileName(random: ScriptedRandom([0xdead]).next)
            let guessed = PartialFileName(random: { 0xdead }).make(for: "central.csv")
            #expect(symlink(victim, folder + "/" + guessed) == 0)

            try provider.push(cleaned, over: try provider.pull())

            #expect(contents(victim) == secret)
            #expect(mode(of: victim) == 0o600)
            #expect(contents(path) == cleaned)
            #expect(mode(of: path) == 0o640)
            #expect(isLink(path) == false)
            #expect(isLink(folder + "/" + predictable) == true)
            #expect(isLink(folder + "/" + guessed) == true)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                    == [guessed, "central.csv", predictable, "victim"])
        }
    }

    @Test func theSheetsModeSurvivesAPushWhateverTheUmask() throws {
        for (sheetMode, umaskBits) in [(0o640, 0o022), (0o600, 0o022), (0o640, 0o077), (0o600, 0o077)] {
            try inFolder { folder in
                let path = folder + "/central.csv"
                try write(sheet, to: path)
                #expect(chmod(path, mode_t(sheetMode)) == 0)
                let provider = FileProvider(path, account: "acme")
                let pulled = try provider.pull()
                let previous = umask(mode_t(umaskBits))
                defer { umask(previous) }
                try provider.push(cleaned, over: pulled)
                #expect(mode(of: path) == mode_t(sheetMode), "umask \(String(umaskBits, radix: 8))")
                #expect(contents(path) == cleaned)
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["central.csv"])
            }
        }
    }

    @Test(.enabled(if: geteuid() == 0, "only root may give a file to another user"))
    func pushKeepsTheSheetsOwnerAndGroup() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            #expect(chown(path, 65534, 65534) == 0)
            let provider = FileProvider(path, account: "acme")
            try provider.push(cleaned, over: try provider.pull())
            var status = stat()
            #expect(lstat(path, &status) == 0)
            #expect(status.st_uid == 65534)
            #expect(status.st_gid == 65534)
            #expect(contents(path) == cleaned)
        }
    }

    /// Pushes killed midway left their partial files next to the sheet; the next push removes those, and only those.
    @Test func stalePartialsOfKilledPushesAreRemovedOnTheNextPush() throws {
        try inFolder { folder in
            let path = folder + "/central.csv"
            try write(sheet, to: path)
            let victim = folder + "/victim"
            try write(Array("keep\n".utf8), to: victim)
            let names = PartialFileName()
            let dead = try (0..<5).map { _ in try ChildProcess.killed() }
            let stale = dead[0..<3].map { names.make(for: "central.csv", pid: $0) }
            for name in stale { try write([UInt8](repeating: 65, count: 4096), to: folder + "/" + name) }
            let live = try ChildProcess()
            defer { live.kill() }
            let running = names.make(for: "central.csv", pid: live.pid)
            try write(cleaned, to: folder + "/" + running)
            let link = names.make(for: "central.csv", pid: dead[3])
            #expect(symlink(victim, folder + "/" + link) == 0)
            let otherSheet = names.make(for: "other.csv", pid: dead[3])
            try write(sheet, to: folder + "/" + otherSheet)
            let aFolder = names.make(for: "central.csv", pid: dead[4])
            #expect(mkdir(folder + "/" + aFolder, 0o700) == 0)
            var kept = [running, link, otherSheet, aFolder]
            if geteuid() == 0 {
                let someoneElses = names.make(for: "central.csv", pid: dead[4])
                try write(sheet, to: folder + "/" + someoneElses)
                #expect(chown(folder + "/" + someoneElses, 65534, 65534) == 0)
                kept.append(someoneElses)
            }

            let provider = FileProvider(path, account: "acme")
            try provider.push(cleaned, over: try provider.pull())

            #expect(contents(path) == cleaned)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                    == (kept + ["central.csv", "victim"]).sorted())
            for name in stale { #expect(!FileManager.default.fileExists(atPath: folder + "/" + name)) }
            #expect(contents(folder + "/" + running) == cleaned)
            #expect(contents(victim) == Array("keep\n".utf8))
        }
    }

    @Test(.enabled(if: Self.mayMount, "mounting a small tmpfs is not permitted here"))
    func aFullDiskKeepsTheSheetAndLeavesNoPartial() throws {
        try inFolder { folder in
            let disk = folder + "/disk"
            #expect(mkdir(disk, 0o755) == 0)
            try #require(Self.mountSmallDisk(at: disk, log: folder + "/mount.log"))
            defer { _ = ExternalProgram.run("/usr/bin/umount", [disk], log: folder + "/mount.log") }
            let path = disk + "/central.csv"
            try write(sheet, to: path)
            #expect(chmod(path, 0o600) == 0)
            let provider = FileProvider(path, account: "acme")
            let pulled = try provider.pull()
            let error = #expect(
                throws: SyncError.refused(
                    account: "acme", url: path, status: 0, detail: "the disk is full", phase: .push)
            ) {
                try provider.push([UInt8](repeating: 65, count: 256 * 1024), over: pulled)
            }
            #expect(error?.exitStatus.rawValue == 75)
            #expect(contents(path) == sheet)
            #expect(mode(of: path) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == ["central.csv"])
        }
    }

    /// Whether this process may mount a tmpfs (root outside a restricted container).
    private static let mayMount: Bool = {
        let probe = NSTemporaryDirectory() + "/stocktake-mount-probe-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard mkdir(probe, 0o755) == 0, mountSmallDisk(at: probe, log: "/dev/null") else { return false }
        _ = ExternalProgram.run("/usr/bin/umount", [probe], log: "/dev/null")
        return true
    }()

    /// Mounts a 64 KiB tmpfs at `folder`, to fill up on purpose.
    private static func mountSmallDisk(at folder: String, log: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mount") else { return false }
        return ExternalProgram.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder], log: log) == 0
    }

    private func mode(of path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    private func isLink(_ path: String) -> Bool? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT == S_IFLNK : nil
    }
}
