import Testing

@testable import StocktakeCore

@Suite struct SimulatedFailureTests {
    @Test func aListIsReadInTheUsualOrderWithoutRepeats() throws {
        #expect(try SimulatedFailure.list("lock,push, disk-full,push") == [.push, .diskFull, .lock])
        #expect(try SimulatedFailure.list("timeout") == [.timeout])
    }

    @Test(arguments: ["pushh", "disk_full", "", "PUSH"])
    func aNameThatIsNotAKindIsThrown(name: String) {
        #expect(throws: SimulatedFailure.UnknownName(name: name)) { try SimulatedFailure.list("push,\(name)") }
    }

    @Test func theAcceptedKindsAreListedAsUsersWriteThem() {
        #expect(SimulatedFailure.accepted == "pull, push, upload, token, timeout, disk-full, lock")
    }
}
