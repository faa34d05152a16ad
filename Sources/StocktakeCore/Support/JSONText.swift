/// Builds JSON text with keys in the order they are written, for output people read and tools parse.
public struct JSONText {
    public private(set) var text = ""

    public init() {}

    /// A JSON string literal for `value`.
    public static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A JSON array of strings.
    public static func array(_ values: [String]) -> String {
        "[" + values.map(quoted).joined(separator: ",") + "]"
    }

    /// A JSON object from ordered key/raw-JSON-value pairs.
    public static func object(_ pairs: [(String, String)], indent: Int? = nil) -> String {
        guard let indent else {
            return "{" + pairs.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }
        let inner = String(repeating: " ", count: indent + 2)
        let outer = String(repeating: " ", count: indent)
        guard !pairs.isEmpty else { return "{}" }
        return "{\n" + pairs.map { inner + quoted($0.0) + ": " + $0.1 }.joined(separator: ",\n") + "\n" + outer + "}"
    }

    /// A JSON number for a duration in seconds, to the millisecond.
    public static func seconds(_ value: Double) -> String {
        let milliseconds = (value * 1000).rounded()
        return String(milliseconds / 1000)
    }
}
