/// Writes the cells of one row of each source file, adding harmless noise.
///
/// `clean` rows may also carry placeholders and omitted optional values; rows of injected assets carry only
/// format noise, so that the injection stays the one thing that differs.
struct RowFactory {
    /// The number of digits of a tag.
    let tagDigits: Int
    /// The number of digits of a CNS number.
    let cnsDigits: Int

    /// What one survey row says; `nil` identifiers are left empty.
    struct SurveyValues {
        var tag: Int
        var serial: String?
        var mac: UInt64?
        var building: Int
        var room: String
        var mount: String
        var scanned: CalendarDay
        var latitudeMicrodegrees: Int
        var longitudeMicrodegrees: Int
    }

    /// The central sheet's row of an asset; `serial`, `mac` and `cns` override the asset's own.
    func central(_ asset: Asset, serial: String, mac: UInt64, cns: Int?, clean: Bool, random: inout SeededRandom)
        -> [SourceColumn: String]
    {
        let building = BuildingCatalog.buildings[asset.building]
        var cells: [SourceColumn: String] = [
            .tag: NoiseStyle.tag(asset.tag, digits: tagDigits, rate: 0.08, random: &random),
            .cns: cns.map { NoiseStyle.cns($0, digits: cnsDigits, rate: 0.15, random: &random) } ?? "",
            .serial: NoiseStyle.serial(serial, rate: 0.1, random: &random),
            .mac: NoiseStyle.mac(mac, random: &random),
            .model: NoiseStyle.model(asset.model, rate: 0.1, random: &random),
            .description: asset.description,
            .building: NoiseStyle.building(building, rate: 0.1, random: &random),
            .room: NoiseStyle.room(asset.room, rate: 0.1, random: &random),
            .mount: NoiseStyle.mount(asset.mount, random: &random),
            .custodian: asset.custodian,
            .lastSeen: asset.lastInventory.usLong,
            .stockNumber: asset.stockNumber,
        ]
        if clean {
            if random.chance(0.02) {
                cells[.custodian] = NoiseStyle.placeholder(random: &random)
            }
            if random.chance(0.02) {
                cells[.mount] = NoiseStyle.placeholder(random: &random)
            }
            if random.chance(0.03) {
                cells[.stockNumber] = NoiseStyle.placeholder(random: &random)
            }
        }
        return cells
    }

    /// An installer's survey row.
    func survey(_ values: SurveyValues, clean: Bool, random: inout SeededRandom) -> [SourceColumn: String] {
        let building = BuildingCatalog.buildings[values.building]
        var cells: [SourceColumn: String] = [
            .tag: NoiseStyle.tag(values.tag, digits: tagDigits, rate: 0.3, random: &random),
            .serial: values.serial.map { NoiseStyle.serial($0, rate: 0.25, random: &random) } ?? "",
            .mac: values.mac.map { NoiseStyle.mac($0, random: &random) } ?? "",
            .building: NoiseStyle.building(building, rate: 0.25, random: &random),
            .room: NoiseStyle.room(values.room, rate: 0.2, random: &random),
            .mount: NoiseStyle.mount(values.mount, random: &random),
            .lastSeen: NoiseStyle.scanDate(values.scanned, random: &random),
            .gps: NoiseStyle.gps(
                latitudeMicrodegrees: values.latitudeMicrodegrees, longitudeMicrodegrees: values.longitudeMicrodegrees
            ),
            .latitude: CanonicalForm.degrees(values.latitudeMicrodegrees),
            .longitude: CanonicalForm.degrees(values.longitudeMicrodegrees),
        ]
        if clean {
            if random.chance(0.03) {
                cells[.serial] = ""
            } else if random.chance(0.03) {
                cells[.mac] = random.element(of: ["", NoiseStyle.placeholder(random: &random), "00:00:00:00:00:00"])
            }
            if random.chance(0.02) {
                cells[.room] = NoiseStyle.placeholder(random: &random)
            }
            if random.chance(0.03) {
                cells[.mount] = NoiseStyle.placeholder(random: &random)
            }
            if random.chance(0.12) {
                let missing = random.chance(0.5) ? NoiseStyle.placeholder(random: &random) : ""
                cells[.gps] = missing
                cells[.latitude] = missing
                cells[.longitude] = missing
            }
        }
        return cells
    }

