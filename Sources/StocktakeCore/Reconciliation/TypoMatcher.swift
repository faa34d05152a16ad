/// Finds VT tags that are one slip of the hand apart: one digit changed, or two adjacent digits swapped.
enum TypoMatcher {
    /// Every tag one edit away from `tag`, with the kind of edit, in ascending order of tag number.
    static func neighbors(of tag: VTTag) -> [(tag: VTTag, edit: String)] {
        let digits = Array(tag.description.utf8)
        var result: [(VTTag, String)] = []
        for position in digits.indices {
            for digit in UInt8(ascii: "0")...UInt8(ascii: "9") where digit != digits[position] {
                var changed = digits
                changed[position] = digit
                result.append((make(changed, digits: tag.digits), "one digit differs"))
            }
            if position + 1 < digits.count, digits[position] != digits[position + 1] {
                var swapped = digits
                swapped.swapAt(position, position + 1)
                result.append((make(swapped, digits: tag.digits), "two adjacent digits are swapped"))
            }
        }
        return result.sorted { $0.0 < $1.0 }
    }

    private static func make(_ digits: [UInt8], digits count: Int) -> VTTag {
        var number: UInt64 = 0
        for digit in digits { number = number * 10 + UInt64(digit - UInt8(ascii: "0")) }
        return VTTag(number: number, digits: count)
    }
}
