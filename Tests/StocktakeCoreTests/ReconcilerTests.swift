import Testing

@testable import StocktakeCore

@Suite("Reconciler: one test per discrepancy code, and the statuses")
struct ReconcilerTests {
    /// Two central assets, both sighted with matching values: nothing to report.
    static let clean = """
        \(centralHeader)
        004512,C000123,CNF123,aa:bb:cc:dd:ee:01,AP-515,BUR,101,ceiling,jdoe
        004513,C000124,CNF124,aa:bb:cc:dd:ee:02,AP-515,BUR,102,wall,jdoe
        """
    static let cleanSurvey = """
        \(surveyHeader)
        VT-4512,cnf123,AABB.CCDD.EE01,Burruss Hall,101,3/5/2026
        4513,CNF124,AA-BB-CC-DD-EE-02,bur,102,2026-01-02T10:00:00Z
        """

    @Test func cleanAccountHasNoDiscrepanciesAndHarmlessNoiseIsNotFlagged() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey)
        let result = try fixture.reconcile()
        #expect(result.discrepancies.isEmpty, "\(result.discrepancies.map(\.message))")
        #expect(result.assets.map(\.status) == [.ok, .ok])
        #expect(result.asset("004512")?.values.lastSeen?.description == "2026-03-05")
        #expect(result.asset("004512")?.sources == ["central.csv", "survey.csv"])
    }

    /// Up to 64 files, an asset's files are a bit set (`SourceLists`); past that, a list made for each asset. Both
    /// name the files in source order, the sets of all 64 files and of the last alone included.
    @Test func theSourcesCellNamesEveryFileAroundSixtyFourFiles() throws {
        for fileCount in [63, 64, 65] {
            var fixture = ReconcileFixture(central: Self.clean)
            let sightings = (1..<fileCount - 1).map { "s\($0 < 10 ? "0" : "")\($0).csv" }
            for name in sightings { fixture.sighting(name, "\(surveyHeader)\n4512,CNF123,,BUR,101,2026-01-02") }
            // The last file sees both assets: one asset is in every file, the other in the first and the last.
            fixture.sighting(
                "t.csv", "\(surveyHeader)\n4512,CNF123,,BUR,101,2026-01-02\n4513,CNF124,,BUR,102,2026-01-02")
            let result = try fixture.reconcile()
            #expect(result.asset("004512")?.sources == ["central.csv"] + sightings + ["t.csv"], "\(fileCount) files")
            #expect(result.asset("004513")?.sources == ["central.csv", "t.csv"], "\(fileCount) files")
        }
    }

    @Test func missing() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", "\(surveyHeader)\n4513,CNF124,,BUR,102,2026-01-02")
        let result = try fixture.reconcile()
        #expect(result.codes == [.missing])
        let missing = try #require(result.found(.missing).first)
        #expect(missing.vtTag?.description == "004512")
        #expect(missing.severity == .error)
        #expect(missing.sources == [SourceLocation(file: "central.csv", row: 1)])
        #expect(
            missing.message
                == "VT tag 004512 (serial CNF123, CNS C000123) is in central.csv row 1 but no sighting file has seen it. "
                + "Look for it in building BUR room 101, or retire it in the central sheet.")
        #expect(result.asset("004512")?.status == .missing)
    }

    @Test func aRegisterRowIsNotASighting() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", "\(surveyHeader)\n4513,CNF124,,BUR,102,2026-01-02")
        fixture.register("cns_register.csv", "C Number,VT ID\nC000123,004512")
        #expect(try fixture.reconcile().codes == [.missing])
    }

    @Test func unrecordedFromASightingAndFromARegister() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey + "\n770001,NEW1,,BUR,1,2026-02-02")
        fixture.register("property_tags.csv", "Inventory Number,Description\n880002,Access point")
        let result = try fixture.reconcile()
        #expect(result.codes == [.unrecorded, .unrecorded])
        #expect(result.found(.unrecorded).map { $0.vtTag!.description } == ["770001", "880002"])
        #expect(
            result.found(.unrecorded)[0].message
                == "VT tag 770001 is in survey.csv row 3 but not in the central sheet. "
                + "Add it to the central sheet if the device is real, or check the tag number.")
        #expect(result.asset("770001")?.status == .unrecorded)
        #expect(result.assets.map { $0.values.vtTag!.description } == ["004512", "004513", "770001", "880002"])
    }

    @Test func noTagForAControllerRowThatMatchesNothing() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey)
        fixture.sighting(
            "controller.csv", "AP Name,Wired MAC,Serial #\nap-1,aa:bb:cc:dd:ee:01,CNF123\nap-9,aa:bb:cc:00:00:09,ZZZ999"
        )
        let result = try fixture.reconcile()
        #expect(result.codes == [.noTag])
        let noTag = try #require(result.found(.noTag).first)
        #expect(noTag.serialNumber?.description == "ZZZ999")
        #expect(noTag.macAddress?.description == "aa:bb:cc:00:00:09")
        #expect(noTag.vtTag == nil)
        #expect(noTag.sources == [SourceLocation(file: "controller.csv", row: 2)])
        #expect(result.assets.count == 2)
    }

    @Test func duplicateTagWhenOneTagCarriesTwoSerials() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey + "\n4512,CNG456,,BUR,101,2026-03-05")
        let result = try fixture.reconcile()
        #expect(result.codes == [.duplicateTag])
        let duplicate = try #require(result.found(.duplicateTag).first)
        #expect(duplicate.field == .serialNumber)
        #expect(duplicate.expected == "CNF123")
        #expect(duplicate.value == "CNG456")
        #expect(
            duplicate.message
                == "VT tag 004512 is on two devices: serial CNF123 in central.csv row 1 and survey.csv row 1; "
                + "serial CNG456 in survey.csv row 3. Check which device carries the sticker.")
        #expect(result.asset("004512")?.status == .conflict)
        #expect(result.asset("004512")?.values.serialNumber?.description == "CNF123")
    }

    @Test func duplicateTagWhenATaglessRowAddsASecondMAC() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey)
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nCNF123,aa:bb:cc:dd:ee:99")
        let result = try fixture.reconcile()
        #expect(result.codes == [.duplicateTag])
        #expect(result.found(.duplicateTag).first?.field == .macAddress)
    }

    @Test func sharedSerialAndTheRowItStrands() throws {
        var fixture = ReconcileFixture(
            central: """
                \(centralHeader)
                004512,C000123,CNF123,aa:bb:cc:dd:ee:01,AP-515,BUR,101,ceiling,jdoe
                004513,C000124,CNF123,,AP-515,BUR,102,wall,jdoe
                """)
        fixture.sighting("survey.csv", "\(surveyHeader)\n4512,,,BUR,101,2026-03-05\n4513,,,BUR,102,2026-03-05")
        fixture.sighting("receiving.csv", "Serial No,Received\nCNF123,2026-01-01")
        let result = try fixture.reconcile()
        #expect(result.codes == [.sharedSerial])
        let shared = try #require(result.found(.sharedSerial).first)
        #expect(shared.serialNumber?.description == "CNF123")
        #expect(shared.vtTag?.description == "004512")
        #expect(shared.value == "004513")
        #expect(
            shared.sources.map(\.description) == ["central.csv:1", "central.csv:2", "receiving.csv:1"])
        #expect(
            shared.message
                == "Serial number CNF123 is on VT tag 004512 (central.csv row 1) and VT tag 004513 (central.csv row 2). "
                + "receiving.csv row 1 also carries it and could not be matched. "
                + "A serial number belongs to one device: check the devices and correct the wrong record.")
    }

    @Test func aSharedSerialIsDecidedByTheMAC() throws {
        var fixture = ReconcileFixture(
            central: """
                \(centralHeader)
                004512,C000123,CNF123,aa:bb:cc:dd:ee:01,AP-515,BUR,101,ceiling,jdoe
                004513,C000124,CNF123,aa:bb:cc:dd:ee:02,AP-515,BUR,102,wall,jdoe
                """)
        fixture.sighting("survey.csv", "\(surveyHeader)\n4512,,,BUR,101,2026-03-05")
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nCNF123,aa:bb:cc:dd:ee:02")
        let result = try fixture.reconcile()
        #expect(result.codes == [.sharedSerial])
        #expect(
            result.found(.sharedSerial).first?.sources.contains(SourceLocation(file: "controller.csv", row: 1)) == true)
        #expect(result.asset("004513")?.sources == ["central.csv", "controller.csv"])
    }

    /// Past a few hundred shared values, serial numbers, MACs and CNS numbers are each looked at on a core of their
    /// own: the findings, the statuses and a POSSIBLE_TYPO pair's shared serial are those of one thread.
    @Test func hundredsOfSharedValuesAreFoundOnSeveralCoresAsOnOne() throws {
        let pairs = ReconcileRun.sharedValuesPerThread / 2 + 10
        var central = centralHeader
        var survey = surveyHeader
        // A central tag not seen and a scanned tag one digit away, both carrying serial TYPO1: a POSSIBLE_TYPO pair.
        central += "\n004512,C000001,TYPO1,,AP-515,BUR,101,ceiling,jdoe"
        survey += "\n004517,TYPO1,,BUR,101,2026-03-05"
        for pair in 0..<pairs {
            for (block, field) in [(100_000, 0), (300_000, 1), (500_000, 2)] {
                for side in 0..<2 {
                    let tag = block + 2 * pair + side
                    let cns = field == 2 ? String(format: "C%06d", 10_000 + pair) : String(format: "C%06d", tag)
                    let serial = field == 0 ? "SHARED\(pair)" : "S\(tag)"
                    let mac = field == 1 ? String(format: "aa:bb:cc:00:%02x:%02x", pair / 256, pair % 256) : ""
                    central += "\n\(tag),\(cns),\(serial),\(mac),AP-515,BUR,101,ceiling,jdoe"
                    survey += "\n\(tag),,,BUR,101,2026-03-05"
                }
            }
        }
        var fixture = ReconcileFixture(central: central)
        fixture.sighting("survey.csv", survey)
        let result = try fixture.reconcile()
        let alone = try Parallel.withoutThreads { try fixture.reconcile() }
        #expect(result.found(.sharedSerial).count == pairs)
        #expect(result.found(.sharedMAC).count == pairs)
        #expect(result.found(.cnsReused).count == pairs)
        let typo = try #require(result.found(.possibleTypo).first)
        #expect(typo.message.contains("TYPO1"), "the pair's shared serial is named in its finding")
        #expect(result.discrepancies == alone.discrepancies)
        #expect(result.assets.map(\.status) == alone.assets.map(\.status))
        #expect(result.assets.filter { $0.status == .conflict }.count == 6 * pairs)
    }

    @Test func sharedMAC() throws {
        var fixture = ReconcileFixture(
            central: """
                \(centralHeader)
                004512,C000123,CNF123,aa:bb:cc:dd:ee:01,AP-515,BUR,101,ceiling,jdoe
                004513,C000124,CNF124,AA-BB-CC-DD-EE-01,AP-515,BUR,102,wall,jdoe
                """)
        fixture.sighting("survey.csv", "\(surveyHeader)\n4512,,,BUR,101,2026-03-05\n4513,,,BUR,102,2026-03-05")
        let result = try fixture.reconcile()
        #expect(result.codes == [.sharedMAC])
        #expect(result.found(.sharedMAC).first?.macAddress?.description == "aa:bb:cc:dd:ee:01")
        #expect(result.found(.sharedMAC).first?.value == "004513")
    }

    @Test func tagCNSMismatch() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey)
        fixture.register("cns_register.csv", "C Number,VT ID\nc-999,VT-004512\nC000124,4513")
        let result = try fixture.reconcile()
        #expect(result.codes == [.tagCNSMismatch])
        let mismatch = try #require(result.found(.tagCNSMismatch).first)
        #expect(mismatch.expected == "C000123")
        #expect(mismatch.value == "C000999")
        #expect(
            mismatch.message
                == "VT tag 004512 is paired with CNS C000123 in central.csv row 1 and CNS C000999 in "
                + "cns_register.csv row 1. Check the CNS label on the device and correct the wrong record.")
    }

    @Test func cnsReused() throws {
        var fixture = ReconcileFixture(
            central: """
                \(centralHeader)
                004512,C000123,CNF123,aa:bb:cc:dd:ee:01,AP-515,BUR,101,ceiling,jdoe
                004513,123,CNF124,aa:bb:cc:dd:ee:02,AP-515,BUR,102,wall,jdoe
                """)
        fixture.sighting("survey.csv", Self.cleanSurvey)
        let result = try fixture.reconcile()
        #expect(result.codes == [.cnsReused])
        #expect(result.found(.cnsReused).first?.cnsNumber?.description == "C000123")
    }

    @Test func noCNS() throws {
        var fixture = ReconcileFixture(central: Self.clean.replacingOccurrences(of: "C000124", with: "N/A"))
        fixture.sighting("survey.csv", Self.cleanSurvey)
        let result = try fixture.reconcile()
        #expect(result.codes == [.noCNS])
        #expect(result.found(.noCNS).first?.vtTag?.description == "004513")
        // A CNS number from a register is enough.
        fixture.register("cns_register.csv", "C Number,VT ID\nC000124,4513")
        #expect(try fixture.reconcile().codes == [])
    }

    @Test(arguments: [("004517", "one digit differs"), ("004521", "two adjacent digits are swapped")])
    func possibleTypoReplacesTheMissingAndUnrecordedPair(scanned: String, edit: String) throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting(
            "survey.csv", "\(surveyHeader)\n\(scanned),,,BUR,101,2026-03-05\n4513,CNF124,,BUR,102,2026-03-05")
        let result = try fixture.reconcile()
        #expect(result.codes == [.possibleTypo])
        let typo = try #require(result.found(.possibleTypo).first)
        #expect(typo.value == scanned)
        #expect(typo.expected == "004512")
        #expect(typo.vtTag?.description == "004512")
        #expect(
            typo.message
                == "VT tag \(scanned) in survey.csv row 1 is not in the central sheet, and central tag 004512 "
                + "(central.csv row 1, building BUR) was not seen; \(edit). "
                + "Check the sticker on the device and correct whichever number is wrong.")
        #expect(typo.sources.map(\.description) == ["central.csv:1", "survey.csv:1"])
        // The scanned tag is not an asset of its own; the central one is `typo`, and the statuses match the codes.
        #expect(result.assets.map { $0.values.vtTag!.description } == ["004512", "004513"])
        #expect(result.assets.map(\.status) == [.typo, .ok])
        #expect(result.asset("004512")?.values.room == "101")
    }

    /// A survey row that carries the right serial and MAC under a mistyped tag: one device, one finding.
    static let typoWithTheCentralIdentifiers = """
        \(surveyHeader)
        004521,cnf 123,AABB.CCDD.EE01,BUR,101,2026-03-05
        4513,CNF124,,BUR,102,2026-03-05
        """

    @Test func aTypoScanCarryingTheCentralSerialAndMACIsOneFinding() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.typoWithTheCentralIdentifiers)
        let result = try fixture.reconcile()
        #expect(result.codes == [.possibleTypo])
        let typo = try #require(result.found(.possibleTypo).first)
        #expect(typo.value == "004521")
        #expect(typo.expected == "004512")
        #expect(typo.sources.map(\.description) == ["central.csv:1", "survey.csv:1"])
        #expect(
            typo.message
                == "VT tag 004521 in survey.csv row 1 is not in the central sheet, and central tag 004512 "
                + "(central.csv row 1, building BUR) was not seen; two adjacent digits are swapped. "
                + "Both carry serial number CNF123 and MAC address aa:bb:cc:dd:ee:01. "
                + "Check the sticker on the device and correct whichever number is wrong.")
        #expect(result.assets.map { $0.values.vtTag!.description } == ["004512", "004513"])
        #expect(result.assets.map(\.status) == [.typo, .ok])
    }

    @Test func aRowThatCouldBeEitherTagOfATypoPairIsNamedInItsFinding() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.typoWithTheCentralIdentifiers)
        fixture.sighting("controller.csv", "Serial #,AP Name\nCNF123,ap-1")
        let result = try fixture.reconcile()
        #expect(result.codes == [.possibleTypo])
        let typo = try #require(result.found(.possibleTypo).first)
        #expect(typo.sources.map(\.description) == ["central.csv:1", "controller.csv:1", "survey.csv:1"])
        #expect(
            typo.message
                == "VT tag 004521 in survey.csv row 1 is not in the central sheet, and central tag 004512 "
                + "(central.csv row 1, building BUR) was not seen; two adjacent digits are swapped. "
                + "Both carry serial number CNF123 (also in controller.csv row 1) and MAC address "
                + "aa:bb:cc:dd:ee:01. Check the sticker on the device and correct whichever number is wrong.")
        #expect(result.assets.map(\.sources) == [["central.csv"], ["central.csv", "survey.csv"]])
    }

    @Test func aSerialOnAThirdTagIsStillShared() throws {
        var fixture = ReconcileFixture(central: Self.clean.replacingOccurrences(of: "CNF124", with: "CNF123"))
        fixture.sighting("survey.csv", Self.typoWithTheCentralIdentifiers.replacingOccurrences(of: "CNF124", with: ""))
        let result = try fixture.reconcile()
        #expect(result.codes == [.sharedSerial, .possibleTypo])
        let shared = try #require(result.found(.sharedSerial).first)
        #expect(shared.vtTag?.description == "004512")
        #expect(shared.value == "004513; 004521")
        #expect(
            shared.message
                == "Serial number CNF123 is on VT tag 004512 (central.csv row 1), VT tag 004513 (central.csv row 2) "
                + "and VT tag 004521 (survey.csv row 1). "
                + "A serial number belongs to one device: check the devices and correct the wrong record.")
        #expect(
            result.found(.possibleTypo).first?.message
                == "VT tag 004521 in survey.csv row 1 is not in the central sheet, and central tag 004512 "
                + "(central.csv row 1, building BUR) was not seen; two adjacent digits are swapped. "
                + "Both carry MAC address aa:bb:cc:dd:ee:01. "
                + "Check the sticker on the device and correct whichever number is wrong.")
        // A dispute does not hide the typo: each status is one presence finding.
        #expect(result.assets.map(\.status) == [.typo, .conflict])
    }

    @Test func aConflictAmongTheRowsOfATypoScanDoesNotClaimACleanedRow() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting(
            "survey.csv", "\(surveyHeader)\n004521,,,BUR,101,2026-03-05\n004521,,,BUR,105,2026-03-06\n4513,,,BUR,102,")
        let result = try fixture.reconcile()
        #expect(result.codes == [.possibleTypo, .fieldConflict])
        let conflict = try #require(result.found(.fieldConflict).first)
        #expect(conflict.vtTag?.description == "004521")
        #expect(
            conflict.message
                == "Sources disagree on the room of VT tag 004521: 101 in survey.csv row 1; 105 in survey.csv row 2. "
                + "The tag has no row in the cleaned sheet: it is a possible typo of central tag 004512. "
                + "Check the device and correct the wrong records.")
        #expect(
            result.found(.possibleTypo).first?.sources.map(\.description) == [
                "central.csv:1", "survey.csv:1", "survey.csv:2",
            ])
        #expect(result.assets.map(\.status) == [.typo, .ok])
    }

    @Test func noTypoAcrossBuildings() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", "\(surveyHeader)\n004517,,,TORG,101,2026-03-05\n4513,CNF124,,BUR,102,2026-03-05")
        #expect(try fixture.reconcile().codes == [.missing, .unrecorded])
    }

    @Test func fieldConflictPrefersFieldEvidence() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey.replacingOccurrences(of: "Burruss Hall,101", with: "BUR,205"))
        fixture.register("custodians.csv", "Asset Tag,Assigned To\n4513,asmith")
        let result = try fixture.reconcile()
        #expect(result.codes == [.fieldConflict, .fieldConflict])
        let room = try #require(result.found(.fieldConflict).first { $0.field == .room })
        #expect(room.value == "205")
        #expect(room.expected == "101")
        #expect(
            room.message
                == "Sources disagree on the room of VT tag 004512: 205 in survey.csv row 1; 101 in central.csv row 1. "
                + "The cleaned sheet uses 205; check the device and correct the other records.")
        let custodian = try #require(result.found(.fieldConflict).first { $0.field == .custodian })
        #expect(custodian.value == "asmith")
        #expect(result.asset("004512")?.values.room == "205")
        #expect(result.asset("004513")?.values.custodian == "asmith")
        #expect(result.asset("004512")?.status == .conflict)
    }

    @Test func accountPrecedencePutsCentralFirstForOneField() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey.replacingOccurrences(of: "Burruss Hall,101", with: "BUR,205"))
        fixture.rules.precedence[.room] = FieldPrecedence(["central", "survey"])
        let result = try fixture.reconcile()
        #expect(result.asset("004512")?.values.room == "101")
        #expect(result.found(.fieldConflict).first?.value == "101")
    }

    @Test func invalidValueIsReportedOnceAndLeftOut() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey + "\n4513,,00:1A:2B:3C:4D,BUR,102,13/45/2025")
        let result = try fixture.reconcile()
        #expect(result.codes == [.invalidValue, .invalidValue])
        let mac = try #require(result.found(.invalidValue).first { $0.field == .macAddress })
        #expect(mac.vtTag?.description == "004513")
        #expect(mac.value == "00:1A:2B:3C:4D")
        #expect(mac.sources == [SourceLocation(file: "survey.csv", row: 3)])
        #expect(mac.message.hasPrefix("The MAC address \"00:1A:2B:3C:4D\" in survey.csv row 3 (VT tag 004513) "))
        #expect(mac.message.hasSuffix(" It was left out; correct the cell."))
        #expect(result.asset("004513")?.values.macAddress?.description == "aa:bb:cc:dd:ee:02")
    }

    @Test func aTagInScientificNotationJoinsBySerial() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey)
        fixture.register("legacy_2014.csv", "TAG_NO,SN\n4.51E+03,CNF123")
        let result = try fixture.reconcile()
        #expect(result.codes == [.invalidValue])
        let invalid = try #require(result.found(.invalidValue).first)
        #expect(invalid.field == .vtTag)
        #expect(invalid.value == "4.51E+03")
        #expect(invalid.vtTag?.description == "004512")
        #expect(result.asset("004512")?.sources == ["central.csv", "survey.csv", "legacy_2014.csv"])
    }

    @Test func unknownBuildingNeverConflicts() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey.replacingOccurrences(of: "Burruss Hall", with: "ZZB"))
        let result = try fixture.reconcile()
        #expect(result.codes == [.unknownBuilding])
        let unknown = try #require(result.found(.unknownBuilding).first)
        #expect(unknown.value == "ZZB")
        #expect(unknown.vtTag?.description == "004512")
        #expect(result.asset("004512")?.values.building == "BUR")
    }

    @Test func staleWhenEverySightingIsOld() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey.replacingOccurrences(of: "3/5/2026", with: "11/19/2025"))
        let result = try fixture.reconcile()
        #expect(result.codes == [.stale])
        let stale = try #require(result.found(.stale).first)
        #expect(stale.value == "2025-11-19")
        #expect(stale.expected == "2025-11-20")
        // Exactly at the limit is not stale.
        var atLimit = ReconcileFixture(central: Self.clean)
        atLimit.sighting("survey.csv", Self.cleanSurvey.replacingOccurrences(of: "3/5/2026", with: "11/20/2025"))
        #expect(try atLimit.reconcile().codes == [])
    }

    @Test func notStaleWhenASightingHasNoDate() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey.replacingOccurrences(of: "3/5/2026", with: "1/1/2020"))
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nCNF123,aa:bb:cc:dd:ee:01")
        #expect(try fixture.reconcile().codes == [])
    }

    /// The sightings' dates decide: a register's newer date of the same asset does not make it fresh.
    @Test func staleGoesByTheSightingsNotANewerRegisterDate() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey.replacingOccurrences(of: "3/5/2026", with: "11/19/2025"))
        fixture.register("audit.csv", "VT Tag,Last Seen\n004512,2026-11-01")
        let result = try fixture.reconcile()
        #expect(result.codes == [.stale])
        #expect(result.found(.stale).first?.value == "2025-11-19")
        #expect(result.found(.stale).first?.vtTag?.description == "004512")
    }

    /// An old sighting of an asset the central sheet does not list is UNRECORDED, never STALE.
    @Test func anAssetOnlySightedIsUnrecordedNotStale() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey + "\n4514,CNF125,AA-BB-CC-DD-EE-03,bur,103,1/1/2020")
        let result = try fixture.reconcile()
        #expect(result.codes == [.unrecorded])
        #expect(result.found(.unrecorded).first?.vtTag?.description == "004514")
    }

    @Test func duplicateRowCountsOnce() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting(
            "survey.csv", Self.cleanSurvey + "\n4513,CNF124,AA-BB-CC-DD-EE-02,bur,102,2026-01-02T10:00:00Z")
        let result = try fixture.reconcile()
        #expect(result.codes == [.duplicateRow])
        let repeated = try #require(result.found(.duplicateRow).first)
        #expect(repeated.severity == .info)
        #expect(repeated.vtTag?.description == "004513")
        #expect(repeated.sources.map(\.description) == ["survey.csv:2", "survey.csv:3"])
    }

    @Test func aRowWithoutIdentifiersIsNamed() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting("survey.csv", Self.cleanSurvey + "\n,,,BUR,999,2026-01-02")
        let result = try fixture.reconcile()
        #expect(result.codes == [.invalidValue])
        #expect(
            result.found(.invalidValue).first?.message
                == "survey.csv row 3 has no VT tag, CNS number, serial number or MAC address, so it cannot be "
                + "matched. Add an identifier or remove the row.")
    }

    @Test func discrepanciesAreListedBySeverityThenCode() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting(
            "survey.csv",
            "\(surveyHeader)\n4513,CNF124,,ZZB,102,2026-01-02\n4513,CNF124,,ZZB,102,2026-01-02\n990000,,,BUR,1,2026-01-01"
        )
        let result = try fixture.reconcile()
        #expect(result.codes == [.missing, .unrecorded, .unknownBuilding, .duplicateRow])
        #expect(result.discrepancies.map(\.code) == [.missing, .unrecorded, .unknownBuilding, .duplicateRow])
    }

    @Test func everyInputRowIsInAnAssetOrNamedInADiscrepancy() throws {
        var fixture = ReconcileFixture(central: Self.clean)
        fixture.sighting(
            "survey.csv",
            Self.cleanSurvey
                + "\n4513,CNF124,AA-BB-CC-DD-EE-02,bur,102,2026-01-02T10:00:00Z\n,,,BUR,1,\n770001,X1,,BUR,1,")
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nQQQ,aa:bb:cc:00:00:01\nCNF123,")
        let result = try fixture.reconcile()
        let named = Set(result.discrepancies.flatMap(\.sources))
        for source in try fixture.sources() {
            for row in 1...source.rowCount {
                let location = SourceLocation(file: source.file.displayName, row: row)
                let inAsset =
                    source.records.contains { Int($0.row) == row }
                    && result.assets.contains { $0.sources.contains(source.file.displayName) }
                #expect(inAsset || named.contains(location), "\(location) is lost")
            }
        }
    }
}

