/// A finished `ByteBuffer` handed from the thread that wrote it to the thread that writes it out: a block of a
/// table's rows, formatted by one worker and written to the file by whichever worker's turn it is (`TableFile`).
///
/// A `ByteBuffer` cannot be copied, so it cannot wait in a `ResultSlots` or an array; a box can, and the block is
/// written to the file from the memory it was formatted in instead of being copied into an array to wait there.
/// The buffer is never changed once boxed, so the box may be read from any thread once it has been handed over (a
/// `ResultSlots` hands it over under its lock).
final class ByteBufferBox: @unchecked Sendable {
    /// The bytes, finished.
    let buffer: ByteBuffer

    init(_ buffer: consuming ByteBuffer) {
        self.buffer = buffer
    }
}
