import StocktakeCore
import Testing

@testable import StocktakeSync

@Suite("Run refusals: what a refused night tells the sysadmin")
struct RunRefusalTests {
    static let baseline = CentralBaseline(
        rows: 2970, date: InventoryDate(year: 2026, month: 10, day: 31)!, runID: "20261031T021500Z")

    @Test func aShrunkenSheetGivesBothCountsAndTheWayOut() {
        let refusal = RunRefusal.centralShrank(
            account: "acme", location: "https://dav.example.org/central.csv", rows: 297, baseline: Self.baseline,
            limit: 0.2)
        #expect(
            refusal.description
                == "Account acme: the central sheet https://dav.example.org/central.csv has 297 rows, 2,970 on "
                + "2026-10-31 (more than the 20 % rules.maxShrink allows): not reconciled or pushed; check the sheet or "
                + "run with --accept-shrink.")
        #expect(refusal.exitStatus == .dataError)
    }

    @Test func everyRefusalButACutTransferIsBadData() {
        #expect(RunRefusal.centralEmpty(account: "a", location: "c.csv").exitStatus == .dataError)
        #expect(
            RunRefusal.sourceEmpty(account: "a", role: .sighting, location: "scans/", files: 0).exitStatus == .dataError
        )
        #expect(RunRefusal.tooManyMissing(account: "a", missing: 2, central: 3, limit: 0.5).exitStatus == .dataError)
        let cut = RunRefusal.incompleteTransfer(account: "a", location: "https://h/c.csv", problem: "p", attempts: 2)
        #expect(cut.exitStatus == .unavailable)
        #expect(
            cut.description == "Account a: https://h/c.csv arrived incomplete twice and was not reconciled or pushed; p"
        )
    }

    @Test func missingSharesReadAsPeopleWriteThem() {
        let refusal = RunRefusal.tooManyMissing(account: "vt-nis", missing: 2991, central: 3000, limit: 0.5)
        #expect(
            refusal.description
                == "Account vt-nis: 2,991 of 3,000 central assets (99.7 %) were seen by no sighting, more than the 50 % "
                + "rules.maxMissingShare allows: not pushed; check that every sighting source is complete.")
        #expect(RunRefusal.percent(0.125) == "12.5 %")
        #expect(RunRefusal.percent(1) == "100 %")
        #expect(RunRefusal.percent(0) == "0 %")
    }

    @Test func aSourceWithOnlyHeadersCountsItsFiles() {
        #expect(
            RunRefusal.sourceEmpty(account: "acme", role: .register, location: "regs/", files: 1).description
                == "Account acme: the register source regs/ has no data rows in 1 file: not reconciled or pushed; "
                + "check that the share is mounted and the sheets are exported there.")
    }
}
