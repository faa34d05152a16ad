/// A 128-bit fingerprint of a row's raw cells, used to find rows repeated in one file without keeping their text.
///
/// It hashes the row's cells joined by NUL bytes, then their length and count. Text holds no NUL byte, so the joined
/// bytes tell where each cell ends (`a,bc` and `ab,c` differ), and the count tells a row of one empty cell from a row
/// of none. The bytes are absorbed eight at a time into two independent lanes, each a full-width multiply folded to
/// 64 bits; the last 1 to 7 are read as one word (`WordTail`).
///
/// A cell with a NUL byte (only a workbook's `_x0000_` makes one) cannot be joined so: such a row is hashed cell by
/// cell, each after its length (`init(cellsHoldingNUL:)`).
///
/// Most rows are one run of their file's text: no cell is quoted, so the cells lie one after another with one
/// delimiter between each two. Such a row is hashed where it lies, each delimiter read as the NUL it stands for
/// (`init(run:delimiter:cellCount:)`), instead of cell by cell; any other row is joined first (`init(cells:)`). Both
/// give the same fingerprint for the same cells.
struct RowFingerprint: Hashable {
    private(set) var first: UInt64 = 0x243f_6a88_85a3_08d3
    private(set) var second: UInt64 = 0x1319_8a2e_0370_7344

    /// The fingerprint whose halves are `first` and `second`: tests make ones that differ only in chosen bits.
    init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    /// The fingerprint of `cells`; `mayHoldNUL` false says that no cell holds a NUL byte (the tokenizer refused
    /// them), so the cells are not searched for one.
    init(cells: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>, mayHoldNUL: Bool = true) {
        var length = max(0, cells.count - 1)
        for cell in cells { length += cell.count }
        if mayHoldNUL && cells.contains(where: { $0.contains(0) }) {
            self.init(cellsHoldingNUL: cells)
            return
        }
        self = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, length)) { joined in
            var offset = 0
            for (index, cell) in cells.enumerated() {
                if index > 0 {
                    joined[offset] = 0
                    offset += 1
                }
                if let base = cell.baseAddress, cell.count > 0 {
                    UnsafeMutableRawPointer(joined.baseAddress! + offset).copyMemory(from: base, byteCount: cell.count)
                    offset += cell.count
                }
            }
            return RowFingerprint(joined: UnsafeRawPointer(joined.baseAddress!), length: length, cellCount: cells.count)
        }
    }

    /// The fingerprint of cells of which one holds a NUL byte (a workbook's `_x0000_`; a CSV file with one is
    /// refused): NUL cannot mark where a cell ends then, so each cell goes in after its length, and the end, with its
    /// top bit set, tells such a row from every row without a NUL.
    private init(cellsHoldingNUL cells: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>) {
        for cell in cells {
            absorb(UInt64(truncatingIfNeeded: cell.count))
            guard let base = cell.baseAddress, cell.count > 0 else { continue }
            let bytes = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= cell.count {
                absorb(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            if offset < cell.count { absorb(WordTail.littleEndian(bytes, from: offset, count: cell.count)) }
        }
        absorb(UInt64(truncatingIfNeeded: cells.count) | 1 << 63)
    }

    /// The fingerprint of the `cellCount` cells that `run` holds one after another, each two separated by one
    /// `delimiter`, which no cell holds (a row of unquoted cells, as its file has it).
    init(run: UnsafeBufferPointer<UInt8>, delimiter: UInt8, cellCount: Int) {
        precondition(delimiter != 0, "a delimiter is never NUL")
        guard let base = run.baseAddress, run.count > 0 else {
            absorbEnd(length: 0, cellCount: cellCount)
            return
        }
        let delimiters = 0x0101_0101_0101_0101 &* UInt64(delimiter)
        let bytes = UnsafeRawPointer(base)
        let count = run.count
        var offset = 0
        while offset + 8 <= count {
            absorb(Self.nulForDelimiter(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self), delimiters))
            offset += 8
        }
        if offset < count {
            absorb(Self.nulForDelimiter(WordTail.littleEndian(bytes, from: offset, count: count), delimiters))
        }
        absorbEnd(length: count, cellCount: cellCount)
    }

    /// The fingerprint of `length` bytes at `joined`: the row's cells joined by NUL bytes.
    private init(joined bytes: UnsafeRawPointer, length count: Int, cellCount: Int) {
        var offset = 0
        while offset + 8 <= count {
            absorb(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < count { absorb(WordTail.littleEndian(bytes, from: offset, count: count)) }
        absorbEnd(length: count, cellCount: cellCount)
    }

    /// `word` with each byte equal to the one repeated in `delimiters` made 0, and every other byte as it was.
    @inline(__always)
    private static func nulForDelimiter(_ word: UInt64, _ delimiters: UInt64) -> UInt64 {
        let matched = word ^ delimiters
        let low = UInt64(0x7f7f_7f7f_7f7f_7f7f)
        // The top bit of each byte of `matched` that is 0, exactly: no borrow crosses from one byte into the next.
        let zero = ~(((matched & low) &+ low) | matched | low)
        return word & ~((zero >> 7) &* 0xff)
    }

    /// Ends the fingerprint with the joined length and the number of cells (at most 16,384 cells, so the top bit,
    /// which marks rows holding a NUL, stays clear).
    @inline(__always)
    private mutating func absorbEnd(length: Int, cellCount: Int) {
        absorb(UInt64(truncatingIfNeeded: length) &+ UInt64(truncatingIfNeeded: cellCount) &<< 40)
    }

    @inline(__always)
    private mutating func absorb(_ word: UInt64) {
        let one = (first ^ word).multipliedFullWidth(by: 0xa076_1d64_78bd_642f)
        first = one.high ^ one.low
        let two = ((second &+ word) ^ 0xe703_7ed1_a0b4_28db).multipliedFullWidth(by: 0x8ebc_6af0_9c88_c6e3)
        second = two.high ^ two.low
    }
}
