import Dispatch
import Testing

@testable import StocktakeCore

struct RowBudgetTests {
    @Test func rowsUpToTheLimitPassAndOneMoreDoesNot() {
        let budget = RowBudget(limit: 10, account: "acme")
        #expect(budget.add(4))
        #expect(budget.add(6))
        #expect(!budget.add(1))
        budget.remove(1)
        #expect(budget.add(0))
        #expect(budget.account == "acme")
    }

    /// Readers of parts add at the same time: every row is counted once.
    @Test func readersAddingTogetherCountEveryRow() {
        let budget = RowBudget(limit: 8_000)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { _ = budget.add(1) }
        }
        #expect(!budget.add(1))
        budget.remove(1)
        #expect(budget.add(0))
    }
}
