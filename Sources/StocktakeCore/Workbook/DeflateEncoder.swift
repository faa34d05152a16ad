/// Raw deflate (RFC 1951) made for the worksheet XML of a large workbook: one greedy pass that finds repeats through
/// a hash table of one position per entry, coded with Huffman codes built for each block.
///
/// zlib's fastest level was the largest single cost of writing the tables: it follows hash chains and keeps its
/// window in a buffer of its own. Sheet XML repeats long runs (`</v></c><c t="s"><v>`), which one probe per position
/// finds just as well, so this pass is about twice as fast for a file a few percent larger. Blocks that would not get
/// smaller are stored as they are, so no input grows by more than a few bytes per 64 KiB.
///
/// The output ends with a sync flush (an empty stored block), as `ZipWriter.CompressedBlock` needs: byte-aligned and
/// not final, so pieces compressed apart can be laid end to end and closed by `finalBlock`.
enum DeflateEncoder {
    /// How far back a repeat may start: deflate's window.
    static let window = 32_768
    /// The longest repeat deflate codes.
    static let longestMatch = 258
    /// The shortest repeat looked for: four bytes, the width of one hash probe.
    static let shortestMatch = 4
    /// Symbols per block: enough for each block's codes to pay for their header, few enough to follow the text.
    static let symbolsPerBlock = 1 << 16
    /// The end of a deflate stream on its own: an empty final block with fixed codes, `03 00`.
    static let finalBlock: [UInt8] = [0x03, 0x00]

    /// The most bytes compressed in one pass: positions are kept as 32-bit numbers. A longer input (a block of rows
    /// with very long cells) is compressed in pieces of this size, each ending with a sync flush.
    static let largestPiece = 1 << 30

    /// Compresses `input` and returns raw deflate data ending with a sync flush; `pieceSize` is lowered by tests.
    static func compress(_ input: UnsafeRawBufferPointer, pieceSize: Int = largestPiece) -> [UInt8] {
        guard input.count > pieceSize else { return compressPiece(input) }
        var output: [UInt8] = []
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + pieceSize)
            output += compressPiece(UnsafeRawBufferPointer(rebasing: input[offset..<end]))
            offset = end
        }
        return output
    }

    private static func compressPiece(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var state = EncoderState(input: input)
        defer { state.deallocate() }
        state.run()
        return state.finish()
    }

    /// Compresses `input` and returns raw deflate data ending with a sync flush.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBytes { compress($0) }
    }

    // MARK: - The symbols of deflate's alphabets

    /// The length symbol (257...285), extra bits and their value of each repeat length from 3 to 258, by length − 3.
    static let lengthSymbols: [(symbol: UInt16, extraBits: UInt8, extra: UInt16)] = (0...255).map { offset in
        if offset == 255 { return (285, 0, 0) }
        if offset < 8 { return (UInt16(257 + offset), 0, 0) }
        let highest = Int.bitWidth - 1 - offset.leadingZeroBitCount
        let extraBits = highest - 2
        let group = (offset >> extraBits) & 3
        let symbol = 257 + 4 * (highest - 1) + group
        return (UInt16(symbol), UInt8(extraBits), UInt16(offset - ((4 + group) << extraBits)))
    }

    /// The extra bits of each literal/length symbol (0 for literals and the end of a block).
    static let lengthExtraBits: [Int] = (0..<286).map { symbol in
        symbol < 265 || symbol == 285 ? 0 : (symbol - 261) / 4
    }

    /// The distance symbol (0...29) of a distance from 1 to 32,768, with its extra bits and their value.
    @inline(__always)
    static func distanceSymbol(_ distance: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
        let offset = distance - 1
        if offset < 4 { return (offset, 0, 0) }
        let highest = Int.bitWidth - 1 - offset.leadingZeroBitCount
        let extraBits = highest - 1
        let odd = (offset >> extraBits) & 1
        return (2 * highest + odd, extraBits, offset - ((2 + odd) << extraBits))
    }

    /// The extra bits of each distance symbol.
    static let distanceExtraBits: [Int] = (0..<30).map { $0 < 4 ? 0 : $0 / 2 - 1 }

    /// The smallest distance − 1 of each distance symbol: its extra bits count on from there.
    static let distanceBases: [Int] = (0..<30).map { $0 < 4 ? $0 : (2 + ($0 & 1)) << ($0 / 2 - 1) }

    /// The order in which a dynamic block's header gives the code-length code's lengths (RFC 1951 3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}

