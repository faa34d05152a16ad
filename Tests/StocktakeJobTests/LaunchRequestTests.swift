import Testing

@testable import StocktakeJob

/// The command line and environment an account's process takes from `stocktake run` through the launcher's socket.
@Suite struct LaunchRequestTests {
    let request = LaunchRequest(
        arguments: ["/usr/bin/stocktake", "run-account", "--account=north", ""],
        environment: ["PATH=/usr/bin", "STOCKTAKE_TOKEN_NORTH=tök=en", "EMPTY="])

    @Test func aRequestComesBackAsItWasSent() throws {
        let bytes = try #require(request.encoded())
        #expect(LaunchRequest(decoding: bytes) == request)
    }

    @Test func theBytesAreCountsAndNulTerminatedStrings() throws {
        let bytes = try #require(LaunchRequest(arguments: ["a", "bc"], environment: ["X=1"]).encoded())
        #expect(bytes == [2, 0, 0, 0, 97, 0, 98, 99, 0, 1, 0, 0, 0, 88, 61, 49, 0])
    }

    @Test func aStringWithANulCannotBeSent() {
        #expect(LaunchRequest(arguments: ["run\0-account"], environment: []).encoded() == nil)
        #expect(LaunchRequest(arguments: [], environment: ["X=\0"]).encoded() == nil)
    }

    @Test func bytesThatAreNotExactlyOneRequestAreRefused() throws {
        let bytes = try #require(request.encoded())
        for cut in 0..<bytes.count {
            #expect(LaunchRequest(decoding: Array(bytes.prefix(cut))) == nil, "cut at \(cut)")
        }
        #expect(LaunchRequest(decoding: bytes + [0]) == nil)
        // A count far beyond the strings that follow.
        #expect(LaunchRequest(decoding: [255, 255, 255, 127, 97, 0]) == nil)
    }
}
