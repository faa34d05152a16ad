/// One field of packed values at a time, unpacked as `values` unpacks it: the checks that compare an asset's rows
/// field by field read one field of each row, where unpacking the whole row made every one of its texts a `String`.
extension PackedValues {
    /// Unpacks `field` alone into `values`, leaving its other fields as they are.
    func copy(_ field: CanonicalField, into values: inout AssetValues) {
        let texts = SharedTexts.shared
        switch field {
        case .vtTag: values.vtTag = vtTag
        case .cnsNumber: values.cnsNumber = cnsNumber
        case .serialNumber:
            values.serialNumber = serialCode.serialNumber
        case .macAddress: values.macAddress = macAddress
        case .model: values.model = model < 0 ? nil : texts.string(model)
        case .description: values.description = description < 0 ? nil : texts.string(description)
        case .building: values.building = building < 0 ? nil : texts.string(building)
        case .room: values.room = room < 0 ? nil : texts.string(room)
        case .mount: values.mount = mount < 0 ? nil : texts.string(mount)
        case .custodian: values.custodian = custodian < 0 ? nil : texts.string(custodian)
        case .latitude: values.latitude = latitude
        case .longitude: values.longitude = longitude
        case .lastSeen: values.lastSeen = lastSeen
        case .stockNumber: values.stockNumber = stockNumber < 0 ? nil : texts.string(stockNumber)
        case .cost: values.cost = cost
        }
    }

    /// `field` alone, unpacked: the other fields of the result are empty.
    func only(_ field: CanonicalField) -> AssetValues {
        var values = AssetValues()
        copy(field, into: &values)
        return values
    }

    /// For a field kept as text, a number two rows share exactly when they hold the same bytes of it (the serial's
    /// code, a free text's id in `SharedTexts`; an empty field has its own); `nil` for the other fields. Equal
    /// numbers need no texts made to compare.
    func textKey(of field: CanonicalField) -> UInt64? {
        func id(_ id: Int32) -> UInt64 { UInt64(UInt32(bitPattern: id)) }
        switch field {
        case .serialNumber: return serialCode.rawValue
        case .model: return id(model)
        case .description: return id(description)
        case .building: return id(building)
        case .room: return id(room)
        case .mount: return id(mount)
        case .custodian: return id(custodian)
        case .stockNumber: return id(stockNumber)
        case .vtTag, .cnsNumber, .macAddress, .latitude, .longitude, .lastSeen, .cost: return nil
        }
    }
}
