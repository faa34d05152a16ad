import Testing

@testable import stocktake_bench

/// The report's metric lines line up, and notes sit under their metric.
struct MetricTableTests {
    @Test func labelsArePaddedAndNotesIndented() {
        var table = MetricTable()
        table.add("wall", "53.92 s")
        table.add("peak RSS", "5,012 MB")
        table.add("findings", "DIFFER: 1 not found, 0 not expected (3 expected, 2 found):")
        table.note(["not found: MISSING vt_tag=0000001 (row 2)"])
        #expect(
            table.text == """
                  wall      53.92 s
                  peak RSS  5,012 MB
                  findings  DIFFER: 1 not found, 0 not expected (3 expected, 2 found):
                                not found: MISSING vt_tag=0000001 (row 2)
                """)
    }
}
