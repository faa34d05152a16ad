/// Sorts VT tag numbers with a payload by radix, so that central rows and merged assets can be paired by walking
/// both in tag order, where hashing a million tags costs a cache miss each.
enum TagSort {
    /// Sorts `keys` ascending, moving `values` with them; equal keys keep their order (the sort is stable).
    ///
    /// Passes of 8 bits run over the bits the largest key needs: three for 7-digit tags.
    static func sort(keys: inout [UInt64], values: inout [UInt32]) {
        precondition(keys.count == values.count, "one value per key")
        let count = keys.count
        guard count > 1, let largest = keys.max() else { return }
        let passes = (64 - largest.leadingZeroBitCount + 7) / 8
        var otherKeys = [UInt64](repeating: 0, count: count)
        var otherValues = [UInt32](repeating: 0, count: count)
        var starts = [Int](repeating: 0, count: 257)
        for pass in 0..<passes {
            // At most eight passes: the shift is 0 to 56 bits.
            let shift = UInt64(pass * 8)
            // The passes go through buffers: through the arrays, every write checked that the array was not shared.
            let moves = starts.withUnsafeMutableBufferPointer { starts in
                starts.update(repeating: 0)
                return keys.withUnsafeBufferPointer { keys in
                    for key in keys { starts[Int(truncatingIfNeeded: (key &>> shift) & 0xFF) + 1] += 1 }
                    // A pass whose digit is the same for every key moves nothing.
                    if starts.contains(count) { return false }
                    for digit in 0..<256 { starts[digit + 1] += starts[digit] }
                    values.withUnsafeBufferPointer { values in
                        otherKeys.withUnsafeMutableBufferPointer { otherKeys in
                            otherValues.withUnsafeMutableBufferPointer { otherValues in
                                for index in 0..<count {
                                    let digit = Int(truncatingIfNeeded: (keys[index] &>> shift) & 0xFF)
                                    let target = starts[digit]
                                    starts[digit] = target + 1
                                    otherKeys[target] = keys[index]
                                    otherValues[target] = values[index]
                                }
                            }
                        }
                    }
                    return true
                }
            }
            guard moves else { continue }
            swap(&keys, &otherKeys)
            swap(&values, &otherValues)
        }
    }
}
