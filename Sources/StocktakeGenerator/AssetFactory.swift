/// Makes the central assets of an account: unique identifiers and plausible, consistent attributes.
enum AssetFactory {
    /// A new asset in a random building, with fresh identifiers.
    static func makeAsset(identifiers: inout IdentifierAllocator, asOf: CalendarDay, random: inout SeededRandom)
        -> Asset
    {
        let tag = identifiers.centralTag(random: &random)
        let cns = identifiers.cns(random: &random)
        let serial = identifiers.serial(random: &random)
        let mac = identifiers.mac(random: &random)
        let building = random.below(BuildingCatalog.buildings.count)
        let model = AccessPointModel.draw(random: &random)
        let mount = random.chance(0.75) ? "ceiling" : "wall"
        let custodian =
            random.chance(0.85)
            ? CustodianDirectory.custodian(forBuilding: building)
            : random.element(of: CustodianDirectory.custodians).pid
        let place = BuildingCatalog.buildings[building]
        return Asset(
            tag: tag, cns: cns, serial: serial, mac: mac, model: model.name,
            description: description(model: model.name, mount: mount, random: &random), building: building,
            room: room(random: &random), mount: mount, custodian: custodian,
            latitudeMicrodegrees: place.latitudeMicrodegrees + random.integer(in: -300...300),
            longitudeMicrodegrees: place.longitudeMicrodegrees + random.integer(in: -300...300),
            stockNumber: model.stockNumber, lastInventory: asOf.adding(days: -random.integer(in: 20...900)))
    }

    /// A room: mostly floor and number (`214`, `310A`), some basement rooms and named spaces.
    static func room(random: inout SeededRandom) -> String {
        let draw = random.below(100)
        if draw < 8 {
            return "B" + String(random.integer(in: 1...40))
        }
        if draw < 13 {
            return random.element(of: ["LOBBY", "MECH 1", "MECH 2", "CORR 1E", "CORR 2W", "ATRIUM", "IDF 3"])
        }
        var room = String(random.integer(in: 1...4)) + CalendarDay.padded(random.integer(in: 1...60), width: 2)
        if draw < 28 {
            room.append(random.element(of: ["A", "B", "C"]))
        }
        return room
    }

    /// A description as clerks type them: some with commas, quotes, or leading punctuation.
    static func description(model: String, mount: String, random: inout SeededRandom) -> String {
        switch random.below(20) {
        case 0, 1, 2:
            return "Aruba \(model), \(mount) mount"
        case 3:
            return "Aruba \(model) \"Wi-Fi 6\" access point"
        case 4:
            return "- spare from \(model) surplus lot"
        case 5, 6:
            return "Wireless AP, \(model)"
        default:
            return "Aruba \(model) access point"
        }
    }
}
