import StocktakeSync
import Testing

@Suite struct SecretScrubberTests {
    static let token = "st-9f8e/Zq+Xy= z"

    @Test(arguments: [
        ("raw", "token st-9f8e/Zq+Xy= z rejected"),
        ("percent-encoded, upper-case hex", "token=st-9f8e%2FZq%2BXy%3D%20z rejected"),
        ("percent-encoded, lower-case hex", "token=st-9f8e%2fZq%2bXy%3d%20z rejected"),
        ("form-encoded, + for the space", "token=st-9f8e%2FZq%2BXy%3D+z rejected"),
        ("every byte encoded", "token=%73%74%2D%39%66%38%65%2F%5A%71%2B%58%79%3D%20%7A rejected"),
        ("slash JSON-escaped", "token st-9f8e\\/Zq+Xy= z rejected"),
    ])
    func everySpellingOfASecretIsReplaced(spelling: String, text: String) {
        let scrubbed = SecretScrubber(secrets: [Self.token]).scrub(text)
        #expect(scrubbed.hasSuffix("[redacted] rejected"), "\(spelling): \(scrubbed)")
        #expect(!scrubbed.contains("9f8e"), "\(spelling)")
    }

    @Test func everyOccurrenceOfEverySecretIsReplacedAndTheRestKept() {
        let scrubber = SecretScrubber(secrets: ["access-123", "refresh-456"])
        #expect(
            scrubber.scrub("a access-123 b refresh-456 c access-123é")
                == "a [redacted] b [redacted] c [redacted]é")
    }

    @Test func aLongerSecretContainingAShorterOneIsReplacedWhole() {
        let scrubber = SecretScrubber(secrets: ["abcd", "abcdefgh"])
        #expect(scrubber.scrub("x abcdefgh y abcd") == "x [redacted] y [redacted]")
    }

    @Test func textWithoutSecretsIsUnchanged() {
        let text = "Account acme: https://x.example.org/c.csv refused the push (409): 100% wrong + \\/ odd."
        #expect(SecretScrubber(secrets: ["s3cret-token"]).scrub(text) == text)
        #expect(SecretScrubber(secrets: []).scrub(text) == text)
    }

    @Test func secretsTooShortToBeRealAreLeftAlone() {
        #expect(SecretScrubber(secrets: ["abc", ""]).secrets.isEmpty)
        #expect(SecretScrubber(secrets: ["abc"]).scrub("abc abc") == "abc abc")
    }

    @Test func aPartialSecretAtTheEndIsKept() {
        #expect(SecretScrubber(secrets: ["s3cret-token"]).scrub("ends with s3cret-to") == "ends with s3cret-to")
        #expect(SecretScrubber(secrets: ["s3cret/token"]).scrub("ends with s3cret%2") == "ends with s3cret%2")
    }

    @Test func theLongQueryValuesOfAURLAreItsSecrets() throws {
        let url = try EndpointURL(
            "https://files.example.org/c.csv?X-Amz-Expires=3600&X-Amz-Signature=0a1b2c3d4e5f&sig=ab%2Fcd%2Bef%3D&flag")
        #expect(SecretScrubber.queryValues(of: url) == ["0a1b2c3d4e5f", "ab/cd+ef="])
        #expect(SecretScrubber.queryValues(of: try EndpointURL("https://files.example.org/c.csv")) == [])
    }
}
