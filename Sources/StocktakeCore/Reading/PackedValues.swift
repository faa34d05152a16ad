/// The values of one source row, packed: 96 bytes instead of the 232 of `AssetValues`.
///
/// Identifiers are their numbers (a serial number its `SerialCode`), coordinates and days are plain numbers with one
/// bit each saying whether they are there, and the free-text fields are ids in `SharedTexts`. A file's rows keep only
/// the bytes of the fields it fills (`SourceRows`), and are unpacked into these values when read.
struct PackedValues: Sendable {
    private var vtTagNumber: UInt64 = 0
    private var cnsNumberValue: UInt64 = 0
    private var macAddressValue: UInt64 = 0
    private var latitudeValue: Double = 0
    private var longitudeValue: Double = 0
    private var costCents: Int64 = 0
    var serialCode = SerialCode.none
    private var lastSeenDays: Int32 = 0
    /// Ids in `SharedTexts`, or -1 when the field is empty.
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

    /// The bits of `present` that say a row has a VT tag, a CNS number, a MAC address (`SourceRows.View` reads
    /// them in place).
    static let hasVTTag: UInt8 = 1
    static let hasCNSNumber: UInt8 = 2
    static let hasMACAddress: UInt8 = 4
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
        serialCode = values.serialNumber.map { SerialCode(canonical: $0.text) } ?? .none
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
        present & (Self.hasVTTag | Self.hasCNSNumber | Self.hasMACAddress) != 0 || !serialCode.isNone
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

/// Where each field lies in packed values, so that a file's rows can keep only the bytes of the fields it fills
/// (`SourceRows`).
extension PackedValues {
    /// The bytes of the stored properties that hold `field`: their offsets in packed values and their sizes (8, 4 or
    /// 1 bytes). Whether a number field is there is in the `presentByte`, which every row keeps.
    static func storage(of field: CanonicalField) -> [(offset: Int, size: Int)] {
        func at<Value>(_ path: KeyPath<PackedValues, Value>) -> (offset: Int, size: Int) {
            (MemoryLayout<PackedValues>.offset(of: path)!, MemoryLayout<Value>.size)
        }
        switch field {
        case .vtTag: return [at(\.vtTagNumber), at(\.vtTagDigits)]
        case .cnsNumber: return [at(\.cnsNumberValue), at(\.cnsNumberDigits)]
        case .serialNumber: return [at(\.serialCode)]
        case .macAddress: return [at(\.macAddressValue)]
        case .model: return [at(\.model)]
        case .description: return [at(\.description)]
        case .building: return [at(\.building)]
        case .room: return [at(\.room)]
        case .mount: return [at(\.mount)]
        case .custodian: return [at(\.custodian)]
        case .latitude: return [at(\.latitudeValue)]
        case .longitude: return [at(\.longitudeValue)]
        case .lastSeen: return [at(\.lastSeenDays)]
        case .stockNumber: return [at(\.stockNumber)]
        case .cost: return [at(\.costCents)]
        }
    }

    /// The offset of the byte that says which number fields hold a value.
    static var presentByte: Int { MemoryLayout<PackedValues>.offset(of: \PackedValues.present)! }

    /// The fields that hold a value, one bit each by their position in `CanonicalField.allCases`.
    var fieldsHeld: UInt16 {
        var held: UInt16 = 0
        if present & Self.hasVTTag != 0 { held |= 1 << 0 }
        if present & Self.hasCNSNumber != 0 { held |= 1 << 1 }
        if !serialCode.isNone { held |= 1 << 2 }
        if present & Self.hasMACAddress != 0 { held |= 1 << 3 }
        if model >= 0 { held |= 1 << 4 }
        if description >= 0 { held |= 1 << 5 }
        if building >= 0 { held |= 1 << 6 }
        if room >= 0 { held |= 1 << 7 }
        if mount >= 0 { held |= 1 << 8 }
        if custodian >= 0 { held |= 1 << 9 }
        if present & Self.hasLatitude != 0 { held |= 1 << 10 }
        if present & Self.hasLongitude != 0 { held |= 1 << 11 }
        if present & Self.hasLastSeen != 0 { held |= 1 << 12 }
        if stockNumber >= 0 { held |= 1 << 13 }
        if present & Self.hasCost != 0 { held |= 1 << 14 }
        return held
    }
}
