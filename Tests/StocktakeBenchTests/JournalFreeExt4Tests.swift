import Foundation
import Testing

@testable import stocktake_bench

/// Telling an ext4 file system without a journal from the kernel's records of its block devices.
struct JournalFreeExt4Tests {
    let runner = BenchRunner()

    /// A `/proc` and `/sys` of one block device, 254:0 named `vda`, mounted as ext4, with a journal or without.
    func system(journal: Bool, ext4: Bool = true, deviceName: String = "vda") throws -> String {
        let root = runner.path("system")
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/sys/dev/block/254:0", withIntermediateDirectories: true)
        try "MAJOR=254\nMINOR=0\nDEVNAME=\(deviceName)\nDEVTYPE=disk\n".write(
            toFile: root + "/sys/dev/block/254:0/uevent", atomically: true, encoding: .utf8)
        try manager.createDirectory(atPath: root + "/proc/fs/jbd2", withIntermediateDirectories: true)
        if ext4 { try manager.createDirectory(atPath: root + "/proc/fs/ext4/vda", withIntermediateDirectories: true) }
        if journal {
            try manager.createDirectory(atPath: root + "/proc/fs/jbd2/vda-8", withIntermediateDirectories: true)
        }
        return root
    }

    @Test func anExt4DeviceWithoutAJournalIsNamed() throws {
        let root = try system(journal: false)
        let found = JournalFreeExt4.journalFree(major: 254, minor: 0, system: root)
        #expect(found == JournalFreeExt4(device: "vda"))
        #expect(
            found?.caution
                == "ext4 without a journal (vda): for minutes after files there are removed, each file created looks "
                + "past their inodes, so a run right after another benchmark's removed folders is slower (README, "
                + "Benchmark)")
    }

    @Test func aJournalAnotherFileSystemOrAnUnknownDeviceIsNoCause() throws {
        #expect(JournalFreeExt4.journalFree(major: 254, minor: 0, system: try system(journal: true)) == nil)
        try FileManager.default.removeItem(atPath: runner.path("system"))
        #expect(
            JournalFreeExt4.journalFree(major: 254, minor: 0, system: try system(journal: false, ext4: false)) == nil)
        try FileManager.default.removeItem(atPath: runner.path("system"))
        let root = try system(journal: false)
        #expect(JournalFreeExt4.journalFree(major: 8, minor: 1, system: root) == nil)
        // A device name that would lead out of /proc/fs/ext4 is not looked up.
        try FileManager.default.removeItem(atPath: root)
        #expect(
            JournalFreeExt4.journalFree(major: 254, minor: 0, system: try system(journal: false, deviceName: "../vda"))
                == nil)
    }

    /// Device numbers beyond 12 bits of major and 8 of minor are split as the C library splits them:
    /// `makedev(0x12345, 0x6789a)` is 0x120006783459a.
    @Test func largeDeviceNumbersAreSplitAsTheCLibrarySplitsThem() {
        #expect(JournalFreeExt4.numbers(of: 0x1_2000_6783_459a) == (0x12345, 0x6789a))
        #expect(JournalFreeExt4.numbers(of: 0xfe00) == (254, 0))
        #expect(JournalFreeExt4.numbers(of: 0x0803) == (8, 3))
    }

    /// On this machine: the device number of a real folder is decoded as coreutils' `stat` decodes it, and the
    /// answer agrees with the kernel's records of that device.
    @Test func aRealFolderIsLookedUpByItsDevice() throws {
        let folder = runner.path("")
        // coreutils' stat itself, not a script written here: a script just written may still be open for writing in
        // a child another test forked, and exec would fail with ETXTBSY.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stat")
        process.arguments = ["-c", "%Hd %Ld", folder]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let numbers = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: " ").compactMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(numbers.count == 2)
        #expect(
            JournalFreeExt4.holding(folder)
                == JournalFreeExt4.journalFree(major: numbers[0], minor: numbers[1], system: "/"))
        let event = try? String(contentsOfFile: "/sys/dev/block/\(numbers[0]):\(numbers[1])/uevent", encoding: .utf8)
        guard let name = event?.split(separator: "\n").first(where: { $0.hasPrefix("DEVNAME=") })?.dropFirst(8) else {
            return
        }
        let journals = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/fs/jbd2")) ?? []
        let journalFree =
            FileManager.default.fileExists(atPath: "/proc/fs/ext4/\(name)")
            && !journals.contains(where: { $0.hasPrefix("\(name)-") })
        #expect((JournalFreeExt4.holding(folder) != nil) == journalFree, "device \(name)")
    }
}
