/// The header of a deflate block with dynamic Huffman codes (RFC 1951 section 3.2.7): how many literal/length and
/// distance codes follow, and their lengths, run-length coded and Huffman coded themselves.
struct DeflateBlockHeader {
    /// The code lengths as code-length symbols (0...18), each with its extra bits' value and count.
    private var runs: [(symbol: UInt8, extra: UInt8, extraBits: UInt8)] = []
    private let codeLengths: HuffmanCode
    private let literalCount: Int
    private let distanceCount: Int
    /// How many of the code-length code's lengths the header gives, in `DeflateEncoder.codeLengthOrder`.
    private let codeLengthCount: Int
    /// The header's size in bits, after the block's first three.
    let bits: Int

    init(literals: HuffmanCode, distances: HuffmanCode) {
        literalCount = max(257, (literals.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
        distanceCount = max(1, (distances.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let lengths = Array(literals.lengths[0..<literalCount]) + Array(distances.lengths[0..<distanceCount])
        var frequencies = [UInt32](repeating: 0, count: 19)
        var index = 0
        while index < lengths.count {
            let length = lengths[index]
            var run = 1
            while index + run < lengths.count && lengths[index + run] == length { run += 1 }
            index += run
            var left = run
            if length == 0 {
                while left >= 11 {
                    let taken = min(left, 138)
                    runs.append((18, UInt8(taken - 11), 7))
                    left -= taken
                }
                if left >= 3 {
                    runs.append((17, UInt8(left - 3), 3))
                    left = 0
                }
            } else {
                runs.append((length, 0, 0))
                left -= 1
                while left >= 3 {
                    let taken = min(left, 6)
                    runs.append((16, UInt8(taken - 3), 2))
                    left -= taken
                }
            }
            for _ in 0..<left { runs.append((length, 0, 0)) }
        }
        for run in runs { frequencies[Int(run.symbol)] += 1 }
        codeLengths = HuffmanCode(frequencies: frequencies, limit: 7)
        var count = 19
        while count > 4 && codeLengths.lengths[DeflateEncoder.codeLengthOrder[count - 1]] == 0 { count -= 1 }
        codeLengthCount = count
        var bits = 5 + 5 + 4 + 3 * count
        for run in runs { bits += Int(codeLengths.lengths[Int(run.symbol)]) + Int(run.extraBits) }
        self.bits = bits
    }

    func write(to writer: inout DeflateBitWriter) {
        writer.write(UInt64(literalCount - 257), count: 5)
        writer.write(UInt64(distanceCount - 1), count: 5)
        writer.write(UInt64(codeLengthCount - 4), count: 4)
        for symbol in DeflateEncoder.codeLengthOrder[0..<codeLengthCount] {
            writer.write(UInt64(codeLengths.lengths[symbol]), count: 3)
        }
        for run in runs {
            let symbol = Int(run.symbol)
            writer.write(UInt64(codeLengths.codes[symbol]), count: Int(codeLengths.lengths[symbol]))
            if run.extraBits > 0 { writer.write(UInt64(run.extra), count: Int(run.extraBits)) }
        }
    }
}
