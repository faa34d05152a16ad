import CZlib

/// Raw deflate (no zlib or gzip header), as ZIP entries hold it, through zlib.
///
/// A deflater compresses one stream fed in pieces. Independent blocks of one entry can be compressed on several
/// cores: each block ends with a sync flush (a byte-aligned, non-final end), so blocks laid end to end and closed by
/// `finalBlock` form one valid deflate stream.
final class ZipDeflater {
    /// The compression level: 1 is several times faster than zlib's default 6 on sheet XML, for a file a few
    /// percent larger.
    static let standardLevel: Int32 = 1

    /// The end of a deflate stream on its own: an empty final block with fixed codes, `03 00`.
    static let finalBlock: [UInt8] = [0x03, 0x00]

    private var stream = z_stream()
    private static let scratchSize = 1 << 18
    private let scratch = UnsafeMutablePointer<Bytef>.allocate(capacity: ZipDeflater.scratchSize)

    /// Prepares a raw deflate stream at `level` (0 stores, 1 is fastest, 9 smallest).
    init(level: Int32 = ZipDeflater.standardLevel) {
        let status = stocktake_deflate_init_raw(&stream, level)
        // deflateInit2 fails only for bad parameters (fixed here) or when memory runs out, which stops any run.
        precondition(status == Z_OK, "zlib could not start a deflate stream (status \(status))")
    }

    deinit {
        deflateEnd(&stream)
        scratch.deallocate()
    }

    /// Compresses `input` and appends the output to `output`. `flush` is `Z_NO_FLUSH` for a piece in the middle,
    /// `Z_SYNC_FLUSH` to end a block on a byte boundary, `Z_FINISH` to end the stream.
    func deflate(_ input: UnsafeRawBufferPointer, flush: Int32, into output: inout [UInt8]) {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        var remaining = input.count
        // zlib counts input in 32-bit units: a larger piece is fed in slices.
        let slice = 1 << 30
        repeat {
            let count = min(remaining, slice)
            remaining -= count
            stream.avail_in = uInt(count)
            run(flush: remaining > 0 ? Z_NO_FLUSH : flush, into: &output)
        } while remaining > 0
    }

    /// Compresses `input` and appends the output to `output` (see `deflate(_:flush:into:)`).
    func deflate(_ input: [UInt8], flush: Int32, into output: inout [UInt8]) {
        input.withUnsafeBytes { deflate($0, flush: flush, into: &output) }
    }

    /// Starts a new stream, forgetting everything fed so far (its output no longer refers back to it).
    func reset() {
        deflateReset(&stream)
    }

    /// Feeds the pending input with `flush` until zlib wants more input (or, for `Z_FINISH`, the stream ends),
    /// through a scratch buffer of the deflater's own.
    private func run(flush: Int32, into output: inout [UInt8]) {
        while true {
            stream.next_out = scratch
            stream.avail_out = uInt(Self.scratchSize)
            let status = CZlib.deflate(&stream, flush)
            let produced = Self.scratchSize - Int(stream.avail_out)
            output.append(contentsOf: UnsafeBufferPointer(start: scratch, count: produced))
            // Z_BUF_ERROR means no progress was possible: nothing was left to compress or flush.
            precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate failed: \(status)")
            if status == Z_STREAM_END || status == Z_BUF_ERROR { return }
            // Room left over: zlib has taken all the input and flushed what `flush` asked for.
            if stream.avail_out > 0 && flush != Z_FINISH { return }
        }
    }
}
