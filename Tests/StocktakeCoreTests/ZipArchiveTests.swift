import CZlib
import Foundation
import Testing

@testable import StocktakeCore

@Suite("ZipArchive")
struct ZipArchiveTests {
    /// An archive with a stored and a deflated entry, made by python's zipfile.
    static let basicScript = """
        import zipfile
        with zipfile.ZipFile('out.zip', 'w') as z:
            z.writestr('stored.txt', 'hello, stored', compress_type=zipfile.ZIP_STORED)
            z.writestr('xl/worksheets/sheet1.xml', '<row>' * 5000, compress_type=zipfile.ZIP_DEFLATED)
            z.writestr('xl/empty.xml', '', compress_type=zipfile.ZIP_DEFLATED)
        """

    @Test("stored and deflated entries are listed in central-directory order and read back exactly")
    func storedAndDeflated() throws {
        let folder = TemporaryFolder()
        let archive = try ZipArchive(bytes: try pythonZip(Self.basicScript, in: folder), name: "assets.xlsx")
        #expect(archive.name == "assets.xlsx")
        #expect(archive.entries.map(\.name) == ["stored.txt", "xl/worksheets/sheet1.xml", "xl/empty.xml"])
        #expect(archive.entries.map(\.method) == [0, 8, 8])
        let sheet = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        #expect(sheet.uncompressedSize == 25_000)
        #expect(sheet.compressedSize < 1000)
        #expect(try archive.contents(of: sheet) == Array(String(repeating: "<row>", count: 5000).utf8))
        let stored = try #require(archive.entry(named: "stored.txt"))
        #expect(try archive.contents(of: stored) == Array("hello, stored".utf8))
        let empty = try #require(archive.entry(named: "xl/empty.xml"))
        #expect(try archive.contents(of: empty) == [])
    }

    @Test("an entry is found by its exact name, then ASCII-case-insensitively, with a leading / ignored")
    func entryLookup() throws {
        let folder = TemporaryFolder()
        let bytes = try pythonZip(
            """
            import zipfile
            with zipfile.ZipFile('out.zip', 'w') as z:
                z.writestr('xl/Workbook.xml', 'upper')
                z.writestr('xl/workbook.xml', 'lower')
                z.writestr('[Content_Types].xml', 'types')
                z.writestr('xl\\\\styles.xml', 'backslash')
            """, in: folder)
        let archive = try ZipArchive(bytes: bytes, name: "assets.xlsx")
        func text(_ name: String) throws -> String? {
            guard let entry = archive.entry(named: name) else { return nil }
            return String(decoding: try archive.contents(of: entry), as: UTF8.self)
        }
        #expect(try text("xl/workbook.xml") == "lower")
        #expect(try text("xl/Workbook.xml") == "upper")
        #expect(try text("/xl/workbook.xml") == "lower")
        #expect(try text("XL/WORKBOOK.XML") == "upper")
        #expect(try text("/[content_types].xml") == "types")
        #expect(try text("xl/styles.xml") == "backslash")
        #expect(try text("xl/sharedStrings.xml") == nil)
        #expect(try text("//xl/workbook.xml") == nil)
    }

    @Test("storedRecord is the local header, the data and the data descriptor, byte for byte")
    func storedRecord() throws {
        let folder = TemporaryFolder()
        let bytes = try pythonZip(Self.basicScript, in: folder)
        let archive = try ZipArchive(bytes: bytes, name: "assets.xlsx")
        let centralStart = try #require(bytes.offset(of: ZipSignature.central))
        var previousEnd = 0
        for entry in archive.entries {
            let record = archive.storedRecord(of: entry)
            #expect(record.startIndex == entry.localHeaderOffset)
            #expect(record.startIndex == previousEnd)
            #expect(Array(record.prefix(4)) == ZipSignature.local)
            #expect(record.endIndex == entry.dataOffset + entry.compressedSize)
            previousEnd = record.endIndex
        }
        #expect(previousEnd == centralStart)
    }

