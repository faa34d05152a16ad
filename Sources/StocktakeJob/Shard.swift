/// One of N parts of the account list, so several machines (or a Kubernetes Indexed Job) can split the accounts.
///
/// An account belongs to shard `hash(name) mod N` with a fixed FNV-1a hash: the split is the same on every machine
/// and every night, and it does not change when other accounts are added.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether `account` is in this shard.
    public func contains(_ account: AccountName) -> Bool {
        Int(Self.hash(account.text) % UInt64(count)) == index
    }

    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
