/// Checks bytes for well-formed UTF-8 as the Unicode standard defines it (table 3-7).
///
/// Overlong forms (such as `C0 80`), encoded surrogates (`ED A0 80`), code points above U+10FFFF, stray
/// continuation bytes and sequences cut short are all rejected.
enum UTF8Validator {
    /// Checks text that arrives in consecutive pieces (chunks of a file): a sequence cut by the end of one piece is
    /// checked again with the start of the next.
    struct Stream {
        /// The last bytes of the previous piece: the start of a sequence it cut short.
        private var carried: [UInt8] = []
        /// Whether an ill-formed sequence was found.
        private(set) var foundInvalid = false

        /// Checks the next piece of the text.
        mutating func take(_ piece: UnsafeBufferPointer<UInt8>) {
            guard !foundInvalid, !piece.isEmpty else { return }
            if carried.isEmpty {
                check(piece)
            } else {
                let joined = carried + piece
                carried = []
                joined.withUnsafeBufferPointer { check($0) }
            }
        }

        /// Whether the whole text was well-formed; call once after the last piece.
        var isValid: Bool { !foundInvalid && carried.isEmpty }

        private mutating func check(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let offset = UTF8Validator.firstInvalidOffset(in: bytes) else { return }
            // A sequence starting in the last three bytes may be completed by the next piece.
            if bytes.count - offset < 4 {
                carried = Array(bytes[offset...])
            } else {
                foundInvalid = true
            }
        }
    }

    /// The offset of the first byte of the first ill-formed sequence in `bytes`, or `nil` when all is valid.
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        let raw = UnsafeRawPointer(bytes.baseAddress)
        while index < count {
            // ASCII, nearly all of a sheet, is skipped 32 bytes at a time, then eight.
            if let raw {
                while index + 32 <= count
                    && (raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)) & 0x8080_8080_8080_8080 == 0
                {
                    index += 32
                }
                while index + 8 <= count
                    && raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                if index >= count { break }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lowest: UInt8 = 0x80
            var highest: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF:
                length = 2
            case 0xE0:
                length = 3
                lowest = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF:
                length = 3
            case 0xED:
                length = 3
                highest = 0x9F
            case 0xF0:
                length = 4
                lowest = 0x90
            case 0xF1...0xF3:
                length = 4
            case 0xF4:
                length = 4
                highest = 0x8F
            default:
                return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= lowest && second <= highest else { return index }
            var position = index + 2
            while position < index + length {
                guard bytes[position] & 0xC0 == 0x80 else { return index }
                position += 1
            }
            index += length
        }
        return nil
    }
}