@Suite("Reconciler: damaged CSV text")
struct ReconcilerDamagedTextTests {
    @Test func invalidUTF8IsReportedWithFileRowAndLine() throws {
        let fixture = ReconcileFixture(central: ReconcilerTests.clean)
        // The survey's room cell of data row 2 (line 3) holds the byte 0xFF, which is never UTF-8, in a file whose
        // byte-order mark says it is UTF-8 (without one, the file would be read as Windows-1252).
        var bytes = EncodingSniffer.utf8ByteOrderMark + Array(ReconcilerTests.cleanSurvey.utf8)
        let room = Array(",102,".utf8)
        let at = try #require((0...(bytes.count - room.count)).first { Array(bytes[$0..<$0 + room.count]) == room })
        bytes[at + 2] = 0xFF
        var csv = CSVReader(bytes: bytes, name: "survey.csv")
        let survey = try SourceReader(mapping: .builtIn, buildings: fixture.buildings)
            .read(SourceFile(path: "survey.csv", role: .sighting), from: &csv)
        let sources = try fixture.sources() + [survey]
        let result = Reconciler(rules: fixture.rules).reconcile(sources)
        let damaged = try #require(result.found(.invalidValue).first)
        #expect(damaged.field == .room)
        #expect(damaged.sources == [SourceLocation(file: "survey.csv", row: 2)])
        #expect(
            damaged.message
                == "The room \"1\u{FFFD}2\" in survey.csv row 2 (line 3) (VT tag 004513) holds bytes that are not UTF-8; "
                + "save the file as CSV UTF-8. Check the cell.")
    }

    @Test func aStrayQuoteIsKeptAndReported() throws {
        var fixture = ReconcileFixture(central: ReconcilerTests.clean)
        fixture.sighting("survey.csv", ReconcilerTests.cleanSurvey.replacingOccurrences(of: ",102,", with: ",10\"2,"))
        let result = try fixture.reconcile()
        #expect(result.codes == [.fieldConflict, .invalidValue])
        #expect(result.asset("004513")?.values.room == "10\"2")
        let damaged = try #require(result.found(.invalidValue).first)
        #expect(damaged.message.contains("has a stray quote (\") outside a quoted field; it is kept as written"))
    }
}

