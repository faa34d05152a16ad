import StocktakeCore
import Testing

struct SourceEntryTests {
    @Test func aBareLocationReadsTheFirstSheetInTheEncodingTheBytesShow() {
        let entry: SourceEntry = "scans/"
        #expect(entry == SourceEntry("scans/"))
        #expect(entry.location == "scans/")
        #expect(entry.sheets == .first)
        #expect(entry.encoding == nil)
        #expect(entry.description == "scans/")
    }

    @Test func keepsTheSheetsAndEncodingItIsGiven() {
        let entry = SourceEntry("aps.xlsx", sheets: .named("APs"), encoding: .windows1252)
        #expect(entry.sheets == .named("APs"))
        #expect(entry.encoding == .windows1252)
        #expect(entry != SourceEntry("aps.xlsx", sheets: .named("APs")))
        #expect(entry != SourceEntry("aps.xlsx", sheets: .named("aps"), encoding: .windows1252))
    }

    /// A pulled address is read from a local file with the entry's own way of reading it.
    @Test func relocatedKeepsHowItIsRead() {
        let entry = SourceEntry("https://files.example.edu/aps.xlsx", sheets: .all, encoding: .windows1252)
        let local = entry.relocated(to: "/tmp/pull/aps.xlsx")
        #expect(local == SourceEntry("/tmp/pull/aps.xlsx", sheets: .all, encoding: .windows1252))
        #expect(local.description == "/tmp/pull/aps.xlsx")
        #expect(entry.location == "https://files.example.edu/aps.xlsx")
    }
}
