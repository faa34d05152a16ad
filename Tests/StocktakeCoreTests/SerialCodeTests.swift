import Testing

@testable import StocktakeCore

@Suite("SerialCode: a serial in eight bytes, equal exactly when the texts are")
struct SerialCodeTests {
    private static func text(of code: SerialCode) -> String {
        code.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Digits and upper-case letters, 1 to 12 of them, are numbers of their own and read back as written.
    @Test(arguments: [
        "0", "9", "A", "Z", "00", "CN0V43PKBN", "FCW2236L0QE", "C02XL0GTJGH5", "ZZZZZZZZZZZZ", "000000000001",
    ])
    func shortSerialsAreNumbersThatReadBack(text: String) {
        let code = SerialCode(canonical: text)
        #expect(code.pooledID == nil && code.pendingIndex == nil && !code.isNone)
        #expect(Self.text(of: code) == text)
        #expect(code.serialNumber?.text == text)
        // Below the marked codes, and below the empty key of `IntegerTable`.
        #expect(code.rawValue < 1 << 63)
    }

    /// Longer serials, and those with other characters, are ids in `SharedTexts`, and read back as written too.
    @Test(arguments: ["ZZZZZZZZZZZZZ", "CN-0V43", "SN.42", "ÄB12", "1234567890123456789012"])
    func otherSerialsAreSharedTexts(text: String) {
        let code = SerialCode(canonical: text)
        #expect(code.pooledID == SharedTexts.shared.id(of: text))
        #expect(code.rawValue != UInt64.max)
        #expect(Self.text(of: code) == text)
        #expect(code.serialNumber?.text == text)
        #expect(code == SerialCode(canonical: text))
    }

    /// Leading zeros, lengths and the line between numbers and ids all tell texts apart: every text of a sample of
    /// 20,000 short ones over digits, letters and a dash has its own code, and the same code each time.
    @Test func differentTextsHaveDifferentCodes() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-")
        var texts: Set<String> = ["1", "01", "001", "10", "100", "A", "0A", "A0"]
        while texts.count < 20_000 {
            let length = Int.random(in: 1...14, using: &random)
            texts.insert(String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
        }
        var codes: [SerialCode: String] = [:]
        for text in texts {
            let code = SerialCode(canonical: text)
            #expect(codes.updateValue(text, forKey: code) == nil, "\(text) and \(codes[code] ?? "") share a code")
            #expect(Self.text(of: code) == text)
            #expect(SerialCode(canonical: text) == code)
        }
    }

    @Test func noSerialIsZeroAndReadsAsNothing() {
        #expect(SerialCode.none.isNone && SerialCode.none.rawValue == 0)
        #expect(SerialCode.none.serialNumber == nil)
        #expect(SerialCode.none.withBytes { $0.count } == 0)
        #expect(SerialCode.inline(UnsafeBufferPointer(start: nil, count: 0)) == nil)
    }

    /// A batch index stands in a row until the batch is added; it is neither a number nor an id.
    @Test func aPendingIndexIsKeptApart() {
        let code = SerialCode(pendingIndex: 65_535)
        #expect(code.pendingIndex == 65_535)
        #expect(code.pooledID == nil && !code.isNone)
        #expect(SerialCode(pooled: 65_535).pendingIndex == nil)
        #expect(SerialCode(pooled: 65_535).pooledID == 65_535)
    }

    /// The index of shared serials keys them by their code, whichever way they were made.
    @Test func theIndexKeyIsTheCode() {
        for text in ["CN0V43PKBN", "CN-0V43"] {
            #expect(SerialNumber(canonical: text)!.integerKey == SerialCode(canonical: text).rawValue)
            #expect(SerialCode(canonical: text).indexKey == SerialCode(canonical: text).rawValue)
        }
        #expect(SerialCode.none.indexKey == nil)
    }
}
