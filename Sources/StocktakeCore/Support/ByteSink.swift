/// Where the writers of the output files put their bytes: a `ByteBuffer` on the hot paths, a `[UInt8]` elsewhere.
///
/// The writers (`CanonicalText`, `CSVWriter`, `WorksheetRow`, …) are generic over it, so a table formatted by the
/// million rows appends into a `ByteBuffer` while a header, a single cell or a test still gets a `[UInt8]`, from the
/// same code.
protocol ByteSink: ~Copyable {
    /// The bytes written so far.
    var count: Int { get }

    /// Appends one byte.
    mutating func append(_ byte: UInt8)

    /// Appends bytes.
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer)

    /// Appends bytes.
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)

    /// Appends the bytes `write` writes at the pointer it is given: at most `maximum`, and it returns how many.
    mutating func append(atMost maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int)

    /// Takes back the last `count` bytes.
    mutating func removeLast(_ count: Int)
}

extension ByteSink where Self: ~Copyable {
    /// Appends the UTF-8 bytes of `text`.
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends the bytes of `text`.
    mutating func append(_ text: StaticString) {
        append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `byte` `count` times.
    mutating func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        append(atMost: count) { pointer in
            pointer.initialize(repeating: byte, count: count)
            return count
        }
    }
}

extension Array: ByteSink where Element == UInt8 {
    mutating func append(atMost maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        // Written on the stack (for the few bytes a writer asks room for), then appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(maximum, 1)) { room in
            let written = write(room.baseAddress!)
            precondition(written >= 0 && written <= maximum, "wrote more bytes than room was made for")
            append(contentsOf: UnsafeBufferPointer(rebasing: room[0..<written]))
        }
    }
}
