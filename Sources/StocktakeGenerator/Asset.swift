/// One access point of the central sheet, with the true values every consistent source repeats.
struct Asset: Sendable {
    /// The VT tag as a number; canonical form pads it to the tag width.
    var tag: Int
    /// The CNS number as a number, or `nil` when the device has none.
    var cns: Int?
    /// The canonical serial number (upper-case, no spaces).
    var serial: String
    /// The MAC address as its 48-bit value.
    var mac: UInt64
    /// The canonical model, such as `AP-515`.
    var model: String
    /// The central sheet's description.
    var description: String
    /// The index of the building in ``BuildingCatalog/buildings``.
    var building: Int
    /// The canonical room (upper-case, single spaces).
    var room: String
    /// `wall` or `ceiling`.
    var mount: String
    /// The custodian's PID.
    var custodian: String
    /// Latitude in millionths of a degree, where the installer scanned it.
    var latitudeMicrodegrees: Int
    /// Longitude in millionths of a degree.
    var longitudeMicrodegrees: Int
    /// The central sheet's stock number.
    var stockNumber: String
    /// The central sheet's last inventory date.
    var lastInventory: CalendarDay
    /// What the asset is used for in the account.
    var role: AssetRole = .clean
}
