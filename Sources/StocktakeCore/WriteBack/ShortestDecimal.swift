/// The shortest decimal text of a `Double` that reads back as the same number, in plain notation (`-80.428321`,
/// `37`, `0.00001`), written straight into a byte buffer: the digits of `description` without the `String` it
/// makes, for the numbers whose shortest text has at most 15 significant digits, as coordinates do.
///
/// A decimal `m / 10^n`, with `m` below 10^15 and `n` at most 22, reads back as `value` exactly when
/// `Double(m) / 10^n == value`: both operands are exact, so the division rounds the quotient as reading the text
/// does. The smallest such `n` gives the shortest text, and with at most 15 significant digits no other decimal of
/// that length reads back as the same number, so the text is the one `description` gives.
enum ShortestDecimal {
    /// The largest `m` written: 15 digits.
    private static let largestMantissa: UInt64 = 999_999_999_999_999

    /// The most decimals written: 10^22 is the largest power of ten a `Double` holds exactly.
    private static let mostDecimals = 22

    /// Appends the shortest text of `value` and returns true, or appends nothing and returns false when `value` is
    /// zero, not finite, or needs more than 15 significant digits or more than 22 decimals.
    static func append<Output: ByteSink & ~Copyable>(_ value: Double, to output: inout Output) -> Bool {
        let magnitude = value.magnitude
        guard magnitude.isFinite, magnitude > 0, magnitude <= Double(largestMantissa) else { return false }
        guard let (decimals, mantissa) = fewestDecimals(magnitude) else { return false }
        append(UInt64(mantissa), decimals: decimals, negative: value < 0, to: &output)
        return true
    }

    /// The fewest decimals that read back as `magnitude`, and the mantissa they give; `nil` when no number of
    /// decimals up to the first whose mantissa passes `largestMantissa` does.
    ///
    /// Decimals that read back keep doing so with one more, as long as the mantissa (then ten times as large) stays
    /// within `largestMantissa`: the product is then within a tenth of it and reads back as the same quotient. So the
    /// search starts at `firstGuess` decimals, the most a coordinate usually has, and steps down while the text still
    /// reads back, or up until it does: two tries for a six-decimal coordinate, where counting up from none took
    /// seven, each with a division. It finds what counting up from none finds; when the guess's mantissa is already too
    /// large, it counts up from none.
    @inline(__always)
    private static func fewestDecimals(_ magnitude: Double) -> (decimals: Int, mantissa: Int64)? {
        switch check(magnitude, decimals: firstGuess) {
        case .readsBack(var mantissa):
            var decimals = firstGuess
            while decimals > 0, case .readsBack(let fewer) = check(magnitude, decimals: decimals - 1) {
                decimals -= 1
                mantissa = fewer
            }
            return (decimals, mantissa)
        case .differs:
            return fewestDecimals(magnitude, from: firstGuess + 1)
        case .tooLarge:
            return fewestDecimals(magnitude, from: 0)
        }
    }

    /// The fewest decimals from `first` on that read back as `magnitude`, counting up; `nil` once a mantissa passes
    /// `largestMantissa`, or past `mostDecimals`.
    private static func fewestDecimals(_ magnitude: Double, from first: Int) -> (decimals: Int, mantissa: Int64)? {
        for decimals in first...mostDecimals {
            switch check(magnitude, decimals: decimals) {
            case .readsBack(let mantissa): return (decimals, mantissa)
            case .differs: continue
            case .tooLarge: return nil
            }
        }
        return nil
    }

    /// The decimals the search starts at: coordinates from GPS receivers and maps have six.
    private static let firstGuess = 6

    /// What `decimals` decimals make of a magnitude.
    private enum Check {
        /// The decimal with this mantissa reads back as the magnitude.
        case readsBack(Int64)
        /// It reads back as another number.
        case differs
        /// The mantissa would pass `largestMantissa`.
        case tooLarge
    }

    @inline(__always)
    private static func check(_ magnitude: Double, decimals: Int) -> Check {
        let scale = powersOfTen[decimals]
        // The nearest integer to `magnitude * scale`: when a decimal with these decimals reads back as `magnitude`,
        // the product is within a quarter of it, so adding a half and truncating finds it.
        let scaled = magnitude * scale
        guard scaled < Double(largestMantissa) + 0.5 else { return .tooLarge }
        // (Through `Int64`, which the processor converts to in one instruction, unlike `UInt64`.)
        let mantissa = Int64(scaled + 0.5)
        return Double(mantissa) / scale == magnitude ? .readsBack(mantissa) : .differs
    }

    /// 10^0 through 10^22, each exact: 10^22 is the largest power of ten a `Double` holds exactly.
    private static let powersOfTen: [Double] = (0...mostDecimals).map { decimals in
        (0..<decimals).reduce(1.0) { product, _ in product * 10 }
    }

    /// Appends `mantissa / 10^decimals` in plain notation, with `decimals` digits after the point (none when zero).
    private static func append<Output: ByteSink & ~Copyable>(
        _ mantissa: UInt64, decimals: Int, negative: Bool, to output: inout Output
    ) {
        // At most a sign, 22 zeros and a point before the 15 digits: formed on the stack from the right, appended at
        // once.
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { buffer in
            var index = buffer.count
            var rest = mantissa
            var written = 0
            // The digits after the point (zeros where the mantissa has none), the point, then those before it.
            while written < decimals {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                written += 1
            }
            if decimals > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: ".")
            }
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            if negative {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[index...]))
        }
    }
}
