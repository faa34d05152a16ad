import Foundation

/// The free texts of the whole process, each stored once and named by an `Int32` id, so that a row holds its texts
/// in 4 bytes each instead of 16.
///
/// Texts are only ever added, so an id stays valid for the life of the process, and its `String` is read without a
/// lock: the strings live in fixed segments that never move. Adding takes a lock, of one of 64 shards chosen by the
/// text's hash, so that files read on several cores seldom wait for each other. Readers of a file keep their own
/// `TextPool` in front of it for free text, so a text repeated in a file takes a lock once, not once per cell; serial
/// numbers, nearly all distinct, come straight here (a million-asset account asks once per serial cell).
final class SharedTexts: @unchecked Sendable {
    /// The one table of the process.
    static let shared = SharedTexts()

    /// An id is `index << shardBits | shard`.
    private static let shardBits = 6
    private static let segmentBits = 14
    private static let segmentSize = 1 << segmentBits
    /// Segments per shard: 2^31 ids in all.
    private static let segmentCount = 1 << (31 - shardBits - segmentBits)

    private final class Shard: @unchecked Sendable {
        let lock = NSLock()
        var index = TextPool()
        /// Segments of `segmentSize` strings; `segments[i >> segmentBits]` holds the text of index `i`.
        let segments: UnsafeMutablePointer<UnsafeMutablePointer<String>?>

        init() {
            segments = .allocate(capacity: SharedTexts.segmentCount)
            segments.initialize(repeating: nil, count: SharedTexts.segmentCount)
        }
    }

    private let shards: [Shard]

    private init() {
        shards = (0..<(1 << Self.shardBits)).map { _ in Shard() }
    }

    /// The id of the text whose UTF-8 bytes are `text`, adding it (as `String(decoding:as:)` makes it) when new.
    func id(of text: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = TextPool.hash(text)
        let number = Int(truncatingIfNeeded: hash >> UInt64(64 - Self.shardBits))
        let shard = shards[number]
        let index = shard.lock.withLock {
            let (index, isNew) = shard.index.intern(text, hash: hash)
            if isNew {
                let segment = Int(index) >> Self.segmentBits
                precondition(segment < Self.segmentCount, "more than 2^31 distinct texts")
                if shard.segments[segment] == nil { shard.segments[segment] = .allocate(capacity: Self.segmentSize) }
                (shard.segments[segment]! + Int(index) & (Self.segmentSize - 1)).initialize(
                    to: String(decoding: text, as: UTF8.self))
            }
            return index
        }
        return index << Int32(Self.shardBits) | Int32(number)
    }

    /// The id of `text`.
    func id(of text: String) -> Int32 {
        var text = text
        return text.withUTF8 { id(of: $0) }
    }

    /// The text with id `id`, which this table gave out.
    func string(_ id: Int32) -> String {
        let shard = shards[Int(id) & ((1 << Self.shardBits) - 1)]
        let index = Int(id) >> Self.shardBits
        return shard.segments[index >> Self.segmentBits].unsafelyUnwrapped[index & (Self.segmentSize - 1)]
    }
}
