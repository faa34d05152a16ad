/// Short texts made of pieces of `alphabet`, from a fixed seed, for tests that compare a fast path with the rule it
/// shortens: up to 15 pieces each, the same texts on every run.
func randomTexts(_ count: Int, of alphabet: [String], seed: UInt64) -> [String] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        var text = ""
        for step in 0..<Int(state >> 60) {
            text += alphabet[Int((state >> UInt64(4 * step)) & 0xF) % alphabet.count]
        }
        return text
    }
}
