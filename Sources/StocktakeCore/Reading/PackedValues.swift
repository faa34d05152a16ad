/// The values of one source row as a row keeps them: 88 bytes instead of the 232 of `AssetValues`.
///
/// Identifiers are their numbers, coordinates and days are plain numbers with one bit each saying whether they are
/// there, and texts (the serial number and the free-text fields) are ids in `SharedTexts`. Rows are many (a
/// million-asset account reads 5.5 million), so this is most of what reading keeps in memory.
struct PackedValues: Sendable {
    private var vtTagNumber: UInt64 = 0
    private var cnsNumberValue: UInt64 = 0
    private var macAddressValue: UInt64 = 0
    private var latitudeValue: Double = 0
    private var longitudeValue: Double = 0
    private var costCents: Int64 = 0
    private var lastSeenDays: Int32 = 0
    /// Ids in `SharedTexts`, or -1 when the field is empty.
    var serialNumberText: Int32 = -1
    var model: Int32 = -1
    var description: Int32 = -1
    var building: Int32 = -1
    var room: Int32 = -1
    var mount: Int32 = -1
    var custodian: Int32 = -1
    var stockNumber: Int32 = -1
    private var vtTagDigits: UInt8 = 0
    private var cnsNumberDigits: UInt8 = 0
    /// Which of the number fields hold a value, one bit each.
    private var present: UInt8 = 0

    private static let hasVTTag: UInt8 = 1
    private static let hasCNSNumber: UInt8 = 2
    private static let hasMACAddress: UInt8 = 4
    private static let hasLatitude: UInt8 = 8
    private static let hasLongitude: UInt8 = 16
    private static let hasLastSeen: UInt8 = 32
    private static let hasCost: UInt8 = 64

    init() {}

    /// Packs `values`, adding their texts to `SharedTexts`.
    init(_ values: AssetValues) {
        vtTag = values.vtTag
        cnsNumber = values.cnsNumber
        macAddress = values.macAddress
        latitude = values.latitude
        longitude = values.longitude
        lastSeen = values.lastSeen
        cost = values.cost
        let texts = SharedTexts.shared
        serialNumberText = values.serialNumber.map { texts.id(of: $0.text) } ?? -1
        model = values.model.map(texts.id(of:)) ?? -1
        description = values.description.map(texts.id(of:)) ?? -1
        building = values.building.map(texts.id(of:)) ?? -1
        room = values.room.map(texts.id(of:)) ?? -1
        mount = values.mount.map(texts.id(of:)) ?? -1
        custodian = values.custodian.map(texts.id(of:)) ?? -1
        stockNumber = values.stockNumber.map(texts.id(of:)) ?? -1
    }

    /// The values unpacked.
    var values: AssetValues {
        var values = AssetValues()
        for field in CanonicalField.allCases { copy(field, into: &values) }
        return values
    }

    /// Whether the values hold any identifier (VT tag, CNS number, serial number or MAC address).
    var hasIdentifier: Bool {
        present & (Self.hasVTTag | Self.hasCNSNumber | Self.hasMACAddress) != 0 || serialNumberText >= 0
    }

    var vtTag: VTTag? {
        get { present & Self.hasVTTag == 0 ? nil : VTTag(number: vtTagNumber, digits: Int(vtTagDigits)) }
        set {
            vtTagNumber = newValue?.number ?? 0
            vtTagDigits = UInt8(clamping: newValue?.digits ?? 0)
            set(Self.hasVTTag, newValue != nil)
        }
    }

    var cnsNumber: CNSNumber? {
        get {
            present & Self.hasCNSNumber == 0 ? nil : CNSNumber(number: cnsNumberValue, digits: Int(cnsNumberDigits))
        }
        set {
            cnsNumberValue = newValue?.number ?? 0
            cnsNumberDigits = UInt8(clamping: newValue?.digits ?? 0)
            set(Self.hasCNSNumber, newValue != nil)
        }
    }

    var macAddress: MACAddress? {
        get { present & Self.hasMACAddress == 0 ? nil : MACAddress(value: macAddressValue) }
        set {
            macAddressValue = newValue?.value ?? 0
            set(Self.hasMACAddress, newValue != nil)
        }
    }

    var latitude: Double? {
        get { present & Self.hasLatitude == 0 ? nil : latitudeValue }
        set {
            latitudeValue = newValue ?? 0
            set(Self.hasLatitude, newValue != nil)
        }
    }

    var longitude: Double? {
        get { present & Self.hasLongitude == 0 ? nil : longitudeValue }
        set {
            longitudeValue = newValue ?? 0
            set(Self.hasLongitude, newValue != nil)
        }
    }

    var lastSeen: InventoryDate? {
        get { present & Self.hasLastSeen == 0 ? nil : InventoryDate(daysSinceEpoch: lastSeenDays) }
        set {
            lastSeenDays = newValue?.daysSinceEpoch ?? 0
            set(Self.hasLastSeen, newValue != nil)
        }
    }

    var cost: UnitCost? {
        get { present & Self.hasCost == 0 ? nil : UnitCost(cents: costCents) }
        set {
            costCents = newValue?.cents ?? 0
            set(Self.hasCost, newValue != nil)
        }
    }

    private mutating func set(_ bit: UInt8, _ isPresent: Bool) {
        present = isPresent ? present | bit : present & ~bit
    }
}
