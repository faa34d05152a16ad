import Dispatch
import Testing

@testable import StocktakeJob

@Suite("An account's place among the --parallel ones")
struct AccountSlotTests {
    /// A place given back twice (when the child finished computing, then at its outcome) comes back once.
    @Test func aPlaceComesBackOnceHoweverOftenItIsGivenBack() {
        let gate = DispatchSemaphore(value: 0)
        let slot = AccountSlot(taken: gate)
        slot.giveBack()
        slot.giveBack()
        #expect(gate.wait(timeout: .now()) == .success)
        #expect(gate.wait(timeout: .now()) == .timedOut)
    }

    /// Given back from two threads at once, the place still comes back exactly once.
    @Test func aPlaceGivenBackFromTwoThreadsComesBackOnce() {
        for _ in 0..<200 {
            let gate = DispatchSemaphore(value: 0)
            let slot = AccountSlot(taken: gate)
            DispatchQueue.concurrentPerform(iterations: 2) { _ in slot.giveBack() }
            #expect(gate.wait(timeout: .now()) == .success)
            #expect(gate.wait(timeout: .now()) == .timedOut)
        }
    }
}
