/// The normalized values one spreadsheet row (or one cleaned asset) holds, one optional per canonical field.
public struct AssetValues: Hashable, Sendable {
    public var vtTag: VTTag?
    public var cnsNumber: CNSNumber?
    public var serialNumber: SerialNumber?
    public var macAddress: MACAddress?
    public var model: String?
    public var description: String?
    public var building: String?
    public var room: String?
    public var mount: String?
    public var custodian: String?
    public var latitude: Double?
    public var longitude: Double?
    public var lastSeen: InventoryDate?
    public var stockNumber: String?
    public var cost: UnitCost?

    public init() {}

    /// Whether the values hold any identifier (VT tag, CNS number, serial number or MAC address).
    public var hasIdentifier: Bool {
        vtTag != nil || cnsNumber != nil || serialNumber != nil || macAddress != nil
    }

    /// Whether the field has a value.
    public func has(_ field: CanonicalField) -> Bool {
        switch field {
        case .vtTag: vtTag != nil
        case .cnsNumber: cnsNumber != nil
        case .serialNumber: serialNumber != nil
        case .macAddress: macAddress != nil
        case .model: model != nil
        case .description: description != nil
        case .building: building != nil
        case .room: room != nil
        case .mount: mount != nil
        case .custodian: custodian != nil
        case .latitude: latitude != nil
        case .longitude: longitude != nil
        case .lastSeen: lastSeen != nil
        case .stockNumber: stockNumber != nil
        case .cost: cost != nil
        }
    }

    /// The field's value in canonical text form, as written to `cleaned.csv`; empty when absent.
    public func text(_ field: CanonicalField) -> String {
        switch field {
        case .vtTag: vtTag?.description ?? ""
        case .cnsNumber: cnsNumber?.description ?? ""
        case .serialNumber: serialNumber?.description ?? ""
        case .macAddress: macAddress?.description ?? ""
        case .model: model ?? ""
        case .description: description ?? ""
        case .building: building ?? ""
        case .room: room ?? ""
        case .mount: mount ?? ""
        case .custodian: custodian ?? ""
        case .latitude: latitude.map(GeoPosition.text) ?? ""
        case .longitude: longitude.map(GeoPosition.text) ?? ""
        case .lastSeen: lastSeen?.description ?? ""
        case .stockNumber: stockNumber ?? ""
        case .cost: cost?.description ?? ""
        }
    }

    /// Copies the value of `field` from `other`.
    public mutating func copy(_ field: CanonicalField, from other: AssetValues) {
        switch field {
        case .vtTag: vtTag = other.vtTag
        case .cnsNumber: cnsNumber = other.cnsNumber
        case .serialNumber: serialNumber = other.serialNumber
        case .macAddress: macAddress = other.macAddress
        case .model: model = other.model
        case .description: description = other.description
        case .building: building = other.building
        case .room: room = other.room
        case .mount: mount = other.mount
        case .custodian: custodian = other.custodian
        case .latitude: latitude = other.latitude
        case .longitude: longitude = other.longitude
        case .lastSeen: lastSeen = other.lastSeen
        case .stockNumber: stockNumber = other.stockNumber
        case .cost: cost = other.cost
        }
    }
}
