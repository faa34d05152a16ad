extension UTF8Validator {
    /// The fewest bytes checked in parts: below it one pass costs less than starting threads.
    static let partsFrom = 16 << 20

    /// Whether the text of `input` from `offset` to its end is well-formed UTF-8 after what `validator` has taken,
    /// checked in `parts` ranges at once, one per thread; `nil` when it is not checked so (fewer than `minimum`
    /// bytes, or a range could not be read: the check in order then reports why).
    ///
    /// Before a large sheet is read in parts its encoding is known, so its whole text is checked first: the 175 MB of a
    /// million assets' two largest files took one core 40 to 75 ms while the other waited. Each range but the first
    /// starts at a byte that begins a sequence (past at most three continuation bytes), so the ranges are well-formed
    /// exactly when the whole text is: a sequence cut short by a range's end is followed by a byte that cannot
    /// continue it, and four continuation bytes in a row are ill-formed wherever they are.
    static func isValid(
        _ input: CSVReader.Input, name: String, from offset: Int, after validator: Stream, parts: Int,
        minimum: Int = partsFrom
    ) -> Bool? {
        let size: Int
        switch input {
        case .file(let path):
            guard let fileSize = ByteSource.size(of: path) else { return nil }
            size = fileSize
        case .memory(let bytes): size = bytes.count
        }
        guard parts > 1, size - offset >= max(minimum, 4 * parts) else { return nil }
        var starts = [offset]
        for part in 1..<parts {
            guard let start = sequenceStart(atOrAfter: offset + (size - offset) / parts * part, of: input, name: name)
            else { return nil }
            if start > starts.last! && start < size { starts.append(start) }
        }
        let valid = ResultSlots<Bool>(count: starts.count)
        let read = ResultSlots<Bool>(count: starts.count)
        Parallel.perform(starts.count, threads: starts.count) { part in
            var stream = part == 0 ? validator : Stream()
            // The last range goes on to the end of the text, however long it has grown.
            let end = part + 1 < starts.count ? starts[part + 1] : nil
            read[part] = check(input, name: name, from: starts[part], to: end, into: &stream)
            valid[part] = stream.isValid
        }
        guard (0..<starts.count).allSatisfy({ read[$0] == true }) else { return nil }
        return (0..<starts.count).allSatisfy { valid[$0] == true }
    }

    /// The offset of the first byte at or after `offset` that is not a continuation byte, looking at most three bytes
    /// on (past them the text is ill-formed, and any offset will do); `nil` when the text cannot be read there.
    private static func sequenceStart(atOrAfter offset: Int, of input: CSVReader.Input, name: String) -> Int? {
        guard var source = try? source(input, name: name, at: offset) else { return nil }
        defer { source.finish() }
        var bytes = [UInt8](repeating: 0, count: 4)
        var count = 0
        while count < 4 {
            let read = bytes.withUnsafeMutableBufferPointer { buffer in
                (try? source.nextChunk(into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))) ?? -1
            }
            if read < 0 { return nil }
            if read == 0 { break }
            count += read
        }
        var skipped = 0
        while skipped < min(3, count) && bytes[skipped] & 0xC0 == 0x80 { skipped += 1 }
        return offset + skipped
    }

    /// Feeds the text from `start` up to `end` (the end of the text when `nil`) to `stream`; `false` when it could not
    /// be read.
    private static func check(
        _ input: CSVReader.Input, name: String, from start: Int, to end: Int?, into stream: inout Stream
    ) -> Bool {
        guard var source = try? source(input, name: name, at: start) else { return false }
        defer { source.finish() }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: CSVReader.defaultChunkSize)
        defer { buffer.deallocate() }
        var position = start
        while end.map({ position < $0 }) ?? true, !stream.foundInvalid {
            let wanted = min(buffer.count, end.map { $0 - position } ?? buffer.count)
            guard let count = try? source.nextChunk(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<wanted]))
            else { return false }
            if count == 0 { return end == nil }
            stream.take(UnsafeBufferPointer(rebasing: buffer[0..<count]))
            position += count
        }
        return true
    }

    private static func source(_ input: CSVReader.Input, name: String, at offset: Int) throws(CSVError) -> ByteSource {
        switch input {
        case .file(let path): try ByteSource(path: path, name: name, offset: offset)
        case .memory(let bytes): ByteSource(bytes: bytes, name: name, offset: offset)
        }
    }
}