    @Test("a data descriptor with or without its signature: the data starts after the local header's own extra field")
    func dataDescriptors() throws {
        var signed = TestZipEntry("xl/signed.xml", String(repeating: "<c>1</c>", count: 300))
        signed.descriptor = .signed
        var unsigned = TestZipEntry("xl/unsigned.xml", "stored, unsigned descriptor", method: 0)
        unsigned.descriptor = .unsigned
        var padded = TestZipEntry("xl/padded.xml", "local extra field differs from the central one")
        padded.localExtra = TestZip.le16(0xCAFE) + TestZip.le16(40) + [UInt8](repeating: 0x50, count: 40)
        let bytes = TestZip.build([signed, unsigned, padded])
        let archive = try ZipArchive(bytes: bytes, name: "assets.xlsx")
        #expect(archive.entries.map(\.hasDataDescriptor) == [true, true, false])
        for (entry, expected) in zip(archive.entries, [signed, unsigned, padded]) {
            #expect(try archive.contents(of: entry) == expected.contents)
        }
        let records = archive.entries.map { archive.storedRecord(of: $0) }
        #expect(records[0].endIndex == archive.entries[0].dataOffset + archive.entries[0].compressedSize + 16)
        #expect(records[1].endIndex == archive.entries[1].dataOffset + archive.entries[1].compressedSize + 12)
        #expect(records[1].endIndex == records[2].startIndex)
        #expect(archive.entries[2].dataOffset == archive.entries[2].localHeaderOffset + 30 + 13 + 44)
    }

    @Test("python's zipfile writing to a pipe gives data descriptors; they read back")
    func pythonDataDescriptor() throws {
        let folder = TemporaryFolder()
        let bytes = try pythonZip(
            """
            import zipfile
            class Pipe:
                def __init__(self, f): self.f = f
                def write(self, b): return self.f.write(b)
                def flush(self): self.f.flush()
            with open('out.zip', 'wb') as f:
                with zipfile.ZipFile(Pipe(f), 'w', zipfile.ZIP_DEFLATED) as z:
                    with z.open('xl/worksheets/sheet1.xml', 'w') as e:
                        e.write(b'<row r="1"/>' * 1000)
                    with z.open('docProps/app.xml', 'w') as e:
                        e.write(b'app')
            """, in: folder)
        let archive = try ZipArchive(bytes: bytes, name: "assets.xlsx")
        #expect(archive.entries.allSatisfy { $0.hasDataDescriptor })
        let sheet = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        #expect(try archive.contents(of: sheet) == Array(String(repeating: "<row r=\"1\"/>", count: 1000).utf8))
        #expect(try archive.contents(of: try #require(archive.entry(named: "docProps/app.xml"))) == Array("app".utf8))
    }

    @Test(
        "ZIP64: the end record locator, the ZIP64 end record and the central extra field with only the 0xFFFFFFFF fields"
    )
    func zip64Built() throws {
        var all = TestZipEntry("xl/all.xml", String(repeating: "all three ", count: 200))
        all.zip64Uncompressed = true
        all.zip64Compressed = true
        all.zip64Offset = true
        var offsetOnly = TestZipEntry("xl/offset.xml", "only the offset", method: 0)
        offsetOnly.zip64Offset = true
        var compressedOnly = TestZipEntry("xl/compressed.xml", String(repeating: "compressed ", count: 100))
        compressedOnly.zip64Compressed = true
        compressedOnly.descriptor = .signed
        compressedOnly.localExtra = TestZip.le16(0x0001) + TestZip.le16(16) + [UInt8](repeating: 0, count: 16)
        let bytes = TestZip.build(
            [all, offsetOnly, compressedOnly], comment: Array("made by hand".utf8), zip64End: true)
        let archive = try ZipArchive(bytes: bytes, name: "big.xlsx")
        #expect(archive.entries.map(\.name) == ["xl/all.xml", "xl/offset.xml", "xl/compressed.xml"])
        for (entry, expected) in zip(archive.entries, [all, offsetOnly, compressedOnly]) {
            #expect(try archive.contents(of: entry) == expected.contents)
            #expect(entry.uncompressedSize == expected.contents.count)
        }
        #expect(archive.entries[1].localHeaderOffset == archive.storedRecord(of: archive.entries[0]).endIndex)
        // A ZIP64 local extra field means 8-byte sizes in the data descriptor: 4 + 4 + 8 + 8 bytes.
        let last = archive.entries[2]
        #expect(archive.storedRecord(of: last).endIndex == last.dataOffset + last.compressedSize + 24)
    }

