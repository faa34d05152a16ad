/// A fixed pseudo-random number generator (SplitMix64) seeded by the caller.
///
/// The generator must produce the same account for the same seed on every machine and every toolchain, so it
/// never uses the system generator or the standard library's `random(in:)` algorithms, whose details may change;
/// every draw goes through the methods below.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 pseudo-random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniformly chosen integer in `0..<bound`; `bound` must be positive.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "the bound of a random draw must be positive")
        let limit = UInt64(bound)
        // Reject the top partial block so that every value is equally likely.
        let rejectFrom = UInt64.max - UInt64.max % limit
        while true {
            let draw = next()
            if draw < rejectFrom {
                return Int(draw % limit)
            }
        }
    }

    /// A uniformly chosen integer in `range`.
    public mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with the given probability (0 never, 1 always).
    public mutating func chance(_ probability: Double) -> Bool {
        let unit = Double(next() >> 11) / Double(UInt64(1) << 53)
        return unit < probability
    }

    /// A uniformly chosen element of a non-empty array.
    public mutating func element<Element>(of array: [Element]) -> Element {
        array[below(array.count)]
    }

    /// Shuffles `array` in place (Fisher–Yates, drawing with ``below(_:)``).
    public mutating func shuffle<Element>(_ array: inout [Element]) {
        guard array.count > 1 else {
            return
        }
        for index in stride(from: array.count - 1, to: 0, by: -1) {
            let other = below(index + 1)
            if other != index {
                array.swapAt(index, other)
            }
        }
    }
}
