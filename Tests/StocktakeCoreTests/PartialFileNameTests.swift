import StocktakeCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct PartialFileNameTests {
    @Test func namesAreHiddenAndCarryTheWritersPidAndARandomPart() {
        let names = PartialFileName(random: { 0xdead })
        #expect(names.make(for: "central.csv", pid: 4242) == ".central.csv.stocktake-4242-000000000000dead.partial")
        #expect(
            PartialFileName(random: { .max }).make(for: "run.json", pid: 1)
                == ".run.json.stocktake-1-ffffffffffffffff.partial")
        #expect(names.make(for: "central.csv").hasPrefix(".central.csv.stocktake-\(getpid())-"))
    }

    @Test func theSystemsNamesCannotBeGuessed() {
        let names = PartialFileName()
        let made = Set((0..<100).map { _ in names.make(for: "central.csv") })
        #expect(made.count == 100)
    }

    @Test func theWriterIsReadBackFromAName() {
        let name = PartialFileName().make(for: "central.csv", pid: 31337)
        #expect(PartialFileName.writer(of: name, for: "central.csv") == 31337)
        #expect(PartialFileName.writer(of: ".a.b.stocktake-2147483647-0123456789abcdef.partial", for: "a.b") == .max)
    }

    @Test func otherNamesHaveNoWriter() {
        let valid = ".central.csv.stocktake-4242-000000000000dead.partial"
        #expect(PartialFileName.writer(of: valid, for: "central.csv") == 4242)
        for name in [
            valid.replacingOccurrences(of: "central", with: "other"),
            "central.csv.partial-4242",
            ".central.csv.stocktake-4242-000000000000dead.partial~",
            ".central.csv.stocktake-4242-000000000000DEAD.partial",
            ".central.csv.stocktake-4242-00000000000dead.partial",
            ".central.csv.stocktake-4242000000000000dead.partial",
            ".central.csv.stocktake--000000000000dead.partial",
            ".central.csv.stocktake-04242-000000000000dead.partial",
            ".central.csv.stocktake-0-000000000000dead.partial",
            ".central.csv.stocktake-2147483648-000000000000dead.partial",
            ".central.csv.stocktake-12345678901-000000000000dead.partial",
            ".central.csv.stocktake-42x2-000000000000dead.partial",
        ] {
            #expect(PartialFileName.writer(of: name, for: "central.csv") == nil, "\(name)")
        }
        #expect(PartialFileName.writer(of: valid, for: "central") == nil)
    }
}
