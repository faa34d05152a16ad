/// One row of an account's buildings table: a building's short code, its name, and optionally where it is.
public struct Building: Hashable, Sendable {
    /// The canonical code written in the cleaned table, such as `TORG`.
    public let code: String
    /// The building's name, such as `Torgersen Hall`; sheets may use it instead of the code.
    public let name: String
    /// The building's latitude in decimal degrees, when known.
    public let latitude: Double?
    /// The building's longitude in decimal degrees, when known.
    public let longitude: Double?

    /// Creates a building row.
    public init(code: String, name: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.code = code
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}
