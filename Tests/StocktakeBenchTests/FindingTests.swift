import Foundation
import Testing

@testable import stocktake_bench

/// Findings files: a run's discrepancies.csv and a generator's expected.csv, read by their header.
struct FindingTests {
    let runner = BenchRunner()

    @Test func readsARunsDiscrepanciesByTheirHeader() throws {
        let path = runner.path("discrepancies.csv")
        try Data(
            """
            code,severity,vt_tag,cns_number,serial_number,mac_address,field,value,expected,sources,message
            MISSING,error,0002759,C6520423,SG37,94:b4:0f:54:46:b3,,,,central.csv:9,"VT tag 0002759, missing"

            FIELD_CONFLICT,warning,0000001,,,,room,101,102,a.csv:2,rooms differ

            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        let findings = try Finding.read(path: path)
        #expect(
            findings == [
                Finding(
                    code: "MISSING", severity: "error",
                    cells: ["0002759", "C6520423", "SG37", "94:b4:0f:54:46:b3", "", "", ""],
                    text: "VT tag 0002759, missing"),
                Finding(
                    code: "FIELD_CONFLICT", severity: "warning", cells: ["0000001", "", "", "", "room", "101", "102"],
                    text: "rooms differ"),
            ])
    }

    @Test func readsAGeneratorsExpectationsWithTheirNotes() throws {
        let path = runner.path("expected.csv")
        try Data(
            """
            code,severity,vt_tag,cns_number,serial_number,mac_address,field,value,expected,note
            CNS_REUSED,error,,C0003410,,,,,,central gives two tags the same CNS number

            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        #expect(
            try Finding.read(path: path) == [
                Finding(
                    code: "CNS_REUSED", severity: "error", cells: ["", "C0003410", "", "", "", "", ""],
                    text: "central gives two tags the same CNS number")
            ])
        #expect(try Finding.read(path: path)[0].label == "CNS_REUSED cns_number=C0003410")
    }

    @Test func aFileWithoutACodeColumnOrMissingIsRefused() throws {
        let path = runner.path("other.csv")
        try Data("tag,value\n1,2\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: BenchError.cannotRead(path: path, reason: "its header has no code column")) {
            try Finding.read(path: path)
        }
        let empty = runner.path("empty.csv")
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(throws: BenchError.cannotRead(path: empty, reason: "it is empty")) { try Finding.read(path: empty) }
        let missing = runner.path("missing.csv")
        #expect(throws: BenchError.cannotRead(path: missing, reason: "it does not exist")) {
            try Finding.read(path: missing)
        }
    }
}
