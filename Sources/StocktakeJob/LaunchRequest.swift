/// What the account launcher's new process needs to become an account's process: its command line and its whole
/// environment, as `execve` would have been given them.
///
/// The request travels from `stocktake run` straight to the new process over a socket of its own; the launcher
/// itself never reads it, so no account's token ever passes through the launcher's memory into a later account's
/// process.
struct LaunchRequest: Equatable {
    /// The command line, the program first: `…/stocktake run-account …`.
    var arguments: [String]
    /// Every variable, as `NAME=VALUE`.
    var environment: [String]

    /// The largest request accepted, far above any real one (a command line and an environment).
    static let maximumSize = 4 << 20

    /// The request as bytes: for each list, its count (4 bytes, little-endian), then each string followed by a NUL.
    /// `nil` when a string holds a NUL, which no command line or environment can carry.
    func encoded() -> [UInt8]? {
        var bytes: [UInt8] = []
        for list in [arguments, environment] {
            Self.append(UInt32(list.count), to: &bytes)
            for string in list {
                let utf8 = Array(string.utf8)
                if utf8.contains(0) { return nil }
                bytes += utf8
                bytes.append(0)
            }
        }
        return bytes
    }

    /// The request `bytes` encode; `nil` when they are not exactly one encoded request.
    init?(decoding bytes: [UInt8]) {
        var position = 0
        func list() -> [String]? {
            guard position + 4 <= bytes.count else { return nil }
            var count = 0
            for shift in 0..<4 { count |= Int(bytes[position + shift]) << (8 * shift) }
            position += 4
            var strings: [String] = []
            for _ in 0..<count {
                guard let end = bytes[position...].firstIndex(of: 0) else { return nil }
                strings.append(String(decoding: bytes[position..<end], as: UTF8.self))
                position = end + 1
            }
            return strings
        }
        guard let arguments = list(), let environment = list(), position == bytes.count else { return nil }
        self.arguments = arguments
        self.environment = environment
    }

    init(arguments: [String], environment: [String]) {
        self.arguments = arguments
        self.environment = environment
    }

    /// Appends `value` as 4 little-endian bytes.
    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(shift)))) }
    }
}
