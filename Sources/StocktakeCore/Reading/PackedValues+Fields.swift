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

    /// The id in `SharedTexts` of a free-text field (-1 when it is empty); `nil` for the other fields, the serial
    /// number among them (its `serialCode` compares as the id does).
    func textID(of field: CanonicalField) -> Int32? {
        switch field {
        case .model: model
        case .description: description
        case .building: building
        case .room: room
        case .mount: mount
        case .custodian: custodian
        case .stockNumber: stockNumber
        case .vtTag, .cnsNumber, .serialNumber, .macAddress, .latitude, .longitude, .lastSeen, .cost: nil
        }
    }
}
