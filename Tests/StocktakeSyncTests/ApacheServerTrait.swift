import Testing

/// Gives a suite one `ApacheServer`, started before its first test and stopped after its last, even when a test
/// fails; the suite's tests reach it as `ApacheServer.current`.
///
/// Use together with `.enabled(if: ApacheServer.isEnabled)` and `.serialized`.
struct ApacheServerTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try ApacheServer.start()
        defer { server.stop() }
        try await ApacheServer.$current.withValue(server) {
            try await function()
        }
    }
}

extension Trait where Self == ApacheServerTrait {
    /// One private Apache httpd with mod_dav over TLS for the whole suite.
    static var apacheServer: Self { Self() }
}