@Suite("Reconciler: thousands of rows sharing one value")
struct ReconcilerLargeListTests {
    @Test func aSerialOnThousandsOfTagsGivesAShortMessage() throws {
        var rows = ["VT Tag,Serial Number"]
        for tag in 1...3_000 { rows.append("\(100_000 + tag),UNKNOWN1") }
        let fixture = ReconcileFixture(central: rows.joined(separator: "\n"))
        let shared = try #require(try fixture.reconcile().found(.sharedSerial).first)
        #expect(shared.sources.count == 3_000, "every row stays named")
        #expect(shared.message.count < 1_000)
        #expect(shared.message.contains("2994 more"))
        #expect(shared.value.hasSuffix("; and 2979 more"))
        #expect(shared.value.split(separator: ";").count == 21)
    }

    @Test func aFilledDownTagColumnGivesAShortDuplicateTagMessage() throws {
        var rows = ["VT Tag,Serial Number"]
        for serial in 1...3_000 { rows.append("100000,S\(serial)") }
        let fixture = ReconcileFixture(central: rows.joined(separator: "\n"))
        let duplicate = try #require(try fixture.reconcile().found(.duplicateTag).first)
        #expect(duplicate.message.hasPrefix("VT tag 100000 is on 3000 devices: serial S1 in central.csv row 1, "))
        #expect(duplicate.message.count < 1_000)
        #expect(duplicate.expected == "S1")
    }
}

