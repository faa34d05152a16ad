import CZlib
import Foundation
import Testing

@testable import StocktakeCore

/// Runs `script` with python3 (its `zipfile` module builds the test archives) in `folder` and returns the bytes of
/// the file `output` it wrote there.
func pythonZip(_ script: String, output: String = "out.zip", in folder: TemporaryFolder) throws -> [UInt8] {
    let scriptPath = folder.write(script, to: "make.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [scriptPath]
    process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "python3 failed on \(script)")
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path(output))))
}

/// The `ZipError` that `body` throws, or `nil` when it throws none.
func zipError<T>(_ body: () throws(ZipError) -> T) -> ZipError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Little-endian byte helpers for patching and building archives in tests.
extension Array where Element == UInt8 {
    /// Writes `value` as 2 little-endian bytes at `offset`.
    mutating func put16(_ value: UInt16, at offset: Int) {
        self[offset] = UInt8(value & 0xFF)
        self[offset + 1] = UInt8(value >> 8)
    }

    /// Writes `value` as 4 little-endian bytes at `offset`.
    mutating func put32(_ value: UInt32, at offset: Int) {
        put16(UInt16(value & 0xFFFF), at: offset)
        put16(UInt16(value >> 16), at: offset + 2)
    }

    /// Reads 2 little-endian bytes at `offset`.
    func get16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// Reads 4 little-endian bytes at `offset`.
    func get32(at offset: Int) -> UInt32 {
        UInt32(get16(at: offset)) | UInt32(get16(at: offset + 2)) << 16
    }

    /// The offset of the first occurrence of `pattern`, or `nil`.
    func offset(of pattern: [UInt8], from start: Int = 0) -> Int? {
        guard count >= pattern.count, start <= count - pattern.count else { return nil }
        return (start...(count - pattern.count)).first { self[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    /// The offset of the last occurrence of `pattern`, or `nil`.
    func lastOffset(of pattern: [UInt8]) -> Int? {
        guard count >= pattern.count else { return nil }
        return (0...(count - pattern.count)).reversed().first {
            self[$0..<($0 + pattern.count)].elementsEqual(pattern)
        }
    }
}

/// The signatures of ZIP records, for finding them in test archives.
enum ZipSignature {
    static let local: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    static let central: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
    static let end: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
}

/// Raw deflate data of `bytes`, made with zlib in one call.
func deflateRaw(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    #expect(stocktake_deflate_init_raw(&stream, 6) == Z_OK)
    defer { deflateEnd(&stream) }
    var input = bytes
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 16)
    let produced = input.withUnsafeMutableBufferPointer { inputBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            stream.next_out = outputBuffer.baseAddress
            stream.avail_out = UInt32(outputBuffer.count)
            #expect(deflate(&stream, Z_FINISH) == Z_STREAM_END)
            return outputBuffer.count - Int(stream.avail_out)
        }
    }
    return Array(output.prefix(produced))
}

/// One entry of an archive built byte by byte by `TestZip`, with every field a test may want to get wrong.
struct TestZipEntry {
    /// How the data descriptor (flag bit 3) is written after the data.
    enum Descriptor {
        case none
        case signed
        case unsigned
    }

    var name: [UInt8]
    var contents: [UInt8]
    var method: UInt16 = 8
    var flags: UInt16 = 0
    var descriptor = Descriptor.none
    /// The local header's own extra field (the central one has none unless `zip64` asks for it).
    var localExtra: [UInt8] = []
    /// Which central fields are written as 0xFFFFFFFF with their values in a ZIP64 extra field (0x0001).
    var zip64Uncompressed = false
    var zip64Compressed = false
    var zip64Offset = false
    /// The stored data, when it is not the contents deflated (method 8) or as they are (any other method).
    var data: [UInt8]?
    /// The declared sizes and CRC, when they are not the true ones.
    var declaredUncompressed: UInt32?
    var declaredCRC: UInt32?

