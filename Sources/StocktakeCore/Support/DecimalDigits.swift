/// The decimal digits of whole numbers, written straight into memory made ready for them, two at a time.
///
/// The output writers put a number in nearly every cell: a tag, a row number, a shared string's index, a date
/// serial. Taking the digits in pairs from a table halves the divisions, and counting them by comparing with powers
/// of ten takes none.
enum DecimalDigits {
    /// `00` to `99`, two bytes each.
    private static var pairs: StaticString {
        """
        00010203040506070809\
        10111213141516171819\
        20212223242526272829\
        30313233343536373839\
        40414243444546474849\
        50515253545556575859\
        60616263646566676869\
        70717273747576777879\
        80818283848586878889\
        90919293949596979899
        """
    }

    /// How many digits `value` has: 1 for zero, 20 for the largest.
    @inline(__always)
    static func count(_ value: UInt64) -> Int {
        var count = 1
        var bound: UInt64 = 10
        while count < 20 && value >= bound {
            count += 1
            bound &*= 10
        }
        return count
    }

    /// Writes `value` as `count` digits at `pointer`, left-padded with zeros; `count` must be at least
    /// `count(value)`.
    @inline(__always)
    static func write(_ value: UInt64, count: Int, to pointer: UnsafeMutablePointer<UInt8>) {
        let table = pairs.utf8Start
        var rest = value
        var index = count
        while index >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            index -= 2
            pointer[index] = table[pair]
            pointer[index + 1] = table[pair + 1]
        }
        if index == 1 { pointer[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest) }
    }
}
