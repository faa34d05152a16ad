import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files written into one folder that take their names together, each still complete before it has its name.
///
/// Flushing a file to disk waits for the disk: about 3.5 ms on a cloud volume, so the fifteen files of an account's
/// run waited about 50 ms one after another, and a thousand small accounts waited longer than they computed. A group
/// flushes all its files at once, on a thread each, which the file system serves with one commit, then renames them
/// in the order they were added, then flushes the folder once. The guarantee of `AtomicFileWriter` is unchanged:
/// every file's bytes are on disk before it takes its name, and a file that fails to flush never takes it.
public final class AtomicFileGroup {
    /// The folder every file of the group is in.
    public let folder: String
    private var writers: [AtomicFileWriter] = []

    public init(folder: String) {
        self.folder = folder
    }

    /// Adds a file whose bytes are all written; it takes its name at `commit()`.
    public func add(_ writer: AtomicFileWriter) throws(StocktakeError) {
        do {
            try writer.finishWriting()
        } catch {
            abandonAll()
            throw error
        }
        writers.append(writer)
    }

    /// Writes `bytes` as the file at `path` of the group.
    public func write(_ bytes: [UInt8], to path: String) throws(StocktakeError) {
        let writer: AtomicFileWriter
        do {
            writer = try AtomicFileWriter(path: path)
            try writer.write(bytes)
        } catch {
            abandonAll()
            throw error
        }
        try add(writer)
    }

    /// Writes the UTF-8 text as the file at `path` of the group.
    public func write(_ text: String, to path: String) throws(StocktakeError) {
        try write(Array(text.utf8), to: path)
    }

    /// Flushes every file to disk at once, then renames each over its path in the order they were added, then
    /// (unless `synchronizingFolder` is false) flushes the folder. When a file cannot be flushed, no file of the group
    /// takes its name and the first failure is thrown; the files already in place stay as they were.
    public func commit(synchronizingFolder: Bool = true) throws(StocktakeError) {
        let failures = Self.synchronize(writers)
        if let failed = failures.firstIndex(where: { $0 != 0 }) {
            let error = writers[failed].abandon(failingWith: failures[failed])
            abandonAll()
            throw error
        }
        while !writers.isEmpty {
            let writer = writers.removeFirst()
            do {
                try writer.takeName()
            } catch {
                abandonAll()
                throw error
            }
        }
        if synchronizingFolder { AtomicFile.synchronizeFolder(folder) }
    }

    /// Drops every file not yet renamed (each writer removes its temporary file).
    private func abandonAll() {
        writers.removeAll()
    }

    /// Flushes the writers' files at the same time, one thread each but the first (on this thread); returns each
    /// one's errno, 0 when flushed.
    private static func synchronize(_ writers: [AtomicFileWriter]) -> [Int32] {
        guard writers.count > 1 else { return writers.map { $0.synchronize() } }
        let results = ResultSlots<Int32>(count: writers.count)
        let done = DispatchGroup()
        for index in writers.indices.dropFirst() {
            done.enter()
            let writer = UncheckedWriter(writer: writers[index])
            Thread.detachNewThread {
                results[index] = writer.writer.synchronize()
                done.leave()
            }
        }
        results[0] = writers[0].synchronize()
        done.wait()
        return writers.indices.map { results[$0]! }
    }

    /// A writer handed to a flushing thread: only its `synchronize()` runs there, while this thread waits.
    private struct UncheckedWriter: @unchecked Sendable {
        let writer: AtomicFileWriter
    }
}
