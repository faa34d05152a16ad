/// Finds VT tags that are one slip of the hand apart: one digit changed, or two adjacent digits swapped.
enum TypoMatcher {
    /// Every tag one edit away from `tag` (its digits as written, leading zeros included), with the kind of edit, in
    /// ascending order of tag number.
    ///
    /// Worked out on the number, digit by digit: every tag that is not in the central sheet is looked up this way,
    /// and making its text and changing copies of it allocated some seventy arrays a tag.
    static func neighbors(of tag: VTTag) -> [(tag: VTTag, edit: String)] {
        let number = tag.number
        let count = max(DecimalDigits.count(number), tag.digits)
        var result: [(tag: VTTag, edit: String)] = []
        result.reserveCapacity(count * 10)
        // From the last digit to the first: `place` is the digit's value, 10 to the power of its position.
        var place: UInt64 = 1
        for position in 0..<count {
            let digit = number / place % 10
            for other in UInt64(0)...9 where other != digit {
                if let changed = shifted(number, by: other, minus: digit, times: place) {
                    result.append((VTTag(number: changed, digits: tag.digits), "one digit differs"))
                }
            }
            guard position + 1 < count else { break }
            let (next, overflow) = place.multipliedReportingOverflow(by: 10)
            guard !overflow else { break }
            // Swapping this digit with the one before it (`left`) moves the number by 9 × place × (digit − left).
            let left = number / next % 10
            if left != digit, let swapped = shifted(number, by: digit, minus: left, times: 9 * place) {
                result.append((VTTag(number: swapped, digits: tag.digits), "two adjacent digits are swapped"))
            }
            place = next
        }
        result.sort { $0.tag < $1.tag }
        return result
    }

    /// `number + (plus − minus) × times`, or `nil` when that is not a `UInt64`.
    private static func shifted(_ number: UInt64, by plus: UInt64, minus: UInt64, times: UInt64) -> UInt64? {
        if plus >= minus {
            let (step, overflow) = (plus - minus).multipliedReportingOverflow(by: times)
            guard !overflow else { return nil }
            let (sum, carry) = number.addingReportingOverflow(step)
            return carry ? nil : sum
        }
        let step = (minus - plus) * times  // at most the number itself: its own digit times its place
        return number - step
    }
}
