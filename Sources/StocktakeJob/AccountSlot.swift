import Dispatch
import Foundation

/// One of the run's `--parallel` places for an account, given back exactly once: when the account's process says it
/// only waits for the disk, or when its outcome is known, whichever comes first.
///
/// An account's last few milliseconds are flushes of its files; the next account starting then fills the core the
/// flushes leave idle, and the place comes back before the process has ended. Giving back twice would let one more
/// account compute than `--parallel` allows, so later calls do nothing.
final class AccountSlot: @unchecked Sendable {
    private let gate: DispatchSemaphore
    private let lock = NSLock()
    private var isHeld = true

    /// A place taken from `gate` (the caller has waited on it).
    init(taken gate: DispatchSemaphore) {
        self.gate = gate
    }

    /// Gives the place back to the gate the first time; does nothing after.
    func giveBack() {
        lock.lock()
        let wasHeld = isHeld
        isHeld = false
        lock.unlock()
        if wasHeld { gate.signal() }
    }
}
