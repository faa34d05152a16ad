#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names of the temporary files `AtomicFileWriter` writes before renaming them over their target:
/// `.<name>.stocktake-<pid>-<16 hex digits>.partial`, hidden, next to the target.
///
/// The random part makes the name impossible to guess, so nobody can plant a link under it in a shared folder
/// beforehand. The writer's process id lets a later run tell a partial file left by a killed writer (its process is
/// gone) from one that another process is writing right now.
public struct PartialFileName: Sendable {
    /// Where the random part comes from: the system's random source, unless a test needs names that collide.
    public var random: @Sendable () -> UInt64

    /// Names made with random parts from `random` (the system's random source by default).
    public init(random: @escaping @Sendable () -> UInt64 = { UInt64.random(in: .min ... .max) }) {
        self.random = random
    }

    /// A new name for a partial file of the file called `name` (a name, not a path), written by process `pid`.
    public func make(for name: String, pid: pid_t = getpid()) -> String {
        let hex = String(random(), radix: 16)
        return Self.prefix(for: name) + "\(pid)-" + String(repeating: "0", count: 16 - hex.count) + hex + Self.suffix
    }

    /// The process id of the writer when `candidate` is the name of a partial file of the file called `name`, else
    /// `nil` (other files, even similar ones, are not partial files of `name`).
    public static func writer(of candidate: String, for name: String) -> pid_t? {
        let bytes = Array(candidate.utf8)
        let prefix = Array(Self.prefix(for: name).utf8)
        let suffix = Array(Self.suffix.utf8)
        guard bytes.count > prefix.count + suffix.count, bytes.starts(with: prefix), bytes.hasSuffix(suffix) else {
            return nil
        }
        let middle = bytes[prefix.count..<(bytes.count - suffix.count)]
        guard let dash = middle.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let digits = middle[..<dash]
        let random = middle[(dash + 1)...]
        guard (1...10).contains(digits.count), digits.allSatisfy(isDigit), digits.first != UInt8(ascii: "0"),
            random.count == 16, random.allSatisfy(isHexDigit)
        else { return nil }
        let pid = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        return pid <= Int64(pid_t.max) ? pid_t(pid) : nil
    }

    private static let suffix = ".partial"

    private static func prefix(for name: String) -> String {
        "." + name + ".stocktake-"
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }
}

extension Array where Element == UInt8 {
    fileprivate func hasSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
