import StocktakeJob
import Testing

@Suite struct ShardTests {
    @Test func parsesIndexOverCount() {
        #expect(Shard("2/5") == Shard(index: 2, count: 5))
        #expect(Shard("5/5") == nil)
        #expect(Shard("-1/5") == nil)
        #expect(Shard("1/0") == nil)
        #expect(Shard("x") == nil)
    }

    @Test func theSplitIsStableAcrossMachinesAndNights() {
        // Pinned values of FNV-1a 64 modulo 4, computed outside Swift: the same account always lands in the same shard.
        let expected = ["vt-nis": 0, "acme-clinic": 2, "a": 0, "b": 1, "c": 2, "d": 3]
        for (name, shard) in expected {
            let account = AccountName(name)!
            #expect((0..<4).filter { Shard(index: $0, count: 4)!.contains(account) } == [shard], "\(name)")
        }
    }
}
