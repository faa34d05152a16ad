import Foundation
import StocktakeJob
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct AccountLockTests {
    @Test func aSecondLockFailsWhileTheFirstIsHeld() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let first = try #require(try state.lock())
        #expect(first.path == state.path + "/lock")
        #expect(first.isHeld)
        #expect(TemporaryStateRoot.mode(of: state.path) == 0o700)
        #expect(TemporaryStateRoot.mode(of: first.path) == 0o600)
        #expect(try state.lock() == nil)
        first.unlock()
        #expect(!first.isHeld)
        let second = try state.lock()
        #expect(second?.isHeld == true)
        first.unlock()
        #expect(try state.lock() == nil)
    }

    @Test func releasingTheLockObjectUnlocks() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        var held = try state.lock()
        #expect(held != nil)
        #expect(try state.lock() == nil)
        held = nil
        #expect(try state.lock() != nil)
    }

    @Test func locksOfOtherAccountsAreIndependent() throws {
        let root = TemporaryStateRoot()
        let first = try root.state("vt-nis").lock()
        let second = try root.state("acme").lock()
        #expect(first != nil)
        #expect(second != nil)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func anotherProcessCannotTakeAHeldLock() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        var held = try state.lock()
        #expect(held != nil)
        #expect(Self.run("/usr/bin/flock", ["-n", state.lockPath, "true"]) == 1)
        held = nil
        #expect(Self.run("/usr/bin/flock", ["-n", state.lockPath, "true"]) == 0)
    }

    /// Runs a program to completion with `posix_spawn` (Foundation's `Process` can hang under the test runner) and
    /// returns its exit status, or `nil` when it could not be started or was killed.
    private static func run(_ program: String, _ arguments: [String]) -> Int32? {
        let argumentVector: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argumentVector { free(argument) } }
        var child = pid_t()
        guard posix_spawn(&child, program, nil, nil, argumentVector, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
    }
}
