import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The child side of ``AccountProcess``: what `stocktake run-account` does in the process that runs one account.
public enum AccountChild {
    /// Runs `account` as `options` say, under an address-space limit of `memoryLimitMB`, and returns its outcome.
    ///
    /// First it lowers `RLIMIT_AS` (only ever lowers it: a stricter inherited limit stays) and starts watching its
    /// standard input: the parent never writes to it, so end-of-file means the parent has ended, and the child ends
    /// too rather than finish an account nobody waits for.
    public static func run(account: String, options: NightlyRunOptions, memoryLimitMB: Int) -> AccountOutcome {
        watchParent()
        limitMemory(toMB: memoryLimitMB)
        return NightlyRun.runAccount(account, options: options) {
            FileHandle.standardOutput.write(Data((computedLine + "\n").utf8))
        }
    }

    /// The line the child writes, before its result line, once all that remains of its account is waiting for the
    /// disk: the parent then starts the next account (see ``AccountProcess``). It is not an outcome, so a child that
    /// ends after it without a result line still has none.
    static let computedLine = "computed; flushing"

    /// The outcome as the one JSON line the parent reads, without its newline.
    public static func resultLine(_ outcome: AccountOutcome) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers cannot fail.
        return String(decoding: (try? encoder.encode(outcome)) ?? Data(), as: UTF8.self)
    }

    /// Lowers the address-space limit to `megabytes` unless the inherited one is lower already.
    static func limitMemory(toMB megabytes: Int) {
        var limit = rlimit()
        guard getrlimit(AccountProcess.memoryResource, &limit) == 0 else { return }
        let bytes = rlim_t(megabytes) << 20
        guard limit.rlim_cur == rlim_t.max || bytes < limit.rlim_cur else { return }
        limit.rlim_cur = bytes
        _ = setrlimit(AccountProcess.memoryResource, &limit)
    }

    /// Ends this process when its standard input reaches end-of-file: the parent (which holds the only write end)
    /// has ended.
    static func watchParent() {
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(0, &byte, 1)
                if count == 0 || (count < 0 && errno != EINTR) { _exit(ExitStatus.temporaryFailure.rawValue) }
            }
        }
    }
}
