import Foundation
import Testing

@testable import stocktake_bench

/// run.json as the benchmark reads it: rows, phases in the order the run lists them, counts.
struct RunRecordDigestTests {
    static let record = """
        {
          "account": "m1",
          "inputs": [
            {"file":"central.csv","path":"m1/central.csv","role":"central","rows":1000,"unmapped":[]},
            {"file":"survey \\"1\\".csv","path":"m1/s.csv","role":"sighting","rows":250,"unmapped":["AP Name"]}
          ],
          "counts": {
            "assets": 1002,
            "discrepancies": {
              "MISSING": 2,
              "STALE": 3
            }
          },
          "durations": {
            "read": 4.766,
            "identify": 0.5,
            "merge": 0.25,
            "reconcile": 17.631,
            "write": 2.53,
            "total": 25.677
          },
          "push": []
        }
        """

    @Test func readsRowsPhasesInTheirOrderAndCounts() throws {
        let digest = try RunRecordDigest(data: Data(Self.record.utf8), path: "run.json")
        #expect(digest.rows == 1250)
        #expect(digest.inputs == 2)
        #expect(digest.assets == 1002)
        #expect(digest.discrepancies == ["MISSING": 2, "STALE": 3])
        #expect(digest.phases.map(\.name) == ["read", "identify", "merge", "reconcile", "write", "total"])
        #expect(digest.phases.map(\.seconds) == [4.766, 0.5, 0.25, 17.631, 2.53, 25.677])
    }

    @Test func aRecordWithoutDurationsOrNotJSONIsRefused() throws {
        #expect(throws: BenchError.cannotRead(path: "run.json", reason: "it is not a JSON object")) {
            try RunRecordDigest(data: Data("[1".utf8), path: "run.json")
        }
        #expect(throws: BenchError.cannotRead(path: "run.json", reason: "it lacks inputs, counts or durations")) {
            try RunRecordDigest(data: Data(#"{"inputs": [], "counts": {}}"#.utf8), path: "run.json")
        }
        #expect(throws: BenchError.cannotRead(path: "/nonexistent/run.json", reason: "the run left no run.json")) {
            try RunRecordDigest(path: "/nonexistent/run.json")
        }
    }
}