/// One call's working memory: the hash table, the symbols of the block being gathered, and the output.
private struct EncoderState {
    let input: UnsafeRawBufferPointer
    /// The last position (relative to `input`) whose four bytes hashed to each entry.
    let table: UnsafeMutablePointer<Int32>
    /// The block's symbols: a literal byte, or `1 << 31 | distance symbol << 24 | (length − 3) << 16 | distance`.
    let symbols: UnsafeMutablePointer<UInt32>
    var symbolCount = 0
    /// How often each literal/length symbol (286) and each distance symbol (30, after them) occurs in the block.
    let frequencies: UnsafeMutablePointer<UInt32>
    /// The literal/length symbol of each repeat length, by length − 3 (`DeflateEncoder.lengthSymbols`, kept here
    /// so the loop reads it without checking that the table is made).
    let lengthSymbolOf: UnsafeMutablePointer<UInt16>
    /// Where the block being gathered starts in `input`.
    var blockStart = 0
    var output: UnsafeMutablePointer<UInt8>
    var capacity: Int
    var writer: DeflateBitWriter

    /// The hash table has `1 << hashBits` entries: 2^15 (128 KiB), fewer for a short input, so that the small parts
    /// of a workbook do not each clear a table made for its sheet.
    let hashBits: Int
    private static let matchFlag: UInt32 = 1 << 31

    init(input: UnsafeRawBufferPointer) {
        self.input = input
        hashBits = min(15, max(8, Int.bitWidth - input.count.leadingZeroBitCount))
        table = .allocate(capacity: 1 << hashBits)
        // Far enough back that no position is within the window of it.
        table.initialize(repeating: Int32(-2 * DeflateEncoder.window), count: 1 << hashBits)
        symbols = .allocate(capacity: min(DeflateEncoder.symbolsPerBlock, input.count + 1))
        frequencies = .allocate(capacity: 286 + 30)
        frequencies.initialize(repeating: 0, count: 286 + 30)
        lengthSymbolOf = .allocate(capacity: 256)
        for (offset, length) in DeflateEncoder.lengthSymbols.enumerated() { lengthSymbolOf[offset] = length.symbol }
        // Room past the largest output: `DeflateBitWriter` stores eight bytes on every write.
        capacity = Self.storedBound(input.count) + 64
        output = .allocate(capacity: capacity)
        writer = DeflateBitWriter(output: output)
    }

    func deallocate() {
        table.deallocate()
        symbols.deallocate()
        frequencies.deallocate()
        lengthSymbolOf.deallocate()
        output.deallocate()
    }

    /// The most bytes `count` input bytes take as blocks.
    /// Every block but the last covers at least `symbolsPerBlock` bytes, and none is written larger than it would be
    /// stored: its bytes, five per 65,535 of them and one of alignment.
    static func storedBound(_ count: Int) -> Int {
        let blocks = count / DeflateEncoder.symbolsPerBlock + 1
        return count + 6 * (count / 65_535 + blocks)
    }

    mutating func run() {
        guard let base = input.baseAddress else { return }
        let count = input.count
        let window = DeflateEncoder.window
        let hashShift = UInt32(32 - hashBits)
        var position = 0
        // A probe reads four bytes; the last three are always literals.
        let lastProbe = count - DeflateEncoder.shortestMatch
        while position < count {
            if position <= lastProbe {
                let sequence = base.loadUnaligned(fromByteOffset: position, as: UInt32.self)
                // `hashShift` is 17 to 24: the shift needs no check.
                let hash = Int((sequence &* 0x9E37_79B1) &>> hashShift)
                let candidate = Int(table[hash])
                table[hash] = Int32(truncatingIfNeeded: position)
                // Positions are below 2^30 and an empty entry is -2^16: the difference never overflows.
                if position &- candidate <= window,
                    base.loadUnaligned(fromByteOffset: candidate, as: UInt32.self) == sequence
                {
                    let length = Self.matchLength(
                        base, position, candidate, limit: min(DeflateEncoder.longestMatch, count - position))
                    addMatch(length: length, distance: position - candidate)
                    position += length
                    if symbolCount == DeflateEncoder.symbolsPerBlock { endBlock(at: position) }
                    continue
                }
            }
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            // A block holds at most 2^16 symbols: its counts never overflow.
            symbols[symbolCount] = UInt32(byte)
            symbolCount &+= 1
            frequencies[Int(byte)] &+= 1
            position &+= 1
            if symbolCount == DeflateEncoder.symbolsPerBlock { endBlock(at: position) }
        }
        if symbolCount > 0 { endBlock(at: count) }
    }

