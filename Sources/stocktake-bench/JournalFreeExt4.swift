import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a folder is on an ext4 file system without a journal, where a benchmark of many accounts measures more
/// than stocktake: such a file system does not hand out an inode freed in the last few minutes while it has others
/// (so that a crash leaves more to recover), and looks past each one, a buffer lookup each, whenever it creates a file.
/// After a benchmark removed the tens of thousands of files of its runs, the next one creating as many pays that
/// in every file (on this project's machine, 15 % of a 1,000-account run's CPU).
///
/// The kernel says which block devices hold a mounted ext4 file system under `/proc/fs/ext4/` and which of those
/// have a journal under `/proc/fs/jbd2/` (an entry named after the device, "vda-8"). A journal on a device of its
/// own is listed under that device's name, so such a file system is taken for one without.
struct JournalFreeExt4: Equatable {
    /// The block device's name, "vda".
    var device: String

    /// The file system of `folder` when it is ext4 without a journal; `nil` when it has one, is another kind or
    /// cannot be told. `system` is where `/proc` and `/sys` are found (tests give a folder of their own).
    static func holding(_ folder: String, system: String = "/") -> JournalFreeExt4? {
        var status = stat()
        guard stat(folder, &status) == 0 else { return nil }
        let (major, minor) = numbers(of: UInt64(status.st_dev))
        return journalFree(major: major, minor: minor, system: system)
    }

    /// The major and minor numbers of a device number, split as the C library's `major()` and `minor()` split it
    /// (which Swift does not import): the major in bits 8–19 and 44–63, the minor in bits 0–7 and 20–43.
    static func numbers(of device: UInt64) -> (major: UInt64, minor: UInt64) {
        let major = (device & 0x0000_0000_000f_ff00) >> 8 | (device & 0xffff_f000_0000_0000) >> 32
        let minor = device & 0xff | (device & 0x0000_0fff_fff0_0000) >> 12
        return (major, minor)
    }

    /// As `holding(_:system:)`, for the block device numbered `major`:`minor`.
    static func journalFree(major: UInt64, minor: UInt64, system: String) -> JournalFreeExt4? {
        let root = system.hasSuffix("/") ? system : system + "/"
        guard
            let event = try? String(contentsOfFile: root + "sys/dev/block/\(major):\(minor)/uevent", encoding: .utf8),
            let line = event.split(separator: "\n").first(where: { $0.hasPrefix("DEVNAME=") })
        else { return nil }
        let name = String(line.dropFirst("DEVNAME=".count))
        guard !name.isEmpty, !name.contains("/") else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + "proc/fs/ext4/" + name, isDirectory: &isFolder),
            isFolder.boolValue,
            let journals = try? FileManager.default.contentsOfDirectory(atPath: root + "proc/fs/jbd2")
        else { return nil }
        return journals.contains(where: { $0.hasPrefix(name + "-") }) ? nil : JournalFreeExt4(device: name)
    }

    /// The report's line about it.
    var caution: String {
        "ext4 without a journal (\(device)): for minutes after files there are removed, each file created looks past "
            + "their inodes, so a run right after another benchmark's removed folders is slower (README, Benchmark)"
    }
}
