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
/// starts each file's flush as soon as the file is added (`AtomicFileWriter.startFlushing`), so the flushes overlap
/// each other and the making of the next file, then renames the files in the order they were added, then flushes
/// the folder once. The guarantee of `AtomicFileWriter` is unchanged:
/// every file's bytes are on disk before it takes its name, and a file that fails to flush never takes it.
public final class AtomicFileGroup {
    /// The folder every file of the group is in.
    public let folder: String
    private var writers: [AtomicFileWriter] = []

    /// How each file is flushed: `AtomicFileWriter.synchronize`, or in tests one that fails.
    private let synchronize: @Sendable (Int32) -> Int32

    public convenience init(folder: String) {
        self.init(folder: folder, synchronizing: AtomicFileWriter.synchronize)
    }

    init(folder: String, synchronizing synchronize: @escaping @Sendable (Int32) -> Int32) {
        self.folder = folder
        self.synchronize = synchronize
    }

    /// Adds a file whose bytes are all written: its flush to disk starts now, and it takes its name at `commit()`.
    public func add(_ writer: AtomicFileWriter) throws(StocktakeError) {
        do {
            try writer.startFlushing(synchronizing: synchronize)
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

    /// Waits until every file is on disk, then renames each over its path in the order they were added, then
    /// (unless `synchronizingFolder` is false) flushes the folder. When a file cannot be flushed, no file of the group
    /// takes its name and the first failure is thrown; the files already in place stay as they were.
    public func commit(synchronizingFolder: Bool = true) throws(StocktakeError) {
        for writer in writers {
            do {
                try writer.finishFlushing()
            } catch {
                abandonAll()
                throw error
            }
        }
        while !writers.isEmpty {
            let writer = writers.removeFirst()
            do {
                try writer.commit(synchronizingFolder: false)
            } catch {
                abandonAll()
                throw error
            }
        }
        if synchronizingFolder { AtomicFile.synchronizeFolder(folder) }
    }

    /// Drops every file not yet renamed (each writer removes its temporary file once its flush is over).
    private func abandonAll() {
        writers.removeAll()
    }
}
