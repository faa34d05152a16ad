import Testing

@testable import StocktakeCore

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
            let quads = stride(from: 0, to: 12, by: 4).map { Array(mixedCase)[$0..<($0 + 4)] }.map { String($0) }
            let expected: Normalized<MACAddress> =
                value == 0 || value == 0xFFFF_FFFF_FFFF ? .empty : .value(MACAddress(value: value))
            #expect(MACAddress.normalize(bare) == expected)
            #expect(MACAddress.normalize(mixedCase) == expected)
            #expect(MACAddress.normalize(pairs.joined(separator: ":")) == expected)
            #expect(MACAddress.normalize(pairs.joined(separator: "-")) == expected)
            #expect(MACAddress.normalize(" " + pairs.joined(separator: ":") + " ") == expected)
            #expect(MACAddress.normalize(quads.joined(separator: ".")) == expected)
        }
    }

    /// Eight digits are read at once: every byte in every place either reads as the digit it is, or makes the whole
    /// word no number.
    @Test func eightDigitsReadAtOnceAsTheirBytesOneByOne() {
        for place in 0..<8 {
            for byte in 0...255 {
                var bytes = Array(repeating: UInt8(ascii: "0"), count: 8)
                bytes[place] = UInt8(byte)
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self).littleEndian }
                let digit = byte < 0x80 ? UInt32(String(UnicodeScalar(UInt8(byte))), radix: 16) : nil
                let expected = digit.map { $0 << UInt32(4 * (7 - place)) }
                #expect(MACAddress.hexValue(eightDigits: word) == expected, "byte \(byte) in place \(place)")
            }
        }
    }

    /// A byte that is no hex digit, in any place of any well-formed shape, is refused as the byte-by-byte reading
    /// refuses it, naming the byte.
    @Test func aWrongByteInAnyPlaceOfAWellFormedShapeIsNamed() {
        for shape in ["aa:bb:cc:dd:ee:ff", "aa-bb-cc-dd-ee-ff", "aabb.ccdd.eeff", "aabbccddeeff"] {
            for place in Array(shape.utf8).indices where Array(shape.utf8)[place] >= UInt8(ascii: "a") {
                for wrong in ["g", "G", "z", "@", "`", "/"] {
                    var bytes = Array(shape.utf8)
                    bytes[place] = Array(wrong.utf8)[0]
                    let result = bytes.withUnsafeBufferPointer { MACAddress.normalize($0) }
                    guard case .invalid(let reason) = result else {
                        Issue.record("\(String(decoding: bytes, as: UTF8.self)) read as \(result)")
                        continue
                    }
                    let named = reason.contains("\"\(wrong)\"")
                    #expect(named, "\(String(decoding: bytes, as: UTF8.self)): \(reason)")
                }
            }
            var high = Array(shape.utf8)
            high[0] = 0xE1
            #expect(high.withUnsafeBufferPointer { MACAddress.normalize($0) }.value == nil)
        }
    }
}
