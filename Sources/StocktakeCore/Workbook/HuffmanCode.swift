/// A length-limited canonical Huffman code for one of deflate's alphabets, built from how often each symbol occurs.
///
/// `DeflateEncoder` builds three per block (literals and lengths, distances, and the code lengths of those two), so
/// each block's codes fit the text it holds. Codes are stored bit-reversed, ready for deflate's bit order (least
/// significant bit first), so writing a symbol is one shift and one or.
struct HuffmanCode {
    /// Each symbol's code length in bits; 0 for a symbol that does not occur.
    private(set) var lengths: [UInt8]
    /// Each symbol's code, bit-reversed.
    private(set) var codes: [UInt16]

    /// The code for `frequencies` whose longest code has at most `limit` bits. Symbols that occur get codes; when
    /// fewer than two do, symbols 0 and 1 get codes too, since a decoder needs a complete code (RFC 1951 leaves one
    /// code of one bit to readers' goodwill, and zlib accepts it only for distances).
    init(frequencies: [UInt32], limit: Int) {
        precondition(frequencies.count >= 2 && frequencies.count <= 1 << limit, "an alphabet \(limit) bits can code")
        // Each symbol that occurs as one number, its frequency above its symbol: sorting the numbers puts the least
        // frequent first and breaks ties by symbol, so that the same frequencies always give the same code. (Pairs
        // sorted through a comparison closure cost a 3,000-asset account 0.5 M instructions more.)
        var used: [UInt64] = []
        used.reserveCapacity(frequencies.count)
        for (symbol, frequency) in frequencies.enumerated() where frequency > 0 {
            used.append(UInt64(frequency) << 32 | UInt64(symbol))
        }
        for symbol in 0..<2 where used.count < 2 && frequencies[symbol] == 0 { used.append(1 << 32 | UInt64(symbol)) }
        used.sort()
        var countOfLength = Self.countsOfLength(sortedFrequencies: used.map { UInt32($0 >> 32) }, limit: limit)
        lengths = Array(repeating: 0, count: frequencies.count)
        // The most frequent symbols take the shortest codes.
        var next = used.count - 1
        for length in 1...limit {
            while countOfLength[length] > 0 {
                lengths[Int(used[next] & 0xFFFF_FFFF)] = UInt8(length)
                countOfLength[length] -= 1
                next -= 1
            }
        }
        codes = Self.canonicalCodes(lengths: lengths, limit: limit)
    }

    /// How many codes of each length (index 1...limit) a Huffman code of these frequencies (ascending, at least
    /// two) has, once codes longer than `limit` are shortened.
    static func countsOfLength(sortedFrequencies weights: [UInt32], limit: Int) -> [Int] {
        let leafCount = weights.count
        // The two-queue construction: leaves in ascending order, and the merged nodes, which come out ascending too.
        var nodeWeight = [UInt64](repeating: 0, count: 2 * leafCount - 1)
        var parent = [Int](repeating: 0, count: 2 * leafCount - 1)
        for index in 0..<leafCount { nodeWeight[index] = UInt64(weights[index]) }
        var nextLeaf = 0
        var nextMerged = leafCount
        for node in leafCount..<(2 * leafCount - 1) {
            var children = (0, 0)
            for pick in 0..<2 {
                let takesLeaf =
                    nextLeaf < leafCount && (nextMerged >= node || nodeWeight[nextLeaf] <= nodeWeight[nextMerged])
                let child: Int
                if takesLeaf {
                    child = nextLeaf
                    nextLeaf += 1
                } else {
                    child = nextMerged
                    nextMerged += 1
                }
                if pick == 0 { children.0 = child } else { children.1 = child }
            }
            nodeWeight[node] = nodeWeight[children.0] + nodeWeight[children.1]
            parent[children.0] = node
            parent[children.1] = node
        }
        // A node's parent comes after it, so depths follow from the root down in one backward pass.
        var depth = [Int](repeating: 0, count: 2 * leafCount - 1)
        var countOfLength = [Int](repeating: 0, count: max(limit, 2 * leafCount) + 1)
        for node in stride(from: 2 * leafCount - 3, through: 0, by: -1) {
            depth[node] = depth[parent[node]] + 1
            if node < leafCount { countOfLength[depth[node]] += 1 }
        }
        // Codes longer than the limit become limit-long; the code is then over-full, and each round takes one code
        // off the longest length and splits a shorter code in two, until the lengths fit exactly (Kraft's sum 1).
        for length in (limit + 1)..<countOfLength.count where countOfLength[length] > 0 {
            countOfLength[limit] += countOfLength[length]
            countOfLength[length] = 0
        }
        var kraft = 0
        for length in 1...limit { kraft += countOfLength[length] << (limit - length) }
        while kraft > 1 << limit {
            countOfLength[limit] -= 1
            for length in stride(from: limit - 1, through: 1, by: -1) where countOfLength[length] > 0 {
                countOfLength[length] -= 1
                countOfLength[length + 1] += 2
                break
            }
            kraft -= 1
        }
        return Array(countOfLength[0...limit])
    }

    /// The canonical codes of RFC 1951 section 3.2.2 for `lengths`, bit-reversed.
    static func canonicalCodes(lengths: [UInt8], limit: Int) -> [UInt16] {
        var countOfLength = [Int](repeating: 0, count: limit + 1)
        for length in lengths where length > 0 { countOfLength[Int(length)] += 1 }
        var nextCode = [Int](repeating: 0, count: limit + 2)
        var code = 0
        for length in 1...limit {
            code = (code + countOfLength[length - 1]) << 1
            nextCode[length] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let value = nextCode[Int(length)]
            nextCode[Int(length)] += 1
            var reversed = 0
            for bit in 0..<Int(length) where value & (1 << bit) != 0 { reversed |= 1 << (Int(length) - 1 - bit) }
            codes[symbol] = UInt16(reversed)
        }
        return codes
    }

    /// The bits this code spends on symbols occurring `frequencies` times.
    func cost(of frequencies: [UInt32]) -> Int {
        var bits = 0
        for (symbol, frequency) in frequencies.enumerated() { bits += Int(frequency) * Int(lengths[symbol]) }
        return bits
    }
}