@Suite("Reconciler: reordering findings in place")
struct ReconcilerPermutationTests {
    @Test(arguments: [0, 1, 2, 7, 100, 1_000])
    func permutingInPlaceEqualsMapping(count: Int) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let order = Array(0..<count).shuffled(using: &random)
            let original = (0..<count).map { "item \($0)" }
            var permuted = original
            Reconciler.permute(&permuted, into: order)
            #expect(permuted == order.map { original[$0] })
        }
    }

    /// The cleaned table is built in chunks on all cores (past 4,096 assets a chunk): its rows still come in tag
    /// order, each with its own status and files, whichever chunk built it and whatever the central sheet's order.
    @Test func aCleanedTableOfManyChunksListsEveryAssetInTagOrderWithItsOwnFiles() throws {
        let count = 12_000
        // Central rows in a scrambled order; every third asset is sighted, every fifth also in a register.
        let order = (0..<count).map { ($0 * 7_919) % count }
        var central = centralHeader
        var survey = surveyHeader
        var register = "VT Tag,Custodian"
        for number in order {
            let tag = String(format: "%06d", number + 1)
            central += "\n\(tag),,S\(number),,AP-515,BUR,101,ceiling,jdoe"
            if number % 3 == 0 { survey += "\n\(tag),S\(number),,BUR,101,2026-11-01" }
            if number % 5 == 0 { register += "\n\(tag),jdoe" }
        }
        #expect(Parallel.chunks(of: count).count > 1, "the table spans several chunks")
        var fixture = ReconcileFixture(central: central)
        fixture.sighting("survey.csv", survey)
        fixture.register("custodians.csv", register)
        let result = try fixture.reconcile()
        #expect(result.assets.count == count)
        let wrong = result.assets.indices.filter { number in
            var files = ["central.csv"]
            if number % 3 == 0 { files.append("survey.csv") }
            if number % 5 == 0 { files.append("custodians.csv") }
            let asset = result.assets[number]
            return asset.values.vtTag?.number != UInt64(number + 1) || asset.sources != files
                || asset.status != (number % 3 == 0 ? .ok : .missing)
                || asset.values.serialNumber?.description != "S\(number)"
        }
        #expect(
            wrong.isEmpty, "rows with the wrong tag, files, status or serial: \(wrong.count), from \(wrong.prefix(3))")
    }
}
