import Foundation

/// Takes an account's secrets out of text that came from a server, before the text is shown or stored.
///
/// A server may echo what it was sent: the bearer token in a 400's text, a refresh token in an OAuth error, a
/// presigned URL's signature in a 409. Each secret is replaced by `[redacted]` wherever it appears as it is,
/// percent-encoded (any mix of encoded and plain bytes, hex digits in either case, `+` for a space) or with its
/// slashes JSON-escaped (`\/`). The text is compared as bytes, so the work is linear in its length for each secret.
public struct SecretScrubber: Sendable {
    /// What a secret is replaced with.
    public static let replacement = "[redacted]"
    /// Secrets shorter than this many bytes are left alone: no real token or signature is that short, and
    /// replacing every `abc` of a message would garble it.
    public static let minimumLength = 4
    /// Query values shorter than this many bytes are taken for settings (`3600`, `media`), not signatures.
    public static let minimumQueryValueLength = 8

    /// The secrets, longest first, so a secret that contains another is replaced whole.
    public let secrets: [[UInt8]]

    public init(secrets: some Sequence<String>) {
        let unique = Set(secrets.map { Array($0.utf8) }.filter { $0.count >= Self.minimumLength })
        self.secrets = unique.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
    }

    /// The values of `url`'s query that may be secrets (the signature and credential of a presigned URL),
    /// percent-decoded.
    public static func queryValues(of url: EndpointURL) -> [String] {
        guard let mark = url.pathAndQuery.firstIndex(of: "?") else { return [] }
        let query = url.pathAndQuery[url.pathAndQuery.index(after: mark)...]
        return query.split(separator: "&").compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let raw = String(pair[pair.index(after: equals)...])
            let value = raw.removingPercentEncoding ?? raw
            return value.utf8.count >= minimumQueryValueLength ? value : nil
        }
    }

    /// `text` with every secret replaced by `[redacted]`.
    public func scrub(_ text: String) -> String {
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        var changed = false
        scan: while position < bytes.count {
            for secret in secrets {
                if let end = Self.match(secret, in: bytes, at: position) {
                    result.append(contentsOf: Self.replacement.utf8)
                    position = end
                    changed = true
                    continue scan
                }
            }
            result.append(bytes[position])
            position += 1
        }
        return changed ? String(decoding: result, as: UTF8.self) : text
    }

    /// Where a spelling of `secret` that starts at `start` ends in `text`, or `nil` when none starts there.
    static func match(_ secret: [UInt8], in text: [UInt8], at start: Int) -> Int? {
        var position = start
        for byte in secret {
            guard position < text.count else { return nil }
            let current = text[position]
            if current == byte {
                position += 1
            } else if current == UInt8(ascii: "%"), position + 2 < text.count,
                let high = hexValue(text[position + 1]), let low = hexValue(text[position + 2]), high << 4 | low == byte
            {
                position += 3
            } else if byte == UInt8(ascii: " "), current == UInt8(ascii: "+") {
                position += 1
            } else if byte == UInt8(ascii: "/"), current == UInt8(ascii: "\\"), position + 1 < text.count,
                text[position + 1] == byte
            {
                position += 2
            } else {
                return nil
            }
        }
        return position
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
