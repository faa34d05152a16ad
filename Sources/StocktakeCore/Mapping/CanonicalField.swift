/// A column of the cleaned asset table: the fields every source spreadsheet is mapped onto.
///
/// The raw value is the column name used in `cleaned.csv`, `discrepancies.csv` and column mappings.
public enum CanonicalField: String, CaseIterable, Sendable, Hashable, Comparable {
    case vtTag = "vt_tag"
    case cnsNumber = "cns_number"
    case serialNumber = "serial_number"
    case macAddress = "mac_address"
    case model
    case description
    case building
    case room
    case mount
    case custodian
    case latitude
    case longitude
    case lastSeen = "last_seen"
    case stockNumber = "stock_number"
    /// What the asset cost, as billing sheets give it (Unit Cost, Amount, Price).
    case cost

    /// The fields that identify a device, in the default order rows are joined by.
    public static let identifiers: [CanonicalField] = [.vtTag, .serialNumber, .macAddress, .cnsNumber]

    /// Fields whose disagreement between sources is reported as `FIELD_CONFLICT`.
    public static let conflictChecked: [CanonicalField] = [.model, .building, .room, .mount, .custodian]

    /// Whether the field identifies a device.
    public var isIdentifier: Bool { Self.identifiers.contains(self) }

    /// How the clerk reads the field's name in a sentence ("VT tag", "MAC address").
    public var spokenName: String {
        switch self {
        case .vtTag: "VT tag"
        case .cnsNumber: "CNS number"
        case .serialNumber: "serial number"
        case .macAddress: "MAC address"
        case .lastSeen: "last-seen date"
        case .stockNumber: "stock number"
        case .cost: "unit cost"
        default: rawValue
        }
    }

    public static func < (lhs: CanonicalField, rhs: CanonicalField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