    /// How many bytes from `position` equal those from `candidate` (at least the four already compared), up to
    /// `limit`; eight bytes are compared at a time.
    @inline(__always)
    private static func matchLength(_ base: UnsafeRawPointer, _ position: Int, _ candidate: Int, limit: Int) -> Int {
        var length = DeflateEncoder.shortestMatch
        while length + 8 <= limit {
            let difference =
                base.loadUnaligned(fromByteOffset: position + length, as: UInt64.self)
                ^ base.loadUnaligned(fromByteOffset: candidate + length, as: UInt64.self)
            if difference != 0 { return length + difference.littleEndian.trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit
            && base.load(fromByteOffset: position + length, as: UInt8.self)
                == base.load(fromByteOffset: candidate + length, as: UInt8.self)
        {
            length += 1
        }
        return length
    }

    @inline(__always)
    private mutating func addMatch(length: Int, distance: Int) {
        let distanceSymbol = DeflateEncoder.distanceSymbol(distance).symbol
        symbols[symbolCount] =
            Self.matchFlag | UInt32(truncatingIfNeeded: distanceSymbol) << 24 | UInt32(length - 3) << 16
            | UInt32(distance)
        symbolCount &+= 1
        frequencies[Int(lengthSymbolOf[length - 3])] &+= 1
        frequencies[286 + distanceSymbol] &+= 1
    }

    /// Writes the symbols gathered for input up to `end` as one block: with its own Huffman codes, or stored when
    /// that is no larger.
    private mutating func endBlock(at end: Int) {
        frequencies[256] = 1
        let literalFrequencies = Array(UnsafeBufferPointer(start: frequencies, count: 286))
        let distanceFrequencies = Array(UnsafeBufferPointer(start: frequencies + 286, count: 30))
        let literals = HuffmanCode(frequencies: literalFrequencies, limit: 15)
        let distances = HuffmanCode(frequencies: distanceFrequencies, limit: 15)
        let header = DeflateBlockHeader(literals: literals, distances: distances)
        var codedBits =
            3 + header.bits + literals.cost(of: literalFrequencies) + distances.cost(of: distanceFrequencies)
        for symbol in 265..<285 {
            codedBits += Int(literalFrequencies[symbol]) * DeflateEncoder.lengthExtraBits[symbol]
        }
        for symbol in 4..<30 {
            codedBits += Int(distanceFrequencies[symbol]) * DeflateEncoder.distanceExtraBits[symbol]
        }
        let rawCount = end - blockStart
        if (codedBits + 7) / 8 >= rawCount + 5 * (rawCount / 65_535 + 1) {
            writeStored(from: blockStart, to: end)
        } else {
            writer.write(0b100, count: 3)  // not final; type 2, dynamic codes
            header.write(to: &writer)
            writeSymbols(literals: literals, distances: distances)
        }
        blockStart = end
        symbolCount = 0
        frequencies.update(repeating: 0, count: 286 + 30)
    }

    private mutating func writeSymbols(literals: HuffmanCode, distances: HuffmanCode) {
        // Each symbol's code and length in one word (`code | length << 16`), so that writing it is two loads.
        let literalWords = UnsafeMutablePointer<UInt32>.allocate(capacity: 286 + 30)
        defer { literalWords.deallocate() }
        for symbol in 0..<286 {
            literalWords[symbol] = UInt32(literals.codes[symbol]) | UInt32(literals.lengths[symbol]) << 16
        }
        let distanceWords = literalWords + 286
        for symbol in 0..<30 {
            distanceWords[symbol] = UInt32(distances.codes[symbol]) | UInt32(distances.lengths[symbol]) << 16
        }
        // A repeat length's code with its extra bits after it (`bits | count << 32`), and a distance symbol's extra
        // bits and where they count from (`count << 16 | base`).
        let lengthCodes = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
        defer { lengthCodes.deallocate() }
        for (offset, length) in DeflateEncoder.lengthSymbols.enumerated() {
            let word = literalWords[Int(length.symbol)]
            let codeBits = UInt64(word >> 16)
            lengthCodes[offset] =
                (UInt64(word & 0xFFFF) | UInt64(length.extra) << codeBits) | (codeBits + UInt64(length.extraBits)) << 32
        }
        let distanceExtras = UnsafeMutablePointer<UInt32>.allocate(capacity: 30)
        defer { distanceExtras.deallocate() }
        for symbol in 0..<30 {
            distanceExtras[symbol] =
                UInt32(DeflateEncoder.distanceExtraBits[symbol]) << 16 | UInt32(DeflateEncoder.distanceBases[symbol])
        }
        var writer = self.writer
        var index = 0
        while index < symbolCount {
            let symbol = symbols[index]
            index &+= 1
            if symbol < Self.matchFlag {
                // Up to three literals in a row (at most 15 bits each) go out in one write.
                let word = literalWords[Int(symbol)]
                var value = UInt64(word & 0xFFFF)
                var count = UInt64(word >> 16)
                if index < symbolCount && symbols[index] < Self.matchFlag {
                    let next = literalWords[Int(symbols[index])]
                    index &+= 1
                    value |= UInt64(next & 0xFFFF) &<< count
                    count &+= UInt64(next >> 16)
                    if index < symbolCount && symbols[index] < Self.matchFlag {
                        let third = literalWords[Int(symbols[index])]
                        index &+= 1
                        value |= UInt64(third & 0xFFFF) &<< count
                        count &+= UInt64(third >> 16)
                    }
                }
                writer.write(value, count: Int(truncatingIfNeeded: count))
                continue
            }
            // A repeat in one write: the length's code and extra bits (at most 20), then the distance's (at most 28).
            let length = lengthCodes[Int((symbol >> 16) & 0xFF)]
            let lengthBits = length &>> 32
            let distanceSymbol = Int((symbol >> 24) & 0x1F)
            let distanceWord = distanceWords[distanceSymbol]
            let distanceCodeBits = UInt64(distanceWord >> 16)
            let extra = distanceExtras[distanceSymbol]
            let distanceExtra = UInt64((symbol & 0xFFFF) &- 1 &- (extra & 0xFFFF))
            let value =
                length & 0xFFFF_FFFF | UInt64(distanceWord & 0xFFFF) &<< lengthBits
                | distanceExtra &<< (lengthBits &+ distanceCodeBits)
            writer.write(value, count: Int(truncatingIfNeeded: lengthBits &+ distanceCodeBits &+ UInt64(extra >> 16)))
        }
        let end = literalWords[256]
        writer.write(UInt64(end & 0xFFFF), count: Int(end >> 16))
        self.writer = writer
    }

    /// Writes input from `start` to `end` as stored blocks of at most 65,535 bytes.
    private mutating func writeStored(from start: Int, to end: Int) {
        var offset = start
        repeat {
            let count = min(end - offset, 65_535)
            writeStoredHeader(count: count)
            writer.copy(UnsafeRawBufferPointer(rebasing: input[offset..<(offset + count)]))
            offset += count
        } while offset < end
    }

    /// A stored block's header: not final, type 0, then LEN and its complement at the next byte boundary.
    private mutating func writeStoredHeader(count: Int) {
        writer.write(0, count: 3)
        writer.alignToByte()
        writer.write(UInt64(count) | UInt64(~count & 0xFFFF) << 16, count: 32)
    }

    /// Ends the output with a sync flush (an empty stored block) and returns it.
    mutating func finish() -> [UInt8] {
        writeStoredHeader(count: 0)
        let count = writer.output - output
        precondition(count <= capacity, "deflate output overran its buffer")
        return Array(UnsafeBufferPointer(start: output, count: count))
    }
}
