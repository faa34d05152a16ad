import Testing

@testable import StocktakeCore

@Suite("FindingID: short stable ids")
struct FindingIDTests {
    /// Ids are written into ledgers, acknowledgement sheets and mails: they must never change between versions.
    /// These values were computed once, outside Swift, from the documented hash (FNV-1a, then the MurmurHash3
    /// finalizer, the top 40 bits in Crockford's base 32).
    @Test func theIdOfAFixedCodeAndKeyIsPinned() {
        let missing = FindingID(code: .missing, key: "vt_tag=004513")
        #expect(missing.description == "4ET3-T8AG")
        #expect(missing.value == 153_347_760_464)
        #expect(FindingID(code: .sharedMAC, key: "mac_address=aa:bb:cc:dd:ee:01").description == "MEBJ-H3NF")
        #expect(FindingID(code: .fieldConflict, key: "vt_tag=004512|field=room").description == "M7JM-T6YR")
        #expect(FindingID(code: .missing, key: "vt_tag=004513|#2").description == "9T80-Q2W6")
    }

    @Test func theHashIsPinned() {
        #expect(FindingID.hash("x") == 0x06a4_f950_5be8_5405)
    }

    @Test func theCodeIsPartOfTheId() {
        #expect(FindingID(code: .missing, key: "vt_tag=004513") != FindingID(code: .unrecorded, key: "vt_tag=004513"))
        #expect(FindingID(code: .missing, key: "vt_tag=004513") != FindingID(code: .missing, key: "vt_tag=004514"))
    }

    @Test func theValueHasFortyBits() {
        for number in 0..<200 {
            let id = FindingID(code: .missing, key: "vt_tag=\(number)")
            #expect(id.value < 1 << 40)
        }
    }

    @Test func theFormatIsFourCharactersADashAndFourCharactersOfCrockfordsAlphabet() {
        let allowed = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        for number in 0..<500 {
            let text = FindingID(code: .sharedSerial, key: "serial_number=SN\(number)").description
            #expect(text.count == 9)
            #expect(Array(text)[4] == "-")
            let characters = text.filter { $0 != "-" }
            #expect(characters.count == 8)
            #expect(characters.allSatisfy(allowed.contains), "\(text)")
            #expect(!characters.contains(where: { "ILOU".contains($0) }), "\(text)")
        }
    }

    @Test func writesTheLowestAndHighestValues() throws {
        let zero = try #require(FindingID("0000-0000"))
        #expect(zero.value == 0)
        #expect(zero.description == "0000-0000")
        let top = try #require(FindingID("ZZZZ-ZZZZ"))
        #expect(top.value == (1 << 40) - 1)
        #expect(top.description == "ZZZZ-ZZZZ")
        let one = try #require(FindingID("0000-0001"))
        #expect(one.value == 1)
        #expect(try #require(FindingID("1000-0000")).value == 1 << 35)
    }

    @Test func parsesWhatItWrites() {
        for number in 0..<200 {
            let id = FindingID(code: .cnsReused, key: "cns_number=C\(number)")
            #expect(FindingID(id.description) == id)
        }
    }

    @Test func parsesLowerCaseAndWithoutTheDash() throws {
        let id = try #require(FindingID("F7K2-Q9MD"))
        #expect(id.description == "F7K2-Q9MD")
        #expect(FindingID("f7k2-q9md") == id)
        #expect(FindingID("F7K2Q9MD") == id)
        #expect(FindingID("f7k2q9md") == id)
        #expect(FindingID("F7k2-q9Md") == id)
    }

    @Test func readsIAndLAsOneAndOAsZero() throws {
        let id = try #require(FindingID("1010-AB10"))
        #expect(FindingID("I0I0-AB10") == id)
        #expect(FindingID("LOLO-ABLO") == id)
        #expect(FindingID("iolo-abio") == id)
        #expect(FindingID("IOLO-ABIO")?.description == "1010-AB10")
    }

    @Test(arguments: [
        "", "-", "F7K2-Q9M", "F7K2Q9M", "F7K2-Q9MDX", "F7K2Q9MDX", "F7K2-Q9MU", "F7K2-Q9Mu", "F7K2 Q9MD",
        " F7K2-Q9MD", "F7K2-Q9MD ", "F7K2_Q9MD", "F7K2-Q9M!", "F7K2-Q9MÉ", "F7K2-Q9M*",
    ])
    func rejectsWrongLengthsAndCharacters(text: String) {
        #expect(FindingID(text) == nil)
    }

    @Test func distanceCountsTheCharactersThatDiffer() throws {
        let id = try #require(FindingID("F7K2-Q9MD"))
        #expect(id.distance(to: id) == 0)
        #expect(id.distance(to: try #require(FindingID("F7K2-Q9ME"))) == 1)
        #expect(id.distance(to: try #require(FindingID("E7K2-Q9MD"))) == 1)
        #expect(id.distance(to: try #require(FindingID("7FK2-Q9MD"))) == 2)
        #expect(id.distance(to: try #require(FindingID("0000-0000"))) == 8)
        #expect(try #require(FindingID("0000-0000")).distance(to: id) == 8)
        // A character read as another one that sounds alike is still the same character.
        #expect(try #require(FindingID("1000-0000")).distance(to: try #require(FindingID("LOOO-OOOO"))) == 0)
    }

    @Test func idsOrderByValue() throws {
        let low = try #require(FindingID("0000-000Z"))
        let high = try #require(FindingID("0000-0010"))
        #expect(low < high)
        #expect(!(high < low))
        #expect([high, low].sorted() == [low, high])
    }
}
