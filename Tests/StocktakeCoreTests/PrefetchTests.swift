import Foundation
import Testing

@testable import StocktakeCore

@Suite("Prefetch: fetching memory ahead in a large account")
struct PrefetchTests {
    @Test func paysOnlyForWhatOutgrowsACoresCache() {
        #expect(!Prefetch.pays(bytes: 0))
        #expect(!Prefetch.pays(bytes: Prefetch.cacheBytes))
        #expect(Prefetch.pays(bytes: Prefetch.cacheBytes + 1))
        #expect(IntegerTable(capacity: 20_000).outgrowsCache == false, "65,536 slots of 16 bytes: 1 MiB")
        #expect(IntegerTable(capacity: 40_000).outgrowsCache, "131,072 slots: 2 MiB")
    }

    /// The callers compute addresses they do not check: a prefetch of memory that is not mapped must not fault.
    @Test func anAddressThatIsNotMappedDoesNotFault() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try #require(mmap(nil, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(memory != MAP_FAILED)
        Prefetch.line(at: memory)
        munmap(memory, page)
        Prefetch.line(at: memory)
        Prefetch.line(at: UnsafeRawPointer(bitPattern: 8)!)
    }
}
