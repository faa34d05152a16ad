/// A mistake on the command line, with a one-line message that says what to type instead.
struct UsageError: Error {
    /// The message, one sentence.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
