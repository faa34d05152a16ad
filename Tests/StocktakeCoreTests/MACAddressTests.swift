import StocktakeCore
import Testing

struct MACAddressTests {
    @Test(arguments: [
        ("aa:bb:cc:dd:ee:ff", "aa:bb:cc:dd:ee:ff"),
        ("AA-BB-CC-DD-EE-0F", "aa:bb:cc:dd:ee:0f"),
        ("aabb.ccdd.eeff", "aa:bb:cc:dd:ee:ff"),
        ("AABBCCDDEEFF", "aa:bb:cc:dd:ee:ff"),
        ("  00:1a:2B:3c:4D:5e\t", "00:1a:2b:3c:4d:5e"),
        ("001A.2B3C.4D5E", "00:1a:2b:3c:4d:5e"),
        ("00-00-00-00-00-01", "00:00:00:00:00:01"),
    ])
    func acceptsTheFourForms(input: String, expected: String) {
        #expect(MACAddress.normalize(input).value?.description == expected)
    }

    @Test(arguments: [
        "", " ", "N/A", "none", "TBD", "-", "00:00:00:00:00:00", "FF:FF:FF:FF:FF:FF", "ff-ff-ff-ff-ff-ff",
        "0000.0000.0000", "ffffffffffff", "000000000000",
    ])
    func placeholdersZeroAndBroadcastAreEmpty(input: String) {
        #expect(MACAddress.normalize(input) == .empty)
    }

    @Test(arguments: [
        ("aa:bb:cc:dd:ee:f", "has 11 hex digits; a MAC address has 12"),
        ("aabbccddeeff00", "has 14 hex digits; a MAC address has 12"),
        ("1", "has 1 hex digit; a MAC address has 12"),
        ("aa:bb:cc:dd:ee:fg", "contains the character \"g\", which is not a hex digit or separator"),
        ("aa bb cc dd ee ff", "contains a space, which is not a hex digit or separator"),
        ("aa:bb-cc:dd:ee:ff", "mixes the separators \":\" and \"-\"; use one separator throughout"),
        ("aabb.ccdd:eeff", "mixes the separators \".\" and \":\"; use one separator throughout"),
        (
            "aabb:ccdd:eeff",
            "groups its hex digits unusually; write it as aa:bb:cc:dd:ee:ff, aabb.ccdd.eeff or aabbccddeeff"
        ),
        (
            "a:ab:bc:cd:de:eff",
            "groups its hex digits unusually; write it as aa:bb:cc:dd:ee:ff, aabb.ccdd.eeff or aabbccddeeff"
        ),
        (
            "aa:bb:cc:dd:ee:ff:",
            "groups its hex digits unusually; write it as aa:bb:cc:dd:ee:ff, aabb.ccdd.eeff or aabbccddeeff"
        ),
        (
            "aa.bb.cc.dd.ee.ff",
            "groups its hex digits unusually; write it as aa:bb:cc:dd:ee:ff, aabb.ccdd.eeff or aabbccddeeff"
        ),
    ])
    func rejectsWithReason(input: String, reason: String) {
        #expect(MACAddress.normalize(input) == .invalid(reason: reason))
    }

    @Test func storesFortyEightBits() {
        #expect(MACAddress.normalize("01:23:45:67:89:ab") == .value(MACAddress(value: 0x0123_4567_89AB)))
        #expect(MACAddress(value: 0xFFFF_0123_4567_89AB).value == 0x0123_4567_89AB)
    }

    @Test func everyFormOfOneAddressIsEqual() {
        let forms = ["aa:bb:cc:dd:ee:ff", "AA-BB-CC-DD-EE-FF", "aabb.ccdd.eeff", "AABBCCDDEEFF"]
        #expect(Set(forms.compactMap { MACAddress.normalize($0).value }).count == 1)
    }

    /// The grouped forms are read from the fixed places of their digits; every form of a random address, in random
    /// case, gives the value of its bare twelve digits.
    @Test func randomAddressesReadAlikeInEveryForm() {
        var state: UInt64 = 0x5EED
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = state >> 16
            let digits = Array(String(value, radix: 16))
            let bare = String(repeating: "0", count: 12 - digits.count) + String(digits)
            let mixedCase = String(
                bare.enumerated().map {
                    $0.offset % 3 == (Int(state & 3)) ? Character($0.element.uppercased()) : $0.element
                })
            let pairs = stride(from: 0, to: 12, by: 2).map { Array(mixedCase)[$0..<($0 + 2)] }.map { String($0) }
            let expected = MACAddress.normalize(bare)
            #expect(expected == .value(MACAddress(value: value)))
            #expect(MACAddress.normalize(pairs.joined(separator: ":")) == expected)
            #expect(MACAddress.normalize(pairs.joined(separator: "-")) == expected)
            #expect(MACAddress.normalize(" " + pairs.joined(separator: ":") + " ") == expected)
        }
    }
}
