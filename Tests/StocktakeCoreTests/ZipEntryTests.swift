import Testing

@testable import StocktakeCore

@Suite("ZipEntry")
struct ZipEntryTests {
    @Test("flags: bit 0 or 6 encrypted, bit 3 data descriptor; a name ending in / is a folder")
    func flags() throws {
        var encrypted = TestZipEntry("a", "x")
        encrypted.flags = 0x0001
        var strong = TestZipEntry("b", "x")
        strong.flags = 0x0040
        var described = TestZipEntry("c", "x")
        described.descriptor = .unsigned
        let folder = TestZipEntry("xl/", "", method: 0)
        let archive = try ZipArchive(bytes: TestZip.build([encrypted, strong, described, folder]), name: "f.xlsx")
        #expect(archive.entries.map(\.isEncrypted) == [true, true, false, false])
        #expect(archive.entries.map(\.hasDataDescriptor) == [false, false, true, false])
        #expect(archive.entries.map(\.isDirectory) == [false, false, false, true])
        #expect(archive.entries[0].modificationTime == 0x6000)
        #expect(archive.entries[0].modificationDate == 0x5A21)
        #expect(archive.entries[0].externalAttributes == 0o100644 << 16)
    }
}
