import Testing

@testable import StocktakeCore

@Suite("CSVFieldTable: each shared text's CSV field, made once")
struct CSVFieldTableTests {
    /// Texts that a CSV field writes as they are, neutralizes, quotes, or both.
    static let texts = [
        "AP-515", "=SUM(A1)", "Doe, Jane", "say \"hi\"", "-80.4139", "-48V PoE", "+1", "@jdoe", "two\nlines",
        "=1,\"2\"", "\tindented", "é, ü", "x",
    ]

    @Test func eachFieldIsTheFieldCSVWriterWrites() {
        var table = SharedStringTable()
        for text in Self.texts { _ = table.index(of: text) }
        let fields = CSVFieldTable(table)
        for (index, text) in Self.texts.enumerated() {
            var output: [UInt8] = []
            fields.append(Int32(index), to: &output)
            #expect(String(decoding: output, as: UTF8.self) == CSVWriter.field(text), "\(text)")
        }
    }

    @Test func anEmptyCellAppendsNothing() {
        var table = SharedStringTable()
        _ = table.index(of: "AP-515")
        var output: [UInt8] = [1]
        CSVFieldTable(table).append(-1, to: &output)
        CSVFieldTable(SharedStringTable()).append(-1, to: &output)
        #expect(output == [1])
    }

    @Test func fieldsFollowOneAnotherWithoutSpillingIntoTheNext() {
        var table = SharedStringTable()
        for text in Self.texts { _ = table.index(of: text) }
        let fields = CSVFieldTable(table)
        var output: [UInt8] = []
        for index in Self.texts.indices.reversed() { fields.append(Int32(index), to: &output) }
        #expect(String(decoding: output, as: UTF8.self) == Self.texts.reversed().map(CSVWriter.field).joined())
    }
}
