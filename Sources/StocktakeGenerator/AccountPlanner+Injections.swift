extension AccountPlanner {
    /// What was written for one asset, for building its expected discrepancy.
    struct Injection {
        /// The marker of the asset's central row.
        var centralMarker: Int
        /// The marker of the row that carries the injection, when it is not the central row.
        var injectedMarker: Int?
        /// The values of the asset's survey row.
        var survey: RowFactory.SurveyValues
        /// The cells of the asset's survey row, empty when it has none.
        var surveyCells: [SourceColumn: String]
        /// The model the controller export reports.
        var controllerModel: String
        /// The custodian the custodian list names.
        var custodian: String
        /// The CNS number the CNS register pairs with the tag.
        var registerCNS: Int?
        /// The legacy tag cell, when it replaces the tag.
        var legacyTagText: String?
    }

    // MARK: Expectations of central assets

    /// Records the expected discrepancy of an asset's role (survey-row duplicates are recorded where written).
    mutating func expectInjection(ofAsset index: Int, _ injection: Injection) {
        let asset = assets[index]
        let tag = tagText(asset.tag)
        let central = injection.centralMarker
        let injected = injection.injectedMarker.map { [$0] } ?? []
        switch asset.role {
        case .clean, .sharedSerialOwner, .sharedMACOwner, .cnsReusedOwner, .duplicateRow, .duplicateTag:
            break
        case .missing:
            expect(
                .missing, vtTag: tag, note: "a central asset in no survey sheet, controller export or receiving list",
                markers: [central])
        case .typoTarget:
            emitTypo(of: index, survey: injection.survey)
        case .sharedSerialCopier(let owner):
            let pair = [asset.tag, assets[owner].tag].sorted()
            expect(
                .sharedSerial, vtTag: tagText(pair[0]), serialNumber: assets[owner].serial, value: tagText(pair[1]),
                note: "central gives tag \(tag) the serial of tag \(tagText(assets[owner].tag)); "
                    + "tag \(tag)'s other rows carry no serial",
                markers: [central])
        case .sharedMACCopier(let owner):
            let pair = [asset.tag, assets[owner].tag].sorted()
            expect(
                .sharedMAC, vtTag: tagText(pair[0]), macAddress: CanonicalForm.mac(assets[owner].mac),
                value: tagText(pair[1]),
                note: "central gives tag \(tag) the MAC address of tag \(tagText(assets[owner].tag)); "
                    + "tag \(tag)'s other rows carry no MAC address",
                markers: [central])
        case .tagCNSMismatch(let other):
            expect(
                .tagCNSMismatch, vtTag: tag,
                note: "the CNS register pairs the tag with \(cnsText(other)), central with \(cnsText(asset.cns!))",
                markers: injected + [central])
        case .cnsReusedVictim(let owner):
            expect(
                .cnsReused, cnsNumber: cnsText(asset.cns!),
                note: "central gives tags \(tagText(assets[owner].tag)) and \(tag) the same CNS number",
                markers: [central])
        case .noCNS:
            expect(
                .noCNS, vtTag: tag,
                note: "an empty CNS cell in central, and the tag is in neither the CNS register nor billing",
                markers: [central])
        case .fieldConflict(let field):
            expectConflict(of: asset, field: field, injection: injection)
        case .invalidValue(let kind):
            expectInvalidValue(of: asset, kind: kind, injection: injection)
        case .unknownBuilding:
            let cell = trimmed(injection.surveyCells[.building] ?? "")
            expect(
                .unknownBuilding, vtTag: tag, field: "building", value: cell,
                note: "a survey row names building \(cell), which is not in buildings.csv", markers: injected)
        case .stale:
            let age = options.asOf.daysSinceEpoch - injection.survey.scanned.daysSinceEpoch
            expect(
                .stale, vtTag: tag,
                note: "its only sighting is a survey scan of \(injection.survey.scanned.iso), \(age) days before "
                    + "the run date",
                markers: injected)
        }
    }

    private mutating func expectConflict(of asset: Asset, field: ConflictField, injection: Injection) {
        let winner: String
        let other: String
        let source: String
        switch field {
        case .model:
            (winner, other, source) = (injection.controllerModel, asset.model, "the controller export")
        case .building:
            winner = BuildingCatalog.buildings[injection.survey.building].code
            other = BuildingCatalog.buildings[asset.building].code
            source = "a survey row"
        case .room:
            (winner, other, source) = (injection.survey.room, asset.room, "a survey row")
        case .mount:
            (winner, other, source) = (injection.survey.mount, asset.mount, "a survey row")
        case .custodian:
            (winner, other, source) = (injection.custodian, asset.custodian, "the custodian list")
        }
        expect(
            .fieldConflict, vtTag: tagText(asset.tag), field: field.rawValue, value: winner, expected: other,
            note: "\(source) says \(field.rawValue) \(winner), central says \(other)",
            markers: (injection.injectedMarker.map { [$0] } ?? []) + [injection.centralMarker])
    }

    private mutating func expectInvalidValue(of asset: Asset, kind: InvalidValueKind, injection: Injection) {
        let tag = tagText(asset.tag)
        let markers = injection.injectedMarker.map { [$0] } ?? []
        switch kind {
        case .shortMAC:
            let cell = trimmed(injection.surveyCells[.mac] ?? "")
            expect(
                .invalidValue, vtTag: tag, field: "mac_address", value: cell,
                note: "a survey MAC address with 11 hex digits", markers: markers)
        case .scientificTag:
            let cell = injection.legacyTagText ?? ""
            expect(
                .invalidValue, vtTag: tag, field: "vt_tag", value: cell,
                note: "a legacy tag in scientific notation; the row joins its asset by serial", markers: markers)
        case .gpsOutOfRange:
            // Reported under latitude, with the whole cell: the GPS cell, or the latitude cell where the
            // survey sheet has separate coordinate columns.
            let file = SourceFile.survey(zone: BuildingCatalog.buildings[injection.survey.building].zone)
            let column: SourceColumn = file.columns.contains { $0.column == .gps } ? .gps : .latitude
            let cell = trimmed(injection.surveyCells[column] ?? "")
            expect(
                .invalidValue, vtTag: tag, field: "latitude", value: cell,
                note: "a survey GPS position with a latitude beyond 90 degrees", markers: markers)
        case .impossibleDate:
            let cell = trimmed(injection.surveyCells[.lastSeen] ?? "")
            expect(
                .invalidValue, vtTag: tag, field: "last_seen", value: cell,
                note: "a survey scan date that does not exist", markers: markers)
        }
    }

    /// Writes the survey row whose tag is a typo of an unsighted central tag.
    private mutating func emitTypo(of index: Int, survey: RowFactory.SurveyValues) {
        let asset = assets[index]
        guard let typo = typos[index] else {
            return
        }
        var values = survey
        values.tag = typo.tag
        values.serial = nil
        values.mac = nil
        values.scanned = recentScanDay()
        let file = SourceFile.survey(zone: BuildingCatalog.buildings[values.building].zone)
        let marker = addRow(
            factory.survey(values, clean: false, random: &random), to: file, group: values.building, marked: true)!
        expect(
            .possibleTypo, vtTag: tagText(asset.tag), value: tagText(typo.tag), expected: tagText(asset.tag),
            note: "survey tag \(tagText(typo.tag)) is central tag \(tagText(asset.tag)) with \(typo.edit), "
                + "without serial or MAC; the central tag has no sighting",
            markers: [marker])
    }

    // MARK: Rows of devices outside central

    /// Writes tags that central does not know: some scanned in a survey, some only in a register.
    mutating func emitUnrecordedTags() {
        for number in 0..<Self.injectionCount(assets: options.assets, every: options.assetsPerInjection) {
            let tag = identifiers.outsideTag(random: &random)
            let marker: Int
            let note: String
            switch number % 4 {
            case 0, 2:
                let building = random.below(BuildingCatalog.buildings.count)
                let place = BuildingCatalog.buildings[building]
                let values = RowFactory.SurveyValues(
                    tag: tag, serial: identifiers.serial(random: &random), mac: identifiers.mac(random: &random),
                    building: building, room: AssetFactory.room(random: &random),
                    mount: random.chance(0.75) ? "ceiling" : "wall", scanned: recentScanDay(),
                    latitudeMicrodegrees: place.latitudeMicrodegrees,
                    longitudeMicrodegrees: place.longitudeMicrodegrees)
                marker = addRow(
                    factory.survey(values, clean: false, random: &random), to: .survey(zone: place.zone),
                    group: building, marked: true)!
                note = "a new tag scanned in a survey on a device of its own, not in central"
            case 1:
                let cells = factory.propertyTag(
                    tag: tag, description: "WIRELESS ACCESS POINT " + AccessPointModel.draw(random: &random).name,
                    custodian: random.element(of: CustodianDirectory.custodians).pid,
                    acquired: options.asOf.adding(days: -random.integer(in: 100...600)), clean: false,
                    random: &random)
                marker = addRow(cells, to: .propertyTags, group: 0, rank: UInt64(tag), marked: true)!
                note = "a tag only in the property register, not in central"
            default:
                let cells = factory.custodian(
                    tag: tag, custodian: random.element(of: CustodianDirectory.custodians).pid, random: &random)
                marker = addRow(cells, to: .custodians, group: 0, marked: true)!
                note = "a tag only in the custodian list, not in central"
            }
            expect(.unrecorded, vtTag: tagText(tag), note: note, markers: [marker])
        }
    }

    /// Writes devices the controller sees (and the warehouse received) that no tag links to.
    mutating func emitUntaggedDevices() {
        for number in 0..<Self.injectionCount(assets: options.assets, every: options.assetsPerInjection) {
            let serial = identifiers.serial(random: &random)
            let mac = identifiers.mac(random: &random)
            let model = AccessPointModel.draw(random: &random).name
            var markers: [Int] = []
            let controllerCells = factory.controller(
                name: CanonicalForm.mac(mac), serial: serial, mac: mac, model: model,
                seen: options.asOf.adding(days: -random.integer(in: 0...20)), clean: false, random: &random)
            markers.append(addRow(controllerCells, to: .controller, group: 0, marked: true)!)
            if number % 2 == 0 {
                let receivingCells = factory.receiving(
                    serial: serial, mac: mac, model: model,
                    received: options.asOf.adding(days: -random.integer(in: 400...1_200)), random: &random)
                markers.append(addRow(receivingCells, to: .receiving, group: 0, marked: true)!)
            }
            expect(
                .noTag, serialNumber: serial, macAddress: CanonicalForm.mac(mac),
                note: markers.count > 1
                    ? "a device the controller sees and the warehouse received that no tagged row names"
                    : "a device the controller sees that no tagged row names",
                markers: markers)
        }
    }

    // MARK: Helpers

    /// Adds a row to a file; returns its marker when `marked`.
    @discardableResult
    mutating func addRow(
        _ cells: [SourceColumn: String], to file: SourceFile, group: Int, rank: UInt64? = nil, marked: Bool = false
    ) -> Int? {
        var marker: Int?
        if marked {
            marker = nextMarker
            nextMarker += 1
        }
        let order = PlannedRow.SortKey(group: group, rank: rank ?? random.next())
        rows[file, default: []].append(PlannedRow(cells: cells, order: order, marker: marker))
        return marker
    }

    /// Records an expected discrepancy.
    mutating func expect(
        _ code: DiscrepancyCode, vtTag: String = "", cnsNumber: String = "", serialNumber: String = "",
        macAddress: String = "", field: String = "", value: String = "", expected: String = "", note: String,
        markers: [Int]
    ) {
        let discrepancy = ExpectedDiscrepancy(
            code: code.rawValue, severity: code.severity, vtTag: vtTag, cnsNumber: cnsNumber,
            serialNumber: serialNumber, macAddress: macAddress, field: field, value: value, expected: expected,
            note: note)
        expectations.append(PlannedExpectation(discrepancy: discrepancy, markers: markers))
    }

    func tagText(_ tag: Int) -> String {
        CanonicalForm.tag(tag, digits: options.tagDigits)
    }

    func cnsText(_ cns: Int) -> String {
        CanonicalForm.cns(cns, digits: options.cnsDigits)
    }

    func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// A scan date within the last 300 days of the run date.
    mutating func recentScanDay() -> CalendarDay {
        options.asOf.adding(days: -random.integer(in: 0...300))
    }

    /// The controller's name of an installed access point, such as `ABH-214-AP03`.
    mutating func accessPointName(_ asset: Asset) -> String {
        let room = asset.room.filter { $0 != " " }
        return BuildingCatalog.buildings[asset.building].code + "-" + room + "-AP"
            + CalendarDay.padded(random.integer(in: 1...12), width: 2)
    }

    mutating func otherModel(than model: String) -> String {
        random.element(of: AccessPointModel.catalog.map(\.name).filter { $0 != model })
    }

    mutating func otherBuilding(than building: Int) -> Int {
        let choice = random.below(BuildingCatalog.buildings.count - 1)
        return choice >= building ? choice + 1 : choice
    }

    mutating func otherRoom(than room: String) -> String {
        while true {
            let candidate = AssetFactory.room(random: &random)
            if candidate != room {
                return candidate
            }
        }
    }

    mutating func otherCustodian(than custodian: String) -> String {
        random.element(of: CustodianDirectory.custodians.map(\.pid).filter { $0 != custodian })
    }
}
