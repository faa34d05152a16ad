import Foundation
import Testing

@testable import StocktakeSync

/// What a push's intent records of the sheet it pushes: a form the next night compares with, so it never changes.
@Suite struct PushIntentTests {
    @Test func fingerprintIsSizeAndFNV1a() {
        #expect(PushIntent.fingerprint(of: []) == "0-cbf29ce484222325")
        #expect(PushIntent.fingerprint(of: Array("a".utf8)) == "1-af63dc4c8601ec8c")
        #expect(PushIntent.fingerprint(of: Array("asset,room\nVT-0001,A-101\n".utf8)) == "25-7e453695f6c8aea2")
    }

    /// An intent written by an earlier version reads back as it was written.
    @Test func anIntentRoundTripsThroughJSON() throws {
        let intent = PushIntent(
            runID: "20261129T010000Z", target: "/srv/sheets/central.csv", fingerprint: "25-7e453695f6c8aea2",
            started: Date(timeIntervalSince1970: 1_795_000_000))
        let data = try JSONEncoder().encode(intent)
        #expect(try JSONDecoder().decode(PushIntent.self, from: data) == intent)
    }
}