    @Test("ZIP64 from python: force_zip64 entries, and 70,000 entries, which need the ZIP64 end record")
    func zip64Python() throws {
        let folder = TemporaryFolder()
        let bytes = try pythonZip(
            """
            import zipfile
            with zipfile.ZipFile('out.zip', 'w', zipfile.ZIP_DEFLATED) as z:
                with z.open('xl/worksheets/sheet1.xml', 'w', force_zip64=True) as e:
                    e.write(b'<v>42</v>' * 500)
                for i in range(70000):
                    z.writestr('n/%d' % i, b'', compress_type=zipfile.ZIP_STORED)
                with z.open('last.xml', 'w', force_zip64=True) as e:
                    e.write(b'the end')
            """, in: folder)
        #expect(bytes.lastOffset(of: [0x50, 0x4B, 0x06, 0x06]) != nil)
        let archive = try ZipArchive(bytes: bytes, name: "many.xlsx")
        #expect(archive.entries.count == 70_002)
        let sheet = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        #expect(try archive.contents(of: sheet) == Array(String(repeating: "<v>42</v>", count: 500).utf8))
        #expect(try archive.contents(of: try #require(archive.entry(named: "last.xml"))) == Array("the end".utf8))
        #expect(archive.entries[69_001].name == "n/69000")
    }

    @Test("a comment of up to 65,535 bytes at the end, even one holding an end record signature, is skipped")
    func comments() throws {
        let folder = TemporaryFolder()
        for comment in ["b'x' * 65535", "b'PK\\x05\\x06' + b'\\x00' * 40", "b'note'"] {
            let bytes = try pythonZip(
                """
                import zipfile
                with zipfile.ZipFile('out.zip', 'w') as z:
                    z.writestr('a.txt', 'alpha')
                    z.comment = \(comment)
                """, in: folder)
            let archive = try ZipArchive(bytes: bytes, name: "assets.xlsx")
            #expect(archive.entries.map(\.name) == ["a.txt"], "comment \(comment)")
            #expect(try archive.contents(of: archive.entries[0]) == Array("alpha".utf8))
        }
    }

    @Test("names: UTF-8 with flag bit 11, code page 437 without it")
    func names() throws {
        var utf8 = TestZipEntry("é.xml", "u")
        utf8.flags = 0x0800
        var codePage = TestZipEntry("x", "c")
        codePage.name = [0x80, 0x61, 0x82, 0xE1]
        let archive = try ZipArchive(bytes: TestZip.build([utf8, codePage]), name: "names.xlsx")
        #expect(archive.entries.map(\.name) == ["é.xml", "Çaéß"])
        #expect(archive.entries[1].nameBytes == [0x80, 0x61, 0x82, 0xE1])
        #expect(archive.entry(named: "Çaéß") == archive.entries[1])
    }

