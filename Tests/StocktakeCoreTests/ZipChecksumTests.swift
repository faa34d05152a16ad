import CZlib
import Testing

@testable import StocktakeCore

@Suite("ZipChecksum")
struct ZipChecksumTests {
    /// zlib's CRC-32, byte-table by byte-table, for comparison.
    static func zlibCRC(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: CZlib.crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count)))
        }
    }

    @Test("the check value of CRC-32: 123456789 gives CBF43926")
    func checkValue() {
        #expect(ZipChecksum.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(ZipChecksum.crc32([]) == 0)
    }

    @Test("equals zlib's for every length up to 600, at every alignment in a word, from any running value")
    func equalsZlib() {
        let noise = ZipInflaterTests.noise(4_096)
        for length in 0...600 {
            for start in [0, 1, 3, 8, 13] {
                let bytes = noise[start..<(start + length)]
                let running: UInt32 = length % 3 == 0 ? 0 : 0x1234_5678 &* UInt32(length)
                let ours = Array(bytes).withUnsafeBytes { ZipChecksum.crc32($0, continuing: running) }
                #expect(ours == Self.zlibCRC(bytes, continuing: running), "length \(length) at \(start)")
            }
        }
    }

    @Test("equals zlib's on a megabyte of noise and of repeated text, whole and in pieces continued")
    func largeAndContinued() {
        for bytes in [ZipInflaterTests.noise(1_000_003), ZipWriterTests.sheetLike(20_000)] {
            let whole = ZipChecksum.crc32(bytes)
            #expect(whole == Self.zlibCRC(bytes[...]))
            let cut = bytes.count / 3 + 5
            let first = Array(bytes[..<cut]).withUnsafeBytes { ZipChecksum.crc32($0) }
            let second = Array(bytes[cut...]).withUnsafeBytes { ZipChecksum.crc32($0, continuing: first) }
            #expect(second == whole)
            let separate = Array(bytes[cut...]).withUnsafeBytes { ZipChecksum.crc32($0) }
            #expect(ZipChecksum.combine(first, separate, secondCount: bytes.count - cut) == whole)
        }
    }

    #if arch(x86_64)
        @Test("the folded path alone equals zlib's for lengths of 64 bytes and more in steps of 16")
        func foldedPath() {
            let noise = ZipInflaterTests.noise(8_192)
            for length in stride(from: 64, through: 4_096, by: 16) {
                let bytes = noise[7..<(7 + length)]
                let folded = Array(bytes).withUnsafeBufferPointer {
                    stocktake_crc32_folded(0xDEAD_BEEF, $0.baseAddress, UInt($0.count))
                }
                #expect(folded == Self.zlibCRC(bytes, continuing: 0xDEAD_BEEF), "length \(length)")
            }
        }
    #endif
}
