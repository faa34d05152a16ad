import CZlib

/// Inflates the raw deflate data of one ZIP entry with zlib, refusing it as soon as it passes a limit.
///
/// The output grows chunk by chunk as zlib produces it; a size declared in a header only reserves memory up to a
/// small cap, so a ZIP bomb never gets memory for the size it declares or the size it would reach.
enum ZipInflater {
    /// Why inflating stopped.
    enum Failure: Error, Equatable {
        /// The data is not valid deflate data, or it ends before the deflate stream does.
        case corrupt
        /// The output passed `ZipLimits.maximumEntrySize`.
        case tooLarge
        /// The output passed `ZipLimits.maximumRatio` bytes per compressed byte read so far.
        case ratioTooHigh
        /// The output passed `expectedSize`.
        case longerThanExpected
    }

    /// The bytes zlib fills at a time.
    static let chunkSize = 64 << 10
    /// The most memory reserved up front for the declared size; beyond it the output grows as it is produced.
    static let reservationCap = 16 << 20

    /// Inflates `compressed` (raw deflate data), which should give `expectedSize` bytes; stops with a failure as soon
    /// as the output passes `expectedSize` or `limits`. Bytes after the end of the deflate stream are ignored.
    static func inflate(
        _ compressed: ArraySlice<UInt8>, expectedSize: Int, limits: ZipLimits
    ) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard stocktake_inflate_init_raw(&stream) == Z_OK else { throw .corrupt }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(max(0, min(expectedSize, reservationCap, limits.maximumEntrySize)))
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        let failure: Failure? = compressed.withUnsafeBufferPointer { input in
            var fed = 0
            while true {
                if stream.avail_in == 0 && fed < input.count, let base = input.baseAddress {
                    let count = min(input.count - fed, Int(UInt32.max))
                    stream.next_in = UnsafeMutablePointer(mutating: base + fed)
                    stream.avail_in = UInt32(count)
                    fed += count
                }
                stream.next_out = chunk
                stream.avail_out = UInt32(chunkSize)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                let produced = chunkSize - Int(stream.avail_out)
                switch status {
                case Z_OK, Z_STREAM_END:
                    break
                case Z_BUF_ERROR where produced > 0:
                    break
                default:
                    return .corrupt  // Z_BUF_ERROR without progress: the input ended before the stream did.
                }
                let total = output.count + produced
                if total > expectedSize { return .longerThanExpected }
                if total > limits.maximumEntrySize { return .tooLarge }
                let consumed = fed - Int(stream.avail_in)
                if limits.exceedsRatio(size: total, compressed: consumed) { return .ratioTooHigh }
                output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: produced))
                if status == Z_STREAM_END { return nil }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// The CRC-32 of `bytes`, as ZIP stores it.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        ZipChecksum.crc32(bytes)
    }
}