    /// A wireless controller row: no tag, the AP's name, MAC, serial, type and when it was last seen.
    /// A `clean` row sometimes reports a placeholder serial, so that it joins its asset by MAC.
    func controller(
        name: String, serial: String, mac: UInt64, model: String, seen: CalendarDay, clean: Bool,
        random: inout SeededRandom
    ) -> [SourceColumn: String] {
        var cells: [SourceColumn: String] = [
            .accessPointName: name,
            .mac: NoiseStyle.mac(mac, random: &random),
            .serial: NoiseStyle.serial(serial, rate: 0.15, random: &random),
            .model: NoiseStyle.model(model, rate: 0.2, random: &random),
            .lastSeen: seen.iso + " " + NoiseStyle.time(random: &random),
        ]
        if clean && random.chance(0.025) {
            cells[.serial] = random.element(of: NoiseStyle.serialPlaceholders)
        }
        return cells
    }

    /// A warehouse receiving row: no tag, part number, serial, MAC, receiving date (`M/D/YY`) and order.
    func receiving(serial: String, mac: UInt64, model: String, received: CalendarDay, random: inout SeededRandom)
        -> [SourceColumn: String]
    {
        [
            .model: model,
            .serial: NoiseStyle.serial(serial, rate: 0.1, random: &random),
            .mac: NoiseStyle.mac(mac, random: &random),
            .lastSeen: received.usShort,
            .purchaseOrder: "PO-" + String(received.year) + "-" + CalendarDay.padded(random.below(100_000), width: 5),
        ]
    }

    /// A property-office register row.
    func propertyTag(
        tag: Int, description: String, custodian: String, acquired: CalendarDay, clean: Bool,
        random: inout SeededRandom
    ) -> [SourceColumn: String] {
        var cells: [SourceColumn: String] = [
            .tag: NoiseStyle.tag(tag, digits: tagDigits, rate: 0.1, random: &random),
            .description: description,
            .custodian: custodian,
            .acquired: acquired.usLong,
        ]
        if clean && random.chance(0.05) {
            cells[.description] = NoiseStyle.placeholder(random: &random)
        }
        if clean && random.chance(0.03) {
            cells[.custodian] = NoiseStyle.placeholder(random: &random)
        }
        return cells
    }

    /// A CNS register row.
    func cnsRegister(cns: Int, tag: Int, model: String, random: inout SeededRandom) -> [SourceColumn: String] {
        [
            .cns: NoiseStyle.cns(cns, digits: cnsDigits, rate: 0.3, random: &random),
            .tag: NoiseStyle.tag(tag, digits: tagDigits, rate: 0.15, random: &random),
            .model: NoiseStyle.model(model, rate: 0.2, random: &random),
        ]
    }

    /// A custodian list row.
    func custodian(tag: Int, custodian: String, random: inout SeededRandom) -> [SourceColumn: String] {
        [
            .tag: NoiseStyle.tag(tag, digits: tagDigits, rate: 0.1, random: &random),
            .custodian: random.chance(0.05) ? " " + custodian + " " : custodian,
            .department: CustodianDirectory.department(of: custodian),
        ]
    }

    /// A billing row, with Excel-damaged tags and CNS numbers and two trailing empty cells.
    func billing(tag: Int, cns: Int, model: String, random: inout SeededRandom) -> [SourceColumn: String] {
        let entry = AccessPointModel.named(model)
        return [
            .tag: random.chance(0.4)
                ? NoiseStyle.spreadsheetTag(tag, random: &random)
                : NoiseStyle.tag(tag, digits: tagDigits, rate: 0.1, random: &random),
            .cns: random.chance(0.4)
                ? NoiseStyle.spreadsheetCNS(cns, random: &random)
                : NoiseStyle.cns(cns, digits: cnsDigits, rate: 0.2, random: &random),
            .stockNumber: entry.stockNumber,
            .amount: entry.amount,
        ]
    }

    /// A legacy export row as Excel left it: tags without leading zeros, dates as spreadsheet serials.
    /// `tagText` replaces the tag cell (for a scientific-notation injection).
    func legacy(_ asset: Asset, tagText: String?, random: inout SeededRandom) -> [SourceColumn: String] {
        let building = BuildingCatalog.buildings[asset.building]
        let inventoried = CalendarDay(year: 2012, month: 1, day: 1)!.adding(days: random.integer(in: 0...1_000))
        return [
            .tag: tagText ?? NoiseStyle.spreadsheetTag(asset.tag, random: &random),
            .serial: NoiseStyle.serial(asset.serial, rate: 0.1, random: &random),
            .building: random.chance(0.9) ? building.code : building.name.uppercased(),
            .room: asset.room,
            .lastSeen: random.chance(0.8) ? String(inventoried.spreadsheetSerial) : inventoried.usLong,
        ]
    }
}
