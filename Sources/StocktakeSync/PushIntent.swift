import Foundation

/// A push about to replace the central sheet, recorded in the account's state before the sheet is written.
///
/// If the job is killed between writing the sheet and recording the result, the next run finds the intent, pulls the
/// sheet, and tells from its fingerprint whether the push had completed, so the push is neither lost from the record
/// nor reported as pending when it was made.
public struct PushIntent: Codable, Sendable, Equatable {
    /// The run that pushed.
    public var runID: String
    /// Where it went: the sheet's location without secrets.
    public var target: String
    /// The pushed bytes' size and hash (`fingerprint(of:)`).
    public var fingerprint: String
    /// When the push started.
    public var started: Date

    public init(runID: String, target: String, fingerprint: String, started: Date) {
        self.runID = runID
        self.target = target
        self.fingerprint = fingerprint
        self.started = started
    }

    /// The size and 64-bit FNV-1a hash of `bytes`, as `"<size>-<16 hex digits>"`: what an intent records of the sheet
    /// it pushes, for the next night to compare with the sheet it pulls. Intents already recorded keep meaning the
    /// same, so the form never changes.
    public static func fingerprint(of bytes: [UInt8]) -> String {
        "\(bytes.count)-" + ContentHash.hex(ContentHash.fnv1a64(bytes))
    }
}
