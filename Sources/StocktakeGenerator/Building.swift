/// A campus building of the generated account: its code, name, position and installer zone.
struct Building: Sendable, Hashable {
    /// The short code used in most sheets, such as `ABH`.
    var code: String
    /// The full name, such as `Alder Hall`.
    var name: String
    /// Latitude in millionths of a degree.
    var latitudeMicrodegrees: Int
    /// Longitude in millionths of a degree.
    var longitudeMicrodegrees: Int
    /// The installer zone (1 to 6) whose survey sheet scans this building.
    var zone: Int
}
