import StocktakeCore
import Testing

struct JSONTextTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("", #""""#),
        (#"say "hi""#, #""say \"hi\"""#),
        (#"C:\temp"#, #""C:\\temp""#),
        ("a\nb\r\nc\td", #""a\nb\r\nc\td""#),
        ("\u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}", #""\u0000\u0001\u0008\u000b\u000c\u001f""#),
        ("\u{7F} é → 😀", "\"\u{7F} é → 😀\""),
        ("/slash", #""/slash""#),
    ])
    func quotedEscapesWhatJSONRequires(value: String, json: String) {
        #expect(JSONText.quoted(value) == json)
    }

    @Test func arrays() {
        #expect(JSONText.array([]) == "[]")
        #expect(JSONText.array(["a", "b\"c", ""]) == #"["a","b\"c",""]"#)
    }

    @Test func objectsKeepTheirKeyOrder() {
        #expect(JSONText.object([]) == "{}")
        #expect(JSONText.object([("z", "1"), ("a", "\"x\""), ("m\n", "null")]) == #"{"z":1,"a":"x","m\n":null}"#)
    }

    @Test func indentedObjects() {
        #expect(JSONText.object([], indent: 2) == "{}")
        #expect(JSONText.object([("a", "1"), ("b", "[]")], indent: 0) == "{\n  \"a\": 1,\n  \"b\": []\n}")
        #expect(JSONText.object([("a", "1")], indent: 2) == "{\n    \"a\": 1\n  }")
    }

    @Test(arguments: [(1.23456, "1.235"), (2.0, "2.0"), (0.0004, "0.0"), (0.0005, "0.001"), (61.5, "61.5")])
    func secondsToTheMillisecond(value: Double, text: String) {
        #expect(JSONText.seconds(value) == text)
    }

    @Test func startsEmpty() {
        #expect(JSONText().text == "")
    }
}
