import StocktakeSync
import Testing

@Suite struct HTTPDateTests {
    @Test func anIMFFixdateIsReadToTheSecond() {
        #expect(HTTPDate.secondsSinceEpoch("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.secondsSinceEpoch("Tue, 14 Nov 2023 22:13:20 GMT") == 1_700_000_000)
        #expect(HTTPDate.secondsSinceEpoch("Thu, 29 Feb 2024 00:00:00 GMT") == 1_709_164_800)
    }

    @Test func anythingElseIsNotADate() {
        for text in [
            "", "soon", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 30 Feb 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Now 1994 08:49:37 GMT", "Sun, 0x Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT ",
        ] {
            #expect(HTTPDate.secondsSinceEpoch(text) == nil, "\(text)")
        }
    }

    /// The reproducer `make fuzz` found: a 429 whose Retry-After is not a date, bytes that are not UTF-8 included.
    /// Foundation's DateFormatter leaked on it; it is now simply not a date.
    @Test func theFuzzedRetryAfterIsNotADate() {
        let bytes: [UInt8] = [0xF5, 0x31, 0xAD, 0x73, 0xF2, 0x8C, 0x8C, 0x9A, 0x5A, 0x8D, 0x74, 0x65, 0x72]
        #expect(HTTPDate.secondsSinceEpoch(String(decoding: bytes, as: UTF8.self)) == nil)
    }
}
