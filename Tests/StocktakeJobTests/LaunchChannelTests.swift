import Foundation
import Testing

@testable import StocktakeJob

#if canImport(Glibc)
    import Glibc
#endif

/// The socket between `stocktake run` and a process the launcher forks: the request travels with the process's
/// standard input and output, and the process id comes back.
@Suite struct LaunchChannelTests {
    @Test func aRequestArrivesWithItsTwoDescriptors() throws {
        let (sender, receiver) = try #require(LaunchChannel.pair())
        defer {
            sender.close()
            receiver.close()
        }
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        try #require(pipe(&input) == 0 && pipe(&output) == 0)
        defer { for descriptor in input + output { close(descriptor) } }
        // A long environment, sent in several writes; it stays below the socket's buffer, since this one thread
        // sends all before it receives.
        let request = LaunchRequest(
            arguments: ["stocktake", "run-account"], environment: [String(repeating: "V", count: 60_000) + "=1"])

        #expect(sender.send(request, input: input[0], output: output[1]))
        let received = try #require(receiver.receiveRequest())
        defer {
            close(received.input)
            close(received.output)
        }

        #expect(received.request == request)
        // The descriptors are the pipes' ends: what goes into one pipe comes out of the received input, and what
        // the received output writes comes out of the other pipe.
        #expect(write(input[1], "in", 2) == 2)
        var bytes = [UInt8](repeating: 0, count: 2)
        #expect(read(received.input, &bytes, 2) == 2 && bytes == Array("in".utf8))
        #expect(write(received.output, "out", 3) == 3)
        bytes = [UInt8](repeating: 0, count: 3)
        #expect(read(output[0], &bytes, 3) == 3 && bytes == Array("out".utf8))
        #expect(fcntl(received.input, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aRequestWithoutDescriptorsIsRefusedAndWhatCameWithItClosed() throws {
        let (sender, receiver) = try #require(LaunchChannel.pair())
        defer {
            sender.close()
            receiver.close()
        }
        // Four length bytes with no descriptors, as a confused or hostile sender would send them.
        #expect(send(sender.socket, [4, 0, 0, 0], 4, 0) == 4)
        #expect(receiver.receiveRequest() == nil)
    }

    @Test func theProcessIdComesBack() throws {
        let (sender, receiver) = try #require(LaunchChannel.pair())
        defer {
            sender.close()
            receiver.close()
        }
        #expect(sender.send(process: 4_194_303))
        #expect(receiver.receiveProcess(waitingUpTo: 1) == 4_194_303)
    }

    @Test func noProcessIdWhenTheOtherEndClosesOrStaysSilent() throws {
        let (quiet, waiting) = try #require(LaunchChannel.pair())
        defer {
            quiet.close()
            waiting.close()
        }
        let started = Date()
        #expect(waiting.receiveProcess(waitingUpTo: 0.2) == nil)
        #expect(Date().timeIntervalSince(started) >= 0.2)

        let (closing, reading) = try #require(LaunchChannel.pair())
        defer { reading.close() }
        #expect(closing.send(process: 0))
        closing.close()
        // Zero is no process, and then the end of file.
        #expect(reading.receiveProcess(waitingUpTo: 1) == nil)
    }
}
