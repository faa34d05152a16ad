import Testing

@testable import StocktakeCore

@Suite("SourceLists: each set of files' sources cell, made once")
struct SourceListsTests {
    @Test func eachSetOfFilesIsMadeOnceAndSetsDoNotMix() {
        var lists = SourceLists()
        var made: [UInt64] = []
        func list(_ files: UInt64) -> String {
            lists.list(of: files) {
                made.append(files)
                return (0..<64).filter { files & (1 << UInt64($0)) != 0 }.map { "f\($0).csv" }.joined(separator: "; ")
            }
        }
        #expect(list(0b1) == "f0.csv")
        #expect(list(0b101) == "f0.csv; f2.csv")
        #expect(list(0b1) == "f0.csv")
        #expect(list(1 << 62 | 1) == "f0.csv; f62.csv")
        #expect(list(0b101) == "f0.csv; f2.csv")
        #expect(made == [0b1, 0b101, 1 << 62 | 1])
        // Many sets, each asked twice: every one is still its own.
        for files in UInt64(1)...300 { #expect(list(files) == list(files)) }
        #expect(list(0b110) == "f1.csv; f2.csv")
        #expect(made.count == 300 + 1)
        // All 64 files, and the last alone: both are sets of their own.
        #expect(list(UInt64.max).hasSuffix("f62.csv; f63.csv"))
        #expect(list(1 << 63) == "f63.csv")
        #expect(list(UInt64.max) == list(UInt64.max))
        #expect(made.count == 300 + 3)
    }
}
