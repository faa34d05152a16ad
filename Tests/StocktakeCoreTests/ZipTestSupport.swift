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
