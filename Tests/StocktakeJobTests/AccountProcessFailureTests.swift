import Glibc
import Testing

@testable import StocktakeJob

struct AccountProcessFailureTests {
    @Test(arguments: [
        (AccountProcessFailure.memoryLimit(megabytes: 2048), "ran out of its 2,048 MB memory limit"),
        (.memoryLimit(megabytes: 1_048_576), "ran out of its 1,048,576 MB memory limit"),
        (.memoryLimit(megabytes: 512), "ran out of its 512 MB memory limit"),
        (.timeLimit(minutes: 30), "ran out of its 30-minute time limit"),
        (.timeLimit(minutes: 1440), "ran out of its 1,440-minute time limit"),
        (.timeLimit(minutes: 0.05), "ran out of its 3-second time limit"),
        (.timeLimit(minutes: 1.5), "ran out of its 90-second time limit"),
        (.crashed(signal: SIGABRT), "its process crashed (signal 6, SIGABRT)"),
        (.crashed(signal: SIGSEGV), "its process crashed (signal 11, SIGSEGV)"),
        (.crashed(signal: 40), "its process crashed (signal 40)"),
        (.noResult(status: 3), "its process ended with status 3 without a result"),
        (
            .cannotStart(program: "/usr/bin/stocktake", code: ENOENT),
            "its process could not be started from /usr/bin/stocktake: No such file or directory"
        ),
    ])
    func theReasonSaysWhatRanOut(failure: AccountProcessFailure, reason: String) {
        #expect(failure.description == reason)
    }

    @Test func theAdviceNamesTheKeyToRaise() {
        #expect(AccountProcessFailure.memoryLimit(megabytes: 2048).advice.contains("rules.maxMemoryMB"))
        #expect(AccountProcessFailure.timeLimit(minutes: 60).advice.contains("rules.maxMinutes"))
    }
}
