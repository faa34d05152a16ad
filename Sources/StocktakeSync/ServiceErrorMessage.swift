import Foundation

/// Turns the error body of a web API into one short line for a user.
///
/// Understands Google's `{"error":{"code","message","status"}}`, Microsoft Graph's `{"error":{"code","message"}}`,
/// OAuth's `{"error","error_description"}`, and short plain-text bodies. Never returns HTML or more than one line.
public enum ServiceErrorMessage {
    /// The summary of `response`'s body, or "" when it says nothing useful.
    public static func summary(of response: HTTPResponse) -> String {
        summary(ofBody: response.body, contentType: response.header("content-type") ?? "")
    }

    /// The summary of an error body.
    public static func summary(ofBody body: [UInt8], contentType: String) -> String {
        if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
            if let error = object["error"] as? [String: Any] {
                let message = (error["message"] as? String) ?? ""
                let code = (error["status"] as? String) ?? (error["code"] as? String) ?? ""
                return clip([code, message].filter { !$0.isEmpty }.joined(separator: ": "))
            }
            if let error = object["error"] as? String {
                let description = (object["error_description"] as? String) ?? ""
                return clip([error, description].filter { !$0.isEmpty }.joined(separator: ": "))
            }
            if let message = object["message"] as? String { return clip(message) }
            return ""
        }
        let text = String(decoding: body.prefix(400), as: UTF8.self)
        if contentType.contains("html") || text.contains("<") { return "" }
        return clip(text)
    }

    private static func clip(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        return line.count > 200 ? String(line.prefix(197)) + "..." : line
    }
}
