/// The canonical text of typed values, written straight into a byte buffer: the text `cleaned.csv` shows and a
/// push writes, without a `String` in between.
///
/// Each writer appends exactly the bytes of the value's `description` (or of `GeoPosition.text`).
enum CanonicalText {
    /// Appends `number` in decimal, left-padded with zeros to `digits`: a VT tag's `001234`.
    static func append<Output: ByteSink & ~Copyable>(_ number: UInt64, digits: Int, to output: inout Output) {
        let width = max(DecimalDigits.count(number), digits)
        output.append(atMost: width) { pointer in
            DecimalDigits.write(number, count: width, to: pointer)
            return width
        }
    }

    /// Appends a VT tag's canonical form, `001234`.
    static func append<Output: ByteSink & ~Copyable>(_ tag: VTTag, to output: inout Output) {
        append(tag.number, digits: tag.digits, to: &output)
    }

    /// Appends a CNS number's canonical form, `C000123`.
    static func append<Output: ByteSink & ~Copyable>(_ number: CNSNumber, to output: inout Output) {
        output.append(UInt8(ascii: "C"))
        append(number.number, digits: number.digits, to: &output)
    }

    /// Appends a MAC address's canonical form, `aa:bb:cc:dd:ee:ff`.
    static func append<Output: ByteSink & ~Copyable>(_ address: MACAddress, to output: inout Output) {
        output.append(atMost: 17) { pointer in
            for group in 0..<6 {
                let byte = UInt8(truncatingIfNeeded: address.value &>> UInt64(40 - 8 * group))
                pointer[group * 3] = hexDigit(byte >> 4)
                pointer[group * 3 + 1] = hexDigit(byte & 0x0F)
                if group < 5 { pointer[group * 3 + 2] = UInt8(ascii: ":") }
            }
            return 17
        }
    }

    /// Appends a date's ISO form, `YYYY-MM-DD`.
    static func append<Output: ByteSink & ~Copyable>(_ date: InventoryDate, to output: inout Output) {
        // The calendar day computed once (`InventoryDate.year`, `month` and `day` each compute it).
        let civil = CivilDate(days: Int64(date.daysSinceEpoch))
        let year = UInt64(clamping: civil.year)
        // Four digits for the years of `InventoryDate` (1 to 9999), more for any other; all in one append.
        let yearWidth = max(DecimalDigits.count(year), 4)
        output.append(atMost: yearWidth + 6) { pointer in
            DecimalDigits.write(year, count: yearWidth, to: pointer)
            pointer[yearWidth] = UInt8(ascii: "-")
            DecimalDigits.write(UInt64(civil.month), count: 2, to: pointer + yearWidth + 1)
            pointer[yearWidth + 3] = UInt8(ascii: "-")
            DecimalDigits.write(UInt64(civil.day), count: 2, to: pointer + yearWidth + 4)
            return yearWidth + 6
        }
    }

    /// Appends a cost's canonical form, `1234.50`.
    static func append<Output: ByteSink & ~Copyable>(_ cost: UnitCost, to output: inout Output) {
        append(UInt64(clamping: cost.cents / 100), digits: 1, to: &output)
        output.append(UInt8(ascii: "."))
        append(UInt64(clamping: cost.cents % 100), digits: 2, to: &output)
    }

    /// Appends a coordinate's canonical text, as `GeoPosition.text` gives it (`-80.4139`).
    static func append<Output: ByteSink & ~Copyable>(degrees: Double, to output: inout Output) {
        guard degrees != 0 else {
            output.append(UInt8(ascii: "0"))
            return
        }
        // Nearly every coordinate has a short text, made without a `String`.
        if ShortestDecimal.append(degrees, to: &output) { return }
        // The shortest text that reads back as the same number; only exponent notation needs `GeoPosition.text`.
        var shortest = degrees.description
        let done = shortest.withUTF8 { text -> Bool in
            if text.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) { return false }
            let hasZeroFraction =
                text.count >= 2 && text[text.count - 2] == UInt8(ascii: ".")
                && text[text.count - 1] == UInt8(ascii: "0")
            output.append(
                contentsOf: UnsafeBufferPointer(rebasing: text[0..<(hasZeroFraction ? text.count - 2 : text.count)]))
            return true
        }
        if !done { output.append(utf8: GeoPosition.text(degrees)) }
    }

    /// Appends a position as one cell holds it: `latitude,longitude`.
    static func append<Output: ByteSink & ~Copyable>(latitude: Double, longitude: Double, to output: inout Output) {
        append(degrees: latitude, to: &output)
        output.append(UInt8(ascii: ","))
        append(degrees: longitude, to: &output)
    }

    /// Appends the text of `field` in `values`, as `AssetValues.text(_:)` gives it for the values unpacked; nothing
    /// when it is absent. Only that field is read (a text by its id in `SharedTexts`): the write-back plan asks for one
    /// field of an asset per cell, and unpacking all of them made every text a `String` each time.
    static func append<Output: ByteSink & ~Copyable>(
        _ field: CanonicalField, of values: PackedValues, to output: inout Output
    ) {
        switch field {
        case .vtTag: if let tag = values.vtTag { append(tag, to: &output) }
        case .cnsNumber: if let number = values.cnsNumber { append(number, to: &output) }
        case .serialNumber: values.serialCode.withBytes { output.append(contentsOf: $0) }
        case .macAddress: if let address = values.macAddress { append(address, to: &output) }
        case .model: appendText(values.model, to: &output)
        case .description: appendText(values.description, to: &output)
        case .building: appendText(values.building, to: &output)
        case .room: appendText(values.room, to: &output)
        case .mount: appendText(values.mount, to: &output)
        case .custodian: appendText(values.custodian, to: &output)
        case .latitude: if let degrees = values.latitude { append(degrees: degrees, to: &output) }
        case .longitude: if let degrees = values.longitude { append(degrees: degrees, to: &output) }
        case .lastSeen: if let date = values.lastSeen { append(date, to: &output) }
        case .stockNumber: appendText(values.stockNumber, to: &output)
        case .cost: if let cost = values.cost { append(cost, to: &output) }
        }
    }

    /// Appends the text with id `id` in `SharedTexts`; nothing for -1, an absent text.
    private static func appendText<Output: ByteSink & ~Copyable>(_ id: Int32, to output: inout Output) {
        if id >= 0 { output.append(utf8: SharedTexts.shared.string(id)) }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
