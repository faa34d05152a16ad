/// Plans a whole account: makes the central assets, gives some of them an injected discrepancy, and writes
/// every source row and expected discrepancy that follows.
///
/// Each injection touches only its own assets and is built so that, under the reconciler's rules, it yields
/// exactly its expected row; all other assets are consistent across every file and recently sighted.
struct AccountPlanner {
    let options: GeneratorOptions
    var random: SeededRandom
    var identifiers: IdentifierAllocator
    let factory: RowFactory
    var assets: [Asset] = []
    var unassigned: [Int] = []
    var typos: [Int: (tag: Int, edit: String)] = [:]
    var rows: [SourceFile: [PlannedRow]] = [:]
    var expectations: [PlannedExpectation] = []
    var nextMarker = 0
    var invalidDateCount = 0

    /// The plan of the account the options describe; the options must be valid.
    static func plan(_ options: GeneratorOptions) -> AccountPlan {
        var planner = AccountPlanner(options: options)
        planner.makeAssets()
        planner.assignRoles()
        for index in planner.assets.indices {
            planner.emitRows(ofAsset: index)
        }
        planner.emitUnrecordedTags()
        planner.emitUntaggedDevices()
        return AccountPlan(rows: planner.rows, expectations: planner.expectations)
    }

    /// How many of each discrepancy to inject: at least two, and one more per `every` assets (500 by default).
    static func injectionCount(assets: Int, every: Int = GeneratorOptions.defaultAssetsPerInjection) -> Int {
        max(2, assets / every)
    }

    private init(options: GeneratorOptions) {
        self.options = options
        random = SeededRandom(seed: options.seed)
        identifiers = IdentifierAllocator(tagDigits: options.tagDigits, cnsDigits: options.cnsDigits)
        factory = RowFactory(tagDigits: options.tagDigits, cnsDigits: options.cnsDigits)
    }

    // MARK: Assets and roles

    private mutating func makeAssets() {
        assets.reserveCapacity(options.assets)
        for _ in 0..<options.assets {
            assets.append(AssetFactory.makeAsset(identifiers: &identifiers, asOf: options.asOf, random: &random))
        }
        unassigned = Array(assets.indices)
        random.shuffle(&unassigned)
    }

    private mutating func takeAsset() -> Int {
        unassigned.removeLast()
    }

    private mutating func assignRoles() {
        let count = Self.injectionCount(assets: options.assets, every: options.assetsPerInjection)
        for _ in 0..<count {
            assets[takeAsset()].role = .missing
        }
        var typoTargets = 0
        while typoTargets < count {
            let index = takeAsset()
            if let typo = identifiers.typo(of: assets[index].tag, random: &random) {
                assets[index].role = .typoTarget
                typos[index] = typo
                typoTargets += 1
            }
        }
        for _ in 0..<count {
            let owner = takeAsset()
            assets[owner].role = .sharedSerialOwner
            assets[takeAsset()].role = .sharedSerialCopier(owner: owner)
        }
        for _ in 0..<count {
            let owner = takeAsset()
            assets[owner].role = .sharedMACOwner
            assets[takeAsset()].role = .sharedMACCopier(owner: owner)
        }
        for _ in 0..<count {
            assets[takeAsset()].role = .tagCNSMismatch(registerCNS: identifiers.cns(random: &random))
        }
        for _ in 0..<count {
            let owner = takeAsset()
            assets[owner].role = .cnsReusedOwner
            let victim = takeAsset()
            assets[victim].role = .cnsReusedVictim(owner: owner)
            assets[victim].cns = assets[owner].cns
        }
        for _ in 0..<count {
            let index = takeAsset()
            assets[index].role = .noCNS
            assets[index].cns = nil
        }
        for field in ConflictField.allCases {
            for _ in 0..<max(1, count / 3) {
                assets[takeAsset()].role = .fieldConflict(field)
            }
        }
        for number in 0..<max(InvalidValueKind.allCases.count, count) {
            let kind = InvalidValueKind.allCases[number % InvalidValueKind.allCases.count]
            assets[takeAsset()].role = .invalidValue(kind)
        }
        let simpleRoles: [AssetRole] = [.unknownBuilding, .stale, .duplicateRow, .duplicateTag]
        for role in simpleRoles {
            for _ in 0..<count {
                assets[takeAsset()].role = role
            }
        }
        // Two clean assets whose descriptions test CSV quoting and formula escaping.
        let multiline = takeAsset()
        assets[multiline].description = "Aruba \(assets[multiline].model) access point\nmoved from old library, 2023"
        let formula = takeAsset()
        assets[formula].description = "=\(assets[formula].model) replacement (warranty)"
    }

    // MARK: Rows of one central asset

    /// Which sources carry an asset.
    private struct Presence {
        var survey: Bool
        var controller: Bool
        var receiving: Bool
        var propertyTags: Bool
        var cnsRegister: Bool
        var custodians: Bool
        var billing: Bool
        var legacy: Bool
    }

