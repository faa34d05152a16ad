/// A sheet as pulled, and what identifies this version of it for a conditional push.
public struct PulledSheet: Sendable, Hashable {
    /// The sheet as pulled: CSV or TSV text, or an `.xlsx` workbook's bytes.
    public var bytes: [UInt8]
    /// A file name for it (`central.csv`, `central.xlsx`); its extension tells the reader the delimiter.
    public var fileName: String
    /// What the server calls this version: an ETag, a Drive version, or a fingerprint of the content.
    public var version: String?
    /// Where it came from, without secrets, for messages.
    public var location: String

    public init(bytes: [UInt8], fileName: String, version: String?, location: String) {
        self.bytes = bytes
        self.fileName = fileName
        self.version = version
        self.location = location
    }
}
