import Foundation
import StocktakeJob
import Testing

@Suite struct PendingPushTests {
    private let pending = PendingPush(
        since: Date(timeIntervalSince1970: 1_795_400_100), runID: "20261123T021500Z",
        target: "https://sheets.example.org/d/central", reason: "the server answered 503 Service Unavailable")

    @Test func aRecordedPushReadsBack() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        #expect(state.pendingPush == nil)
        try state.recordPendingPush(pending)
        #expect(state.pendingPush == pending)
        let data = try #require(FileManager.default.contents(atPath: state.pendingPushPath))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(
            object == [
                "since": "2026-11-23T02:15:00Z", "runID": "20261123T021500Z",
                "target": "https://sheets.example.org/d/central",
                "reason": "the server answered 503 Service Unavailable",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path) == ["pending-push.json"])
    }

    @Test func aNewRecordReplacesTheOld() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        try state.recordPendingPush(pending)
        var later = pending
        later.runID = "20261124T021500Z"
        later.reason = "the central sheet changed since it was pulled"
        try state.recordPendingPush(later)
        #expect(state.pendingPush == later)
    }

    @Test func clearingForgetsIt() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        try state.clearPendingPush()
        try state.recordPendingPush(pending)
        try state.clearPendingPush()
        #expect(state.pendingPush == nil)
        #expect(TemporaryStateRoot.mode(of: state.pendingPushPath) == nil)
    }

    @Test(arguments: [
        "{\"since\": ", "", "{\"since\": \"yesterday\", \"runID\": \"r\", \"target\": \"t\", \"reason\": \"x\"}",
    ])
    func aCorruptRecordIsNoPendingPush(text: String) throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        try state.recordPendingPush(pending)
        #expect(FileManager.default.createFile(atPath: state.pendingPushPath, contents: Data(text.utf8)))
        #expect(state.pendingPush == nil)
    }
}