    private mutating func emitRows(ofAsset index: Int) {
        let asset = assets[index]
        let survey = random.chance(0.93)
        var presence = Presence(
            survey: survey, controller: !survey || random.chance(0.88), receiving: random.chance(0.3),
            propertyTags: random.chance(0.85), cnsRegister: random.chance(0.9), custodians: random.chance(0.7),
            billing: random.chance(0.6), legacy: random.chance(0.4))
        var centralSerial = asset.serial
        var centralMAC = asset.mac
        var surveyValues = RowFactory.SurveyValues(
            tag: asset.tag, serial: asset.serial, mac: asset.mac, building: asset.building, room: asset.room,
            mount: asset.mount, scanned: recentScanDay(), latitudeMicrodegrees: asset.latitudeMicrodegrees,
            longitudeMicrodegrees: asset.longitudeMicrodegrees)
        var controllerModel = asset.model
        var registerCNS = asset.cns
        var custodianListValue = asset.custodian
        var legacyTagText: String?

        switch asset.role {
        case .missing, .typoTarget:
            presence.survey = false
            presence.controller = false
            presence.receiving = false
        case .sharedSerialOwner, .sharedMACOwner, .cnsReusedOwner, .duplicateRow, .duplicateTag, .unknownBuilding:
            presence.survey = true
        case .sharedSerialCopier(let owner):
            centralSerial = assets[owner].serial
            surveyValues.serial = nil
            presence.survey = true
            presence.controller = false
            presence.receiving = false
            presence.legacy = false
        case .sharedMACCopier(let owner):
            centralMAC = assets[owner].mac
            surveyValues.mac = nil
            presence.survey = true
            presence.controller = false
            presence.receiving = false
            presence.legacy = false
        case .tagCNSMismatch(let other):
            registerCNS = other
            presence.cnsRegister = true
            presence.billing = false
        case .cnsReusedVictim, .noCNS:
            presence.cnsRegister = false
            presence.billing = false
        case .fieldConflict(let field):
            presence.survey = true
            switch field {
            case .model:
                controllerModel = otherModel(than: asset.model)
                presence.controller = true
                presence.receiving = false
                presence.cnsRegister = false
            case .building:
                let other = otherBuilding(than: asset.building)
                surveyValues.building = other
                surveyValues.latitudeMicrodegrees = BuildingCatalog.buildings[other].latitudeMicrodegrees
                surveyValues.longitudeMicrodegrees = BuildingCatalog.buildings[other].longitudeMicrodegrees
                presence.legacy = false
            case .room:
                surveyValues.room = otherRoom(than: asset.room)
                presence.legacy = false
            case .mount:
                surveyValues.mount = asset.mount == "wall" ? "ceiling" : "wall"
            case .custodian:
                custodianListValue = otherCustodian(than: asset.custodian)
                presence.custodians = true
                presence.propertyTags = false
            }
        case .invalidValue(let kind):
            presence.survey = true
            switch kind {
            case .shortMAC, .impossibleDate:
                presence.controller = true
            case .scientificTag:
                presence.legacy = true
                legacyTagText = NoiseStyle.scientificTag(asset.tag)
            case .gpsOutOfRange:
                break
            }
        case .stale:
            presence.survey = true
            presence.controller = false
            presence.receiving = false
            surveyValues.scanned = options.asOf.adding(days: -random.integer(in: 400...900))
        case .clean:
            break
        }

        let clean = asset.role == .clean
        let centralCells = factory.central(
            asset, serial: centralSerial, mac: centralMAC, cns: asset.cns, clean: clean, random: &random)
        let centralMarker = addRow(centralCells, to: .central, group: asset.building, marked: true)
        // The row that carries the injection, when it is not the central row.
        var injectedMarker: Int?
        var surveyCells: [SourceColumn: String] = [:]
        if presence.survey {
            let survey = emitSurveyRow(of: asset, values: surveyValues, clean: clean)
            injectedMarker = survey.marker
            surveyCells = survey.cells
        }
        if presence.controller {
            let cells = factory.controller(
                name: accessPointName(asset), serial: asset.serial, mac: asset.mac, model: controllerModel,
                seen: options.asOf.adding(days: -random.integer(in: 0...20)), clean: clean, random: &random)
            let marker = addRow(cells, to: .controller, group: 0, marked: true)
            if controllerModel != asset.model {
                injectedMarker = marker
            }
        }
        if presence.receiving {
            let cells = factory.receiving(
                serial: asset.serial, mac: asset.mac, model: asset.model,
                received: options.asOf.adding(days: -random.integer(in: 400...1_200)), random: &random)
            addRow(cells, to: .receiving, group: 0)
        }
        if let marker = emitRegisterRows(
            of: asset, presence: presence, registerCNS: registerCNS, custodian: custodianListValue,
            legacyTagText: legacyTagText)
        {
            injectedMarker = marker
        }
        let injection = Injection(
            centralMarker: centralMarker!, injectedMarker: injectedMarker, survey: surveyValues,
            surveyCells: surveyCells,
            controllerModel: controllerModel, custodian: custodianListValue, registerCNS: registerCNS,
            legacyTagText: legacyTagText)
        expectInjection(ofAsset: index, injection)
    }