    init(_ name: String, _ contents: String, method: UInt16 = 8) {
        self.name = Array(name.utf8)
        self.contents = Array(contents.utf8)
        self.method = method
    }
}

/// Builds ZIP files byte by byte, so that tests can write the structures python's zipfile never writes (ZIP64 end
/// records on a small file, descriptors without signature, differing local extra fields, forged fields).
enum TestZip {
    static func build(_ entries: [TestZipEntry], comment: [UInt8] = [], zip64End: Bool = false) -> [UInt8] {
        var file: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let data = entry.data ?? (entry.method == 8 ? deflateRaw(entry.contents) : entry.contents)
            let crc = entry.declaredCRC ?? ZipInflater.checksum(entry.contents)
            let uncompressed = entry.declaredUncompressed ?? UInt32(entry.contents.count)
            let offset = UInt32(file.count)
            let flags = entry.flags | (entry.descriptor == .none ? 0 : 0x0008)
            let inHeader = entry.descriptor == .none
            file += le32(0x0403_4b50) + le16(20) + le16(flags) + le16(entry.method) + le16(0x6000) + le16(0x5A21)
            file += le32(inHeader ? crc : 0) + le32(inHeader ? UInt32(data.count) : 0)
            file +=
                le32(inHeader ? uncompressed : 0) + le16(UInt16(entry.name.count))
                + le16(UInt16(entry.localExtra.count))
            file += entry.name + entry.localExtra + data
            if entry.descriptor == .signed { file += le32(0x0807_4b50) }
            if entry.descriptor != .none && entry.localExtra.starts(with: [0x01, 0x00]) {
                file += le32(crc) + le64(UInt64(data.count)) + le64(UInt64(uncompressed))  // ZIP64: 8-byte sizes.
            } else if entry.descriptor != .none {
                file += le32(crc) + le32(UInt32(data.count)) + le32(uncompressed)
            }
            var zip64: [UInt8] = []
            if entry.zip64Uncompressed { zip64 += le64(UInt64(uncompressed)) }
            if entry.zip64Compressed { zip64 += le64(UInt64(data.count)) }
            if entry.zip64Offset { zip64 += le64(UInt64(offset)) }
            let extra = zip64.isEmpty ? [] : le16(0x0001) + le16(UInt16(zip64.count)) + zip64
            central += le32(0x0201_4b50) + le16(0x031E) + le16(20) + le16(flags) + le16(entry.method)
            central += le16(0x6000) + le16(0x5A21) + le32(crc)
            central += le32(entry.zip64Compressed ? 0xFFFF_FFFF : UInt32(data.count))
            central += le32(entry.zip64Uncompressed ? 0xFFFF_FFFF : uncompressed)
            central += le16(UInt16(entry.name.count)) + le16(UInt16(extra.count)) + le16(0) + le16(0) + le16(0)
            central += le32(0o100644 << 16) + le32(entry.zip64Offset ? 0xFFFF_FFFF : offset) + entry.name + extra
        }
        let centralOffset = file.count
        file += central
        if zip64End {
            let recordOffset = file.count
            file += le32(0x0606_4b50) + le64(44) + le16(0x031E) + le16(45) + le32(0) + le32(0)
            file += le64(UInt64(entries.count)) + le64(UInt64(entries.count)) + le64(UInt64(central.count))
            file += le64(UInt64(centralOffset))
            file += le32(0x0706_4b50) + le32(0) + le64(UInt64(recordOffset)) + le32(1)
            file += le32(0x0605_4b50) + le16(0xFFFF) + le16(0xFFFF) + le16(0xFFFF) + le16(0xFFFF)
            file += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF)
        } else {
            file += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
            file += le32(UInt32(central.count)) + le32(UInt32(centralOffset))
        }
        return file + le16(UInt16(comment.count)) + comment
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
    static func le64(_ value: UInt64) -> [UInt8] {
        le32(UInt32(value & 0xFFFF_FFFF)) + le32(UInt32(value >> 32))
    }
}
