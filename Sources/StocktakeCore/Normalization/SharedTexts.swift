import Foundation

/// The free texts of the whole process, each stored once and named by an `Int32` id, so that a row holds its texts
/// in 4 bytes each instead of 16.
///
/// Texts are only ever added, so an id stays valid for the life of the process, and its `String` is read without a
/// lock: the strings live in fixed segments that never move. Adding takes a lock; readers of a file keep their own
/// `TextPool` in front of it, so the lock is taken once per distinct text of a file, not once per cell.
final class SharedTexts: @unchecked Sendable {
    /// The one table of the process.
    static let shared = SharedTexts()

    private static let segmentBits = 14
    private static let segmentSize = 1 << segmentBits
    private static let segmentCount = 1 << 17

    private let lock = NSLock()
    private var index = TextPool()
    /// Segments of `segmentSize` strings; `segments[id >> segmentBits]` holds the text with id `id`.
    private let segments: UnsafeMutablePointer<UnsafeMutablePointer<String>?>

    private init() {
        segments = .allocate(capacity: Self.segmentCount)
        segments.initialize(repeating: nil, count: Self.segmentCount)
    }

    /// The id of the text whose UTF-8 bytes are `text`, adding it (as `String(decoding:as:)` makes it) when new.
    func id(of text: UnsafeBufferPointer<UInt8>) -> Int32 {
        lock.withLock {
            let (id, isNew) = index.intern(text)
            if isNew {
                let segment = Int(id) >> Self.segmentBits
                precondition(segment < Self.segmentCount, "more than 2^31 distinct texts")
                if segments[segment] == nil { segments[segment] = .allocate(capacity: Self.segmentSize) }
                (segments[segment]! + Int(id) & (Self.segmentSize - 1)).initialize(
                    to: String(decoding: text, as: UTF8.self))
            }
            return id
        }
    }

    /// The id of `text`.
    func id(of text: String) -> Int32 {
        var text = text
        return text.withUTF8 { id(of: $0) }
    }

    /// The text with id `id`, which this table gave out.
    func string(_ id: Int32) -> String {
        segments[Int(id) >> Self.segmentBits].unsafelyUnwrapped[Int(id) & (Self.segmentSize - 1)]
    }
}
