/// The short id of a finding, the same every night the finding stands: `F7K2-Q9MD`.
///
/// It is the first 40 bits of a hash of the finding's code and key (`FindingKey`), written as eight characters of
/// Crockford's base 32, which leaves out I, L, O and U so that an id read over the phone is not misheard. Row
/// numbers, file order and message text play no part, so shuffling a file or adding an unrelated row leaves every
/// id as it was.
public struct FindingID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 40-bit value.
    public let value: UInt64

    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The id of the finding with `code` and `key`.
    public init(code: DiscrepancyCode, key: String) {
        value = Self.hash(code.rawValue + "|" + key) >> 24
    }

    /// The id written as `description` says, in any case, with or without its dash; `I` and `L` read as `1` and `O`
    /// as `0`, as Crockford's base 32 allows. `nil` for anything else.
    public init?(_ text: String) {
        var value: UInt64 = 0
        var count = 0
        for byte in text.utf8 where byte != UInt8(ascii: "-") {
            guard let digit = Self.digit(byte) else { return nil }
            value = value << 5 | UInt64(digit)
            count += 1
            if count > 8 { return nil }
        }
        guard count == 8 else { return nil }
        self.value = value
    }

    /// `F7K2-Q9MD`: eight base-32 characters, a dash after the fourth.
    public var description: String {
        var characters: [UInt8] = []
        append(to: &characters)
        return String(decoding: characters, as: UTF8.self)
    }

    /// Appends the bytes of `description`, for a table written as bytes (`DiscrepancyTable`).
    func append<Output: ByteSink & ~Copyable>(to output: inout Output) {
        output.append(atMost: 9) { pointer in
            var count = 0
            for index in 0..<8 {
                if index == 4 {
                    pointer[count] = UInt8(ascii: "-")
                    count += 1
                }
                let shift = UInt64(35 - 5 * index)
                pointer[count] = Self.alphabet[Int((value >> shift) & 31)]
                count += 1
            }
            return count
        }
    }

    public static func < (lhs: FindingID, rhs: FindingID) -> Bool { lhs.value < rhs.value }

    /// How many characters of the two ids differ: a measure of how close a mistyped id is.
    public func distance(to other: FindingID) -> Int {
        var count = 0
        for index in 0..<8 {
            let shift = UInt64(5 * index)
            if (value >> shift) & 31 != (other.value >> shift) & 31 { count += 1 }
        }
        return count
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        var upper = byte
        if upper >= UInt8(ascii: "a") && upper <= UInt8(ascii: "z") { upper -= 32 }
        switch upper {
        case UInt8(ascii: "I"), UInt8(ascii: "L"): return 1
        case UInt8(ascii: "O"): return 0
        default: return alphabet.firstIndex(of: upper).map { UInt8($0) }
        }
    }

    /// FNV-1a over the UTF-8 bytes, then the MurmurHash3 finalizer so that every output bit depends on every input
    /// bit. Written out here, never taken from `Hasher`, whose seed changes from process to process.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}
