/// Where one sheet lives and how to read and conditionally rewrite it.
///
/// Providers are values made from configuration; they hold no open connections.
public protocol SheetProvider: Sendable {
    /// Where the sheet is, without secrets, for messages.
    var location: String { get }
    /// Reads the sheet.
    func pull() throws(SyncError) -> PulledSheet
    /// Writes `bytes` back only if the sheet is still as `pulled` left it; otherwise throws `.changedSincePull`
    /// and writes nothing.
    func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError)
}
