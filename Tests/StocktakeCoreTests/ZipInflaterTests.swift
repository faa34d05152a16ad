import Foundation
import Testing

@testable import StocktakeCore

@Suite("ZipInflater")
struct ZipInflaterTests {
    /// Bytes that barely compress, from a fixed linear congruential sequence.
    static func noise(_ count: Int) -> [UInt8] {
        var state: UInt32 = 12345
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    @Test("inflates what zlib deflated, across chunk boundaries, with the exact expected size")
    func roundTrip() throws {
        let texts: [[UInt8]] = [
            [], [0x41], Array(String(repeating: "<c r=\"A1\"><v>1</v></c>", count: 20_000).utf8), Self.noise(300_000),
        ]
        for text in texts {
            let inflated = try ZipInflater.inflate(deflateRaw(text)[...], expectedSize: text.count, limits: .standard)
            #expect(inflated == text)
        }
    }

    @Test("bytes after the end of the deflate stream are ignored")
    func trailingBytes() throws {
        let data = deflateRaw(Array("abc".utf8)) + [1, 2, 3]
        #expect(try ZipInflater.inflate(data[...], expectedSize: 3, limits: .standard) == Array("abc".utf8))
    }

    @Test("malformed, cut or empty deflate data is corrupt; output past the expected size stops inflating")
    func failures() throws {
        let data = deflateRaw(Array(String(repeating: "0123456789", count: 1000).utf8))
        func failure(_ input: [UInt8], expected: Int = 10_000) -> ZipInflater.Failure? {
            do {
                _ = try ZipInflater.inflate(input[...], expectedSize: expected, limits: .standard)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure([0xFF, 0xFF]) == .corrupt)
        #expect(failure([]) == .corrupt)
        for cut in [1, data.count / 2, data.count - 1] {
            #expect(failure(Array(data.prefix(cut))) == .corrupt, "cut at \(cut)")
        }
        #expect(failure(data, expected: 9_999) == .longerThanExpected)
        #expect(failure(data) == nil)
    }

    @Test("the CRC-32 is zlib's: 123456789 gives CBF43926")
    func checksum() {
        #expect(ZipInflater.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(ZipInflater.checksum([]) == 0)
    }

    @Test("a bomb whose size is not known stops at the ratio or size limit without taking its size in memory")
    func bombWhileInflating() throws {
        let folder = TemporaryFolder()
        // 400 MB of zeros as raw deflate data, made by python in chunks (about 400 KB).
        folder.write(
            """
            import zlib
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            block = b'\\0' * (1 << 20)
            with open('bomb.deflate', 'wb') as f:
                for _ in range(400):
                    f.write(c.compress(block))
                f.write(c.flush())
            """, to: "make.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [folder.path("make.py")]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        try process.run()
        process.waitUntilExit()
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("bomb.deflate"))))
        #expect(data.count < 1 << 20)
        let before = ZipArchiveTests.peakResidentBytes()
        do {
            _ = try ZipInflater.inflate(data[...], expectedSize: Int.max, limits: .standard)
            Issue.record("the bomb inflated")
        } catch {
            #expect(error == .ratioTooHigh)
        }
        let afterRatio = ZipArchiveTests.peakResidentBytes() - before
        #expect(afterRatio < 32 << 20, "peak memory grew by \(afterRatio) bytes")
        let sizeOnly = ZipLimits(maximumEntrySize: 64 << 20, maximumRatio: Int.max)
        do {
            _ = try ZipInflater.inflate(data[...], expectedSize: Int.max, limits: sizeOnly)
            Issue.record("the bomb inflated")
        } catch {
            #expect(error == .tooLarge)
        }
        let afterSize = ZipArchiveTests.peakResidentBytes() - before
        #expect(afterSize < 200 << 20, "peak memory grew by \(afterSize) bytes")
    }
}