    @Test("a file cut at any length gives an error, never a crash")
    func truncatedEverywhere() throws {
        let folder = TemporaryFolder()
        let script = Self.basicScript.replacingOccurrences(
            of: "z.writestr('xl/empty.xml'", with: "z.comment = b'c' * 300\n    z.writestr('xl/empty.xml'")
        let bytes = try pythonZip(script, in: folder)
        #expect(try ZipArchive(bytes: bytes, name: "assets.xlsx").entries.count == 3)
        for length in 0..<bytes.count {
            let error = zipError { () throws(ZipError) in
                try ZipArchive(bytes: Array(bytes.prefix(length)), name: "cut.xlsx")
            }
            switch length {
            case 0: #expect(error == .notZip(file: "cut.xlsx", kind: .empty))
            case 1: #expect(error == .notZip(file: "cut.xlsx", kind: .text))
            default: #expect(error == .truncated(file: "cut.xlsx"), "cut at \(length)")
            }
        }
        #expect(
            ZipError.truncated(file: "cut.xlsx").description
                == "cut.xlsx: the workbook file is cut off (it ends before its ZIP directory does); it was not read. "
                + "Copy the file again from where it came from, or open it in a spreadsheet and save it again.")
    }

    @Test("any byte changed anywhere gives an error or the right contents, never a crash")
    func changedBytesEverywhere() throws {
        var described = TestZipEntry("xl/d.xml", String(repeating: "<row/>", count: 50))
        described.descriptor = .signed
        var wide = TestZipEntry("xl/w.xml", "wide", method: 0)
        wide.zip64Offset = true
        wide.zip64Uncompressed = true
        let bytes = TestZip.build([described, wide, TestZipEntry("a", "b")], comment: [1, 2], zip64End: true)
        for position in 0..<bytes.count {
            for value: UInt8 in [0x00, 0xFF, bytes[position] ^ 0x01] {
                var changed = bytes
                changed[position] = value
                guard let archive = try? ZipArchive(bytes: changed, name: "x.xlsx") else { continue }
                for entry in archive.entries {
                    _ = archive.storedRecord(of: entry)
                    guard let contents = try? archive.contents(of: entry) else { continue }
                    #expect(contents.count == entry.uncompressedSize)
                }
            }
        }
    }

    @Test("changed compressed data or checksum is refused: corrupt deflate data, CRC-32 mismatch, wrong size")
    func corruptData() throws {
        var stored = TestZipEntry("xl/stored.xml", "stored text", method: 0)
        stored.declaredCRC = 0x1234_5678
        var invalid = TestZipEntry("xl/invalid.xml", "x")
        invalid.data = [0xFF, 0xFF, 0xFF]  // Final block of the reserved type 3.
        var cut = TestZipEntry("xl/cut.xml", String(repeating: "0123456789", count: 100))
        cut.data = Array(deflateRaw(cut.contents).dropLast(3))
        var short = TestZipEntry("xl/short.xml", "twelve bytes")
        short.declaredUncompressed = 20
        var long = TestZipEntry("xl/long.xml", "twelve bytes")
        long.declaredUncompressed = 5
        var storedSize = TestZipEntry("xl/storedsize.xml", "twelve bytes", method: 0)
        storedSize.declaredUncompressed = 11
        let archive = try ZipArchive(
            bytes: TestZip.build([stored, invalid, cut, short, long, storedSize]), name: "assets.xlsx")
        let errors = archive.entries.map { entry in zipError { () throws(ZipError) in try archive.contents(of: entry) }
        }
        #expect(
            errors == [
                .checksumMismatch(file: "assets.xlsx", entry: "xl/stored.xml"),
                .corruptData(file: "assets.xlsx", entry: "xl/invalid.xml"),
                .corruptData(file: "assets.xlsx", entry: "xl/cut.xml"),
                .sizeMismatch(file: "assets.xlsx", entry: "xl/short.xml", declared: 20),
                .sizeMismatch(file: "assets.xlsx", entry: "xl/long.xml", declared: 5),
                .sizeMismatch(file: "assets.xlsx", entry: "xl/storedsize.xml", declared: 11),
            ])
        #expect(
            errors[0]?.description
                == "assets.xlsx: the entry xl/stored.xml is damaged (its CRC-32 checksum does not match its contents); "
                + "it was not read. "
                + "Copy the file again from where it came from, or open it in a spreadsheet and save it again.")
        #expect(
            errors[1]?.description
                == "assets.xlsx: the entry xl/invalid.xml is damaged (its compressed data cannot be inflated); "
                + "it was not read. "
                + "Copy the file again from where it came from, or open it in a spreadsheet and save it again.")
        #expect(
            errors[3]?.description
                == "assets.xlsx: the entry xl/short.xml does not inflate to the 20 bytes its ZIP directory declares "
                + "(a damaged file or a ZIP bomb?); it was not read. "
                + "Copy the file again from where it came from, or open it in a spreadsheet and save it again.")
    }

    @Test("a flipped byte in python-deflated data is refused")
    func flippedByte() throws {
        let folder = TemporaryFolder()
        let bytes = try pythonZip(Self.basicScript, in: folder)
        let entry = try ZipArchive(bytes: bytes, name: "assets.xlsx").entries[1]
        for position in stride(from: entry.dataOffset, to: entry.dataOffset + entry.compressedSize, by: 7) {
            var changed = bytes
            changed[position] ^= 0x10
            let archive = try ZipArchive(bytes: changed, name: "assets.xlsx")
            let error = zipError { () throws(ZipError) in try archive.contents(of: archive.entries[1]) }
            let expected: [ZipError] = [
                .corruptData(file: "assets.xlsx", entry: entry.name),
                .checksumMismatch(file: "assets.xlsx", entry: entry.name),
                .sizeMismatch(file: "assets.xlsx", entry: entry.name, declared: entry.uncompressedSize),
            ]
            #expect(error.map(expected.contains) == true, "byte \(position): \(String(describing: error))")
        }
    }

    @Test("encrypted entries and compression methods other than stored and deflated are refused, naming them")
    func refusedEntries() throws {
        var encrypted = TestZipEntry("xl/secret.xml", "x")
        encrypted.flags = 0x0001
        var strong = TestZipEntry("xl/strong.xml", "x")
        strong.flags = 0x0040
        let lzma = TestZipEntry("xl/lzma.xml", "x", method: 14)
        let bzip2 = TestZipEntry("xl/bzip2.xml", "x", method: 12)
        let aes = TestZipEntry("xl/aes.xml", "x", method: 99)
        let unknown = TestZipEntry("xl/unknown.xml", "x", method: 200)
        let archive = try ZipArchive(
            bytes: TestZip.build([encrypted, strong, lzma, bzip2, aes, unknown]), name: "assets.xlsx")
        #expect(archive.entries.map(\.isEncrypted) == [true, true, false, false, false, false])
        let errors = archive.entries.map { entry in zipError { () throws(ZipError) in try archive.contents(of: entry) }
        }
        #expect(
            errors == [
                .encryptedEntry(file: "assets.xlsx", entry: "xl/secret.xml"),
                .encryptedEntry(file: "assets.xlsx", entry: "xl/strong.xml"),
                .unsupportedMethod(file: "assets.xlsx", entry: "xl/lzma.xml", method: 14),
                .unsupportedMethod(file: "assets.xlsx", entry: "xl/bzip2.xml", method: 12),
                .unsupportedMethod(file: "assets.xlsx", entry: "xl/aes.xml", method: 99),
                .unsupportedMethod(file: "assets.xlsx", entry: "xl/unknown.xml", method: 200),
            ])
        #expect(
            errors.map { $0?.description ?? "" }[0...2] == [
                "assets.xlsx: the entry xl/secret.xml is encrypted; it was not read. "
                    + "Open the workbook in a spreadsheet, remove the password, and save it again.",
                "assets.xlsx: the entry xl/strong.xml is encrypted; it was not read. "
                    + "Open the workbook in a spreadsheet, remove the password, and save it again.",
                "assets.xlsx: the entry xl/lzma.xml is compressed with LZMA (method 14), which cannot be read "
                    + "(only stored and deflated entries can); it was not read. "
                    + "Open the workbook in a spreadsheet and save it again as an Excel workbook (.xlsx).",
            ])
    }

    /// The peak resident set size of this process so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        _ = getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    @Test("a ZIP bomb (400 MB of zeros deflated to 400 KB) is refused without taking its size in memory")
    func zipBomb() throws {
        let folder = TemporaryFolder()
        let bytes = try pythonZip(
            """
            import zipfile
            with zipfile.ZipFile('out.zip', 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('[Content_Types].xml', '<Types/>')
                with z.open('xl/worksheets/sheet1.xml', 'w') as e:
                    block = b'\\0' * (1 << 20)
                    for _ in range(400):
                        e.write(block)
            """, in: folder)
        #expect(bytes.count < 1 << 20)
        let bombSize = 400 << 20
        let before = Self.peakResidentBytes()
        let archive = try ZipArchive(bytes: bytes, name: "assets.xlsx")
        let bomb = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        #expect(bomb.uncompressedSize == bombSize)
        // As declared: the ratio passes 1,000:1, refused before inflating.
        let error = zipError { () throws(ZipError) in try archive.contents(of: bomb) }
        #expect(error == .ratioTooHigh(file: "assets.xlsx", entry: "xl/worksheets/sheet1.xml", limit: 1000))
        #expect(
            error?.description
                == "assets.xlsx: the entry xl/worksheets/sheet1.xml inflates to more than 1000 times its compressed "
                + "size (a ZIP bomb?); it was not read. Check where the file came from and export the workbook again.")
        // With a lower size limit: refused as too large.
        let small = ZipLimits(maximumEntrySize: 100 << 20)
        #expect(
            zipError { () throws(ZipError) in try archive.contents(of: bomb, limits: small) }
                == .entryTooLarge(file: "assets.xlsx", entry: "xl/worksheets/sheet1.xml", limit: 100 << 20))
        // Declaring a harmless size in both headers: inflating stops as soon as it passes the declared size.
        var forged = bytes
        let end = try #require(forged.lastOffset(of: ZipSignature.end))
        let central = Int(forged.get32(at: end + 16))
        let secondCentral = try #require(forged.offset(of: ZipSignature.central, from: central + 4))
        forged.put32(4000, at: secondCentral + 24)
        let forgedArchive = try ZipArchive(bytes: forged, name: "assets.xlsx")
        let forgedBomb = forgedArchive.entries[1]
        #expect(forgedBomb.uncompressedSize == 4000)
        #expect(
            zipError { () throws(ZipError) in try forgedArchive.contents(of: forgedBomb) }
                == .sizeMismatch(file: "assets.xlsx", entry: "xl/worksheets/sheet1.xml", declared: 4000))
        // With the ratio check off, the size limit refuses it.
        let noRatio = ZipLimits(maximumEntrySize: 64 << 20, maximumRatio: Int.max)
        #expect(
            zipError { () throws(ZipError) in try archive.contents(of: bomb, limits: noRatio) }
                == .entryTooLarge(file: "assets.xlsx", entry: "xl/worksheets/sheet1.xml", limit: 64 << 20))
        #expect(
            ZipError.entryTooLarge(file: "assets.xlsx", entry: "xl/worksheets/sheet1.xml", limit: 1 << 30).description
                == "assets.xlsx: the entry xl/worksheets/sheet1.xml inflates to more than 1 GiB (a ZIP bomb?); "
                + "it was not read. Check where the file came from and export the workbook again.")
        let grown = Self.peakResidentBytes() - before
        #expect(grown < bombSize / 2, "peak memory grew by \(grown) bytes")
    }

    @Test("a file that is not a ZIP file is named by what its first bytes show")
    func notZip() throws {
        let compound: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 600)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        let cases: [([UInt8], ZipError.FileKind, String)] = [
            (
                [], .empty,
                "assets.xlsx: the file is empty (0 bytes), so it is not an .xlsx workbook. "
                    + "Copy or export the workbook again."
            ),
            (
                compound, .compoundDocument,
                "assets.xlsx: the file is not an .xlsx workbook but an Office compound document: either a workbook "
                    + "saved with a password or an old Excel 97-2003 .xls workbook. Open it in a spreadsheet, "
                    + "remove the password, and save it as an Excel workbook (.xlsx)."
            ),
            (
                Array("Asset tag;Serial\r\nVT-1;S1\r\n".utf8), .text,
                "assets.xlsx: the file is text (perhaps a CSV or HTML file with a workbook's name), not an .xlsx "
                    + "workbook. Give it its right extension, or open it in a spreadsheet and save it as an Excel "
                    + "workbook (.xlsx)."
            ),
            ([0xFF, 0xFE, 0x41, 0x00, 0x0A, 0x00], .text, ""),
            (
                png, .other,
                "assets.xlsx: the file is not an .xlsx workbook (it is not a ZIP file). "
                    + "Open it in a spreadsheet and save it as an Excel workbook (.xlsx)."
            ),
        ]
        for (bytes, kind, message) in cases {
            let error = zipError { () throws(ZipError) in try ZipArchive(bytes: bytes, name: "assets.xlsx") }
            #expect(error == .notZip(file: "assets.xlsx", kind: kind))
            if !message.isEmpty { #expect(error?.description == message) }
        }
    }

    @Test("a damaged directory or local header is refused, never read out of bounds")
    func damagedStructures() throws {
        let bytes = TestZip.build([TestZipEntry("a.txt", "alpha"), TestZipEntry("b.txt", "beta")])
        let end = try #require(bytes.lastOffset(of: ZipSignature.end))
        let central = Int(bytes.get32(at: end + 16))
        let secondCentral = try #require(bytes.offset(of: ZipSignature.central, from: central + 4))
        func error(_ change: (inout [UInt8]) -> Void) -> ZipError? {
            var changed = bytes
            change(&changed)
            return zipError { () throws(ZipError) in try ZipArchive(bytes: changed, name: "assets.xlsx") }
        }
        let directory = ZipError.damagedDirectory(file: "assets.xlsx")
        #expect(error { $0.put32(UInt32(central + 1), at: end + 16) } == directory)  // Directory offset.
        #expect(error { $0.put32(0xFFFF_FF00, at: end + 16) } == directory)
        #expect(error { $0.put32(0xFFFF_FFF0, at: end + 12) } == directory)  // Directory size.
        #expect(error { $0.put16(3, at: end + 10) } == directory)  // More entries than the directory holds.
        #expect(error { $0[central] = 0x51 } == directory)  // Central signature.
        #expect(error { $0.put16(0xFFFF, at: central + 28) } == directory)  // Name length.
        #expect(error { $0.put16(0xFFFF, at: secondCentral + 32) } == directory)  // Comment length.
        let damagedB = ZipError.damagedEntry(file: "assets.xlsx", entry: "b.txt")
        #expect(error { $0.put32(0xFFFF_FFF0, at: secondCentral + 42) } == damagedB)  // Local offset.
        #expect(error { $0.put32(1, at: secondCentral + 42) } == damagedB)  // Not a local header there.
        #expect(error { $0.put32(0, at: secondCentral + 42) } == damagedB)  // Overlaps a.txt.
        #expect(error { $0.put32(0x7FFF_FFFF, at: secondCentral + 20) } == damagedB)  // Compressed size.
        #expect(error { $0.put16(0xFFFF, at: Int($0.get32(at: secondCentral + 42)) + 28) } == damagedB)
        #expect(
            damagedB.description
                == "assets.xlsx: the entry b.txt is damaged (its header does not match the ZIP directory); "
                + "it was not read. "
                + "Copy the file again from where it came from, or open it in a spreadsheet and save it again.")
        #expect(
            directory.description
                == "assets.xlsx: the workbook's ZIP directory is damaged; it was not read. "
                + "Copy the file again from where it came from, or open it in a spreadsheet and save it again.")

        var twoWide = TestZipEntry("w.txt", "wide")
        twoWide.zip64Uncompressed = true
        twoWide.zip64Compressed = true
        var shortExtra = TestZip.build([twoWide])
        let wideCentral = try #require(shortExtra.offset(of: ZipSignature.central))
        #expect(try ZipArchive(bytes: shortExtra, name: "assets.xlsx").entries[0].compressedSize > 0)
        shortExtra.put16(8, at: wideCentral + 46 + 5 + 2)  // The ZIP64 field holds one value of the two needed.
        #expect(
            zipError { () throws(ZipError) in try ZipArchive(bytes: shortExtra, name: "assets.xlsx") } == directory)

        let wide = TestZip.build([TestZipEntry("a.txt", "alpha")], zip64End: true)
        let locator = try #require(wide.lastOffset(of: [0x50, 0x4B, 0x06, 0x07]))
        var changed = wide
        changed.put32(UInt32(locator), at: locator + 8)  // The ZIP64 end record is not where the locator says.
        #expect(zipError { () throws(ZipError) in try ZipArchive(bytes: changed, name: "assets.xlsx") } == directory)
        changed = wide
        changed[locator + 15] = 0x80  // An offset past Int.max.
        #expect(zipError { () throws(ZipError) in try ZipArchive(bytes: changed, name: "assets.xlsx") } == directory)
    }

    @Test("reading from a path: the file's bytes and name; a missing file, a folder, no permission are unreadable")
    func paths() throws {
        let folder = TemporaryFolder()
        let path = folder.write(try pythonZip(Self.basicScript, in: folder), to: "in/assets.xlsx")
        let archive = try ZipArchive(path: path)
        #expect(archive.name == "assets.xlsx")
        #expect(archive.entries.count == 3)
        #expect(try ZipArchive(path: path, name: "Jobs/acme/assets.xlsx").name == "Jobs/acme/assets.xlsx")
        let missing = zipError { () throws(ZipError) in try ZipArchive(path: folder.path("none.xlsx")) }
        #expect(missing == .unreadable(file: "none.xlsx", errno: ENOENT))
        #expect(
            missing?.description
                == "none.xlsx: the file cannot be read (No such file or directory). "
                + "Check that the path is right and the file is readable.")
        let directory = zipError { () throws(ZipError) in try ZipArchive(path: folder.path("in"), name: "in") }
        #expect(directory == .unreadable(file: "in", errno: EISDIR))
        #expect(
            directory?.description
                == "in: the file cannot be read (Is a directory). Check that the path is right and the file is readable."
        )
        if getuid() != 0 {
            chmod(path, 0)
            defer { chmod(path, 0o644) }
            #expect(
                zipError { () throws(ZipError) in try ZipArchive(path: path) }
                    == .unreadable(file: "assets.xlsx", errno: EACCES))
        }
        let empty = folder.write([UInt8](), to: "empty.xlsx")
        #expect(
            zipError { () throws(ZipError) in try ZipArchive(path: empty) }
                == .notZip(file: "empty.xlsx", kind: .empty))
    }

    @Test("every calamine test workbook opens and its entries read; pass_protected.xlsx is a compound document")
    func calamineWorkbooks() throws {
        let folder = "/work/shared/testdata/xlsx-calamine"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let workbooks = names.filter { $0.hasSuffix(".xlsx") }.sorted()
        #expect(workbooks.count > 20)
        for name in workbooks {
            let path = folder + "/" + name
            if name == "pass_protected.xlsx" {
                #expect(
                    zipError { () throws(ZipError) in try ZipArchive(path: path) }
                        == .notZip(file: name, kind: .compoundDocument))
                continue
            }
            let archive = try ZipArchive(path: path)
            #expect(archive.entry(named: "[Content_Types].xml") != nil, "\(name)")
            for entry in archive.entries where !entry.isDirectory {
                #expect(try archive.contents(of: entry).count == entry.uncompressedSize, "\(name) \(entry.name)")
            }
        }
    }
}
