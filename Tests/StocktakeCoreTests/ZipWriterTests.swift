import Foundation
import Testing

@testable import StocktakeCore

@Suite("ZipWriter: ZIP files written entry by entry")
struct ZipWriterTests {
    let folder = TemporaryFolder()

    /// Python's `zipfile` opens the archive at argv[1], runs `testzip()` (every entry inflated, its CRC-32 checked)
    /// and compares entry i with the file argv[2]/i, and the date of entries not named after them with 1980-01-01;
    /// prints the failures, or "ok" and the names.
    static let checker = """
        import sys, zipfile
        archive = zipfile.ZipFile(sys.argv[1])
        bad = archive.testzip()
        problems = [] if bad is None else ["testzip: " + bad]
        for index, info in enumerate(archive.infolist()):
            expected = open(sys.argv[2] + "/" + str(index), "rb").read()
            if archive.read(info) != expected:
                problems.append(info.filename + " differs")
            if info.filename not in sys.argv[3:] and info.date_time != (1980, 1, 1, 0, 0, 0):
                problems.append(info.filename + " dated " + repr(info.date_time))
        print("\\n".join(problems) if problems else "ok " + "|".join(archive.namelist()))
        """

    /// Writes the archive into memory through the sink, piece by piece.
    static func archive(
        zip64Threshold: Int = Int(UInt32.max), _ fill: (ZipWriter) throws(StocktakeError) -> Void
    ) throws -> [UInt8] {
        final class Pieces { var bytes: [UInt8] = [] }
        let pieces = Pieces()
        let writer = ZipWriter(path: "test.zip", zip64Threshold: zip64Threshold) {
            (piece: [UInt8]) throws(StocktakeError) in pieces.bytes += piece
        }
        try fill(writer)
        try writer.finish()
        return pieces.bytes
    }

