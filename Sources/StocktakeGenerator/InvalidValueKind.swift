/// The kinds of injected `INVALID_VALUE`.
enum InvalidValueKind: String, CaseIterable, Sendable, Hashable {
    /// A survey MAC with 11 hex digits.
    case shortMAC
    /// A legacy tag in scientific notation; the row still joins its asset by serial.
    case scientificTag
    /// A survey GPS position with a latitude beyond 90 degrees.
    case gpsOutOfRange
    /// A survey scan date that does not exist, such as 13/45/2025.
    case impossibleDate
}