    /// Writes the survey row of an asset, applying the survey-level injections and the extra rows of
    /// `DUPLICATE_ROW` and `DUPLICATE_TAG`; returns the marker of the asset's own row.
    private mutating func emitSurveyRow(of asset: Asset, values: RowFactory.SurveyValues, clean: Bool)
        -> (marker: Int, cells: [SourceColumn: String])
    {
        var cells = factory.survey(values, clean: clean, random: &random)
        switch asset.role {
        case .invalidValue(.shortMAC):
            cells[.mac] = NoiseStyle.shortMAC(asset.mac)
        case .invalidValue(.gpsOutOfRange):
            let latitude = 91_000_000 + random.below(8_000_000)
            cells[.gps] = NoiseStyle.gps(
                latitudeMicrodegrees: latitude, longitudeMicrodegrees: asset.longitudeMicrodegrees)
            cells[.latitude] = CanonicalForm.degrees(latitude)
        case .invalidValue(.impossibleDate):
            cells[.lastSeen] = invalidDateCount % 2 == 0 ? "13/45/2025" : "2/30/2026"
            invalidDateCount += 1
        case .unknownBuilding:
            cells[.building] = random.element(of: BuildingCatalog.unknownCodes)
        default:
            break
        }
        let file = SourceFile.survey(zone: BuildingCatalog.buildings[values.building].zone)
        let rank = random.next() >> 1
        let marker = addRow(cells, to: file, group: values.building, rank: rank, marked: true)!
        if asset.role == .clean && random.chance(0.02) {
            // A rescan on another day: the same device in the same place, harmless.
            var rescan = values
            let age = options.asOf.daysSinceEpoch - values.scanned.daysSinceEpoch
            rescan.scanned =
                age >= 1
                ? values.scanned.adding(days: random.integer(in: 1...age))
                : values.scanned.adding(days: -random.integer(in: 1...30))
            addRow(factory.survey(rescan, clean: true, random: &random), to: file, group: values.building)
        }
        if asset.role == .duplicateRow {
            // The copy comes later in the same building's block.
            let copyRank = rank + (random.next() >> 5) + 1
            let copy = addRow(cells, to: file, group: values.building, rank: copyRank, marked: true)!
            expect(
                .duplicateRow, vtTag: tagText(asset.tag), note: "a survey row ({0}) repeated word for word ({1})",
                markers: [marker, copy])
        }
        if asset.role == .duplicateTag {
            var other = values
            other.serial = identifiers.serial(random: &random)
            other.mac = identifiers.mac(random: &random)
            other.scanned = recentScanDay()
            let otherMarker = addRow(
                factory.survey(other, clean: false, random: &random), to: file, group: values.building, marked: true)!
            expect(
                .duplicateTag, vtTag: tagText(asset.tag), field: "serial_number",
                note: "the tag scanned on a second device with serial \(other.serial!) and MAC "
                    + CanonicalForm.mac(other.mac!) + " ({0}), besides the asset's own scan ({1})",
                markers: [otherMarker, marker])
        }
        return (marker, cells)
    }

    /// Writes the register rows of an asset; returns the marker of a register row that carries an injection.
    private mutating func emitRegisterRows(
        of asset: Asset, presence: Presence, registerCNS: Int?, custodian: String, legacyTagText: String?
    ) -> Int? {
        let clean = asset.role == .clean
        var injectedMarker: Int?
        if presence.propertyTags {
            let cells = factory.propertyTag(
                tag: asset.tag, description: "WIRELESS ACCESS POINT " + asset.model, custodian: asset.custodian,
                acquired: asset.lastInventory.adding(days: -random.integer(in: 30...900)), clean: clean,
                random: &random)
            addRow(cells, to: .propertyTags, group: 0, rank: UInt64(asset.tag))
        }
        if presence.cnsRegister, let cns = registerCNS {
            let cells = factory.cnsRegister(cns: cns, tag: asset.tag, model: asset.model, random: &random)
            let marker = addRow(cells, to: .cnsRegister, group: 0, rank: UInt64(cns), marked: true)
            if registerCNS != asset.cns {
                injectedMarker = marker
            }
        }
        if presence.custodians {
            let cells = factory.custodian(tag: asset.tag, custodian: custodian, random: &random)
            let marker = addRow(cells, to: .custodians, group: 0, marked: true)
            if custodian != asset.custodian {
                injectedMarker = marker
            }
        }
        if presence.billing, let cns = asset.cns {
            let cells = factory.billing(tag: asset.tag, cns: cns, model: asset.model, random: &random)
            addRow(cells, to: .billing, group: 0)
        }
        if presence.legacy {
            let cells = factory.legacy(asset, tagText: legacyTagText, random: &random)
            let marker = addRow(cells, to: .legacy, group: 0, rank: UInt64(asset.tag), marked: true)
            if legacyTagText != nil {
                injectedMarker = marker
            }
        }
        return injectedMarker
    }
}