    /// Checks `bytes` with python's zipfile against the expected contents, in order; returns its verdict.
    func check(_ bytes: [UInt8], _ contents: [[UInt8]], keepingDatesOf copied: [String] = []) -> String {
        let path = folder.write(bytes, to: "test.zip")
        for (index, content) in contents.enumerated() { folder.write(content, to: "expected/\(index)") }
        return WorkbookTools.python(Self.checker, [path, folder.path("expected")] + copied).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Text that compresses like a sheet: rows of cells, with some noise.
    static func sheetLike(_ rows: Int, seed: Int = 1) -> [UInt8] {
        var text = ""
        for row in 0..<rows {
            text += "<row r=\"\(row + 2)\"><c r=\"A\(row + 2)\" t=\"inlineStr\"><is><t>"
            text += String((row * 7919 + seed) % 1_000_000) + "</t></is></c></row>"
        }
        return Array(text.utf8)
    }

    @Test(.enabled(if: WorkbookTools.hasPython, "python3 is not installed"))
    func streamedWholeAndEmptyEntriesAreReadByPythonZipfile() throws {
        let sheet = Self.sheetLike(20_000)
        let bytes = try Self.archive { writer throws(StocktakeError) in
            try writer.addEntry(name: "[Content_Types].xml", contents: Array("<Types/>".utf8))
            try writer.beginEntry(name: "xl/worksheets/sheet1.xml")
            try writer.write(Array(sheet[0..<1000]))
            try writer.write(Array(sheet[1000...]))
            try writer.endEntry()
            try writer.beginEntry(name: "empty-streamed")
            try writer.endEntry()
            try writer.addEntry(name: "empty-whole", contents: [])
            try writer.addEntry(name: "docs/ünïcode.txt", contents: Array("é".utf8))
        }
        #expect(
            check(bytes, [Array("<Types/>".utf8), sheet, [], [], Array("é".utf8)])
                == "ok [Content_Types].xml|xl/worksheets/sheet1.xml|empty-streamed|empty-whole|docs/ünïcode.txt")
        // The sheet is deflated, to less than a quarter of its size.
        #expect(bytes.count < sheet.count / 4)
        // Info-ZIP agrees, when it is installed.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
            let result = WorkbookTools.run("/usr/bin/unzip", ["-tq", folder.path("test.zip")])
            #expect(result.status == 0, "\(result.output)")
        }
    }

    @Test(.enabled(if: WorkbookTools.hasPython, "python3 is not installed"))
    func blocksCompressedApartJoinStreamedPiecesIntoOneEntry() throws {
        let parts = (0..<5).map { Self.sheetLike(3_000 + $0 * 100, seed: $0) }
        let bytes = try Self.archive { writer throws(StocktakeError) in
            try writer.beginEntry(name: "sheet.xml")
            try writer.write(parts[0])
            try writer.write(ZipWriter.CompressedBlock.compress(parts[1]))
            try writer.write(ZipWriter.CompressedBlock.compress(parts[2]))
            try writer.write(parts[3])
            try writer.write(ZipWriter.CompressedBlock.compress(parts[4]))
            try writer.endEntry()
            try writer.beginEntry(name: "blocks-only.xml")
            try writer.write(ZipWriter.CompressedBlock.compress(parts[0]))
            try writer.write(ZipWriter.CompressedBlock.compress([]))
            try writer.endEntry()
        }
        #expect(check(bytes, [parts.flatMap { $0 }, parts[0]]) == "ok sheet.xml|blocks-only.xml")
    }

    @Test func theSameEntriesMakeTheSameBytes() throws {
        func make() throws -> [UInt8] {
            try Self.archive { writer throws(StocktakeError) in
                try writer.addEntry(name: "a", contents: Self.sheetLike(100))
                try writer.beginEntry(name: "b")
                try writer.write(ZipWriter.CompressedBlock.compress(Self.sheetLike(200)))
                try writer.endEntry()
            }
        }
        let first = try make()
        #expect(try make() == first)
        // Local header of "a": version 20, no flags, deflated, 1980-01-01 00:00 (date 0x0021, time 0).
        #expect(Array(first[0..<14]) == [0x50, 0x4B, 0x03, 0x04, 20, 0, 0, 0, 8, 0, 0, 0, 0x21, 0])
    }

    @Test(.enabled(if: WorkbookTools.hasPython, "python3 is not installed"))
    func sizesAndOffsetsPastTheThresholdAreWrittenAsZIP64() throws {
        let sheet = Self.sheetLike(2_000)
        let small = Array("small".utf8)
        let bytes = try Self.archive(zip64Threshold: 200) { writer throws(StocktakeError) in
            try writer.addEntry(name: "small-first", contents: small)
            try writer.beginEntry(name: "streamed")
            try writer.write(sheet)
            try writer.endEntry()
            try writer.addEntry(name: "whole", contents: sheet)
            try writer.addEntry(name: "small-last", contents: small)
        }
        #expect(check(bytes, [small, sheet, sheet, small]) == "ok small-first|streamed|whole|small-last")
        // The ZIP64 end record and its locator precede the classic end record, whose offset field is 0xFFFFFFFF.
        let tail = Array(bytes.suffix(22 + 20 + 56))
        #expect(Array(tail[0..<4]) == [0x50, 0x4B, 0x06, 0x06])
        #expect(Array(tail[56..<60]) == [0x50, 0x4B, 0x06, 0x07])
        #expect(Array(tail[76..<80]) == [0x50, 0x4B, 0x05, 0x06])
        #expect(Array(tail[92..<96]) == [0xFF, 0xFF, 0xFF, 0xFF])
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
            let result = WorkbookTools.run("/usr/bin/unzip", ["-tq", folder.path("test.zip")])
            #expect(result.status == 0, "\(result.output)")
        }
    }

    @Test(.enabled(if: WorkbookTools.hasPython, "python3 is not installed"))
    func moreThan65535EntriesAreCountedInTheZIP64EndRecord() throws {
        let count = 70_000
        let bytes = try Self.archive { writer throws(StocktakeError) in
            for index in 0..<count { try writer.addEntry(name: "e\(index)", contents: index % 2 == 0 ? [] : [7]) }
        }
        let path = folder.write(bytes, to: "many.zip")
        let script = """
            import sys, zipfile
            archive = zipfile.ZipFile(sys.argv[1])
            names = archive.namelist()
            print(archive.testzip(), len(names), names[-1], archive.read("e69999"), archive.read("e69998"))
            """
        #expect(
            WorkbookTools.python(script, [path]).output == "None 70000 e69999 b'\\x07' b''\n")
    }

    @Test func aSecondEntryOfTheSameNameIsRefusedWithASentence() throws {
        let writer = ZipWriter(path: "/out/cleaned.xlsx") { (_: [UInt8]) throws(StocktakeError) in }
        try writer.addEntry(name: "xl/workbook.xml", contents: [])
        #expect(throws: StocktakeError.self) { try writer.beginEntry(name: "xl/workbook.xml") }
        do {
            try writer.addEntry(name: "xl/workbook.xml", contents: [1])
        } catch {
            #expect(
                error.description
                    == "/out/cleaned.xlsx: cannot write it: it would hold two entries named \"xl/workbook.xml\", "
                    + "which no reader can tell apart. Check that the folder exists, is writable and the disk is "
                    + "not full.")
        }
    }

    @Test func aSinkThatFailsStopsTheWriterWithItsError() throws {
        let failure = StocktakeError.cannotWrite(path: "/full/cleaned.xlsx", reason: "the disk is full")
        let writer = ZipWriter(path: "/full/cleaned.xlsx") { (_: [UInt8]) throws(StocktakeError) in throw failure }
        try writer.beginEntry(name: "sheet.xml")
        // Pieces go to the sink a megabyte at a time: random bytes do not compress, so 2 MiB reach it.
        var generator = CSVTestRandomGenerator(seed: 7)
        let noise = (0..<(2 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(throws: failure) { try writer.write(noise) }
    }

    @Test(.enabled(if: WorkbookTools.hasPython, "python3 is not installed"))
    func entriesOfAnotherArchiveAreCopiedByteForByte() throws {
        // Python writes a stored entry, a deflated one, and one with a data descriptor (to a stream it cannot
        // seek), then lists where each record starts and its central fields.
        let source = folder.path("source.zip")
        let script = """
            import io, json, sys, zipfile
            class Unseekable(io.RawIOBase):
                def __init__(self): self.data = bytearray()
                def writable(self): return True
                def write(self, b): self.data += b; return len(b)
            stream = Unseekable()
            with zipfile.ZipFile(stream, "w") as archive:
                archive.writestr(zipfile.ZipInfo("stored.txt", (2020, 5, 6, 7, 8, 10)), b"as is")
                info = zipfile.ZipInfo("deflated.xml", (2021, 1, 2, 3, 4, 6))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, b"<x>" * 1000)
                with archive.open("described.bin", "w") as entry: entry.write(b"\\x00\\x01" * 500)
            open(sys.argv[1], "wb").write(stream.data)
            archive = zipfile.ZipFile(sys.argv[1])
            infos = archive.infolist()
            ends = [i.header_offset for i in infos[1:]] + [archive.start_dir]
            print(json.dumps([[i.filename, i.header_offset, end, i.extract_version, i.flag_bits, i.compress_type,
                (i.date_time[3] << 11) | (i.date_time[4] << 5) | (i.date_time[5] // 2),
                ((i.date_time[0] - 1980) << 9) | (i.date_time[1] << 5) | i.date_time[2],
                i.CRC, i.compress_size, i.file_size] for i, end in zip(infos, ends)]))
            """
        let listing = WorkbookTools.python(script, [source]).output
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[Any]])
        let original = Array(try #require(FileManager.default.contents(atPath: source)))
        var copied: [ArraySlice<UInt8>] = []
        let bytes = try Self.archive { writer throws(StocktakeError) in
            try writer.addEntry(name: "new.xml", contents: Array("<new/>".utf8))
            for row in rows {
                let record = original[(row[1] as! Int)..<(row[2] as! Int)]
                copied.append(record)
                let entry = ZipWriter.CopiedEntry(
                    name: Array((row[0] as! String).utf8), versionNeeded: UInt16(row[3] as! Int),
                    flags: UInt16(row[4] as! Int), method: UInt16(row[5] as! Int),
                    modificationTime: UInt16(row[6] as! Int), modificationDate: UInt16(row[7] as! Int),
                    crc32: UInt32(row[8] as! Int), compressedSize: row[9] as! Int, uncompressedSize: row[10] as! Int)
                try writer.copyEntry(record: record, entry: entry)
            }
        }
        #expect(rows.map { $0[4] as! Int }.contains { $0 & 8 != 0 }, "one entry has a data descriptor")
        #expect(
            check(
                bytes,
                [
                    Array("<new/>".utf8), Array("as is".utf8), Array(String(repeating: "<x>", count: 1000).utf8),
                    Array(repeating: [0, 1] as [UInt8], count: 500).flatMap { $0 },
                ], keepingDatesOf: ["stored.txt", "deflated.xml", "described.bin"])
                == ("ok new.xml|stored.txt|deflated.xml|described.bin"))
        // Each record sits in the new archive exactly as it was stored in the old one.
        var position = 0
        for record in copied {
            let found = try #require(Self.firstIndex(of: Array(record), in: bytes, from: position))
            position = found + record.count
        }
        // A copied name already in the archive is refused like any other.
        #expect(throws: StocktakeError.self) {
            _ = try Self.archive { writer throws(StocktakeError) in
                try writer.addEntry(name: "stored.txt", contents: [])
                try writer.copyEntry(
                    record: copied[0],
                    entry: ZipWriter.CopiedEntry(
                        name: Array("stored.txt".utf8), versionNeeded: 20, flags: 0, method: 0, modificationTime: 0,
                        modificationDate: 0x21, crc32: 0, compressedSize: 5, uncompressedSize: 5))
            }
        }
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index] == needle[0] && Array(haystack[index..<(index + needle.count)]) == needle {
            return index
        }
        return nil
    }
}
