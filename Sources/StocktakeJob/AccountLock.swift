import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on an account's `lock` file, held while this object lives or until `unlock()`.
///
/// The lock keeps two overlapping runs (a slow night, a manual run, a second machine sharing the state folder) from
/// writing the same account. The kernel drops it when the process ends, so a killed run never leaves a stale lock.
public final class AccountLock: @unchecked Sendable {
    /// The lock file's path, `STATE/<account>/lock`.
    public let path: String
    private var descriptor: Int32
    private let guardLock = NSLock()

    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        unlock()
    }

    /// Whether the lock is still held.
    public var isHeld: Bool {
        guardLock.withLock { descriptor >= 0 }
    }

    /// Releases the lock; calling it again does nothing.
    public func unlock() {
        guardLock.withLock {
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }
}
