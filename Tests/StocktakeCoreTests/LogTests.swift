import Foundation
import Testing

@testable import StocktakeCore

@Suite("Log")
struct LogTests {
    /// 2026-11-24T02:15:00Z.
    static let date = Date(timeIntervalSince1970: 1_795_486_500)

    @Test func aLineHasTheTimeTheAccountAndTheMessage() {
        #expect(
            Log(account: "vt-nis").line("read central.csv: 2 rows, 0 problems", at: Self.date)
                == "2026-11-24T02:15:00Z [vt-nis] read central.csv: 2 rows, 0 problems\n")
    }

    @Test func aMessageQuotingAHeaderCellStaysOneLine() {
        let header = "Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\u{1B}[2J"
        let line = Log(account: "victim").line("failed: the columns are \"\(header)\"", at: Self.date)
        #expect(
            line
                == "2026-11-24T02:15:00Z [victim] failed: the columns are "
                + #""Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\x1B[2J""# + "\n")
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    @Test func theAccountIsEscapedToo() {
        #expect(
            Log(account: "a\rb\u{85}").line("ok", at: Self.date) == #"2026-11-24T02:15:00Z [a\rb\u{85}] ok"# + "\n")
    }
}
