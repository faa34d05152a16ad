import Testing

@testable import StocktakeCore

@Suite struct WriteBackPlanTests {
    /// Plans the edit of the fixture's central sheet with the reconciliation of the fixture.
    private func plan(_ fixture: ReconcileFixture, _ options: WriteBackOptions = WriteBackOptions()) throws
        -> WriteBackPlan
    {
        let central = fixture.files[0]
        return try WriteBackPlan(
            sheet: Array(central.text.utf8), fileName: central.name, reader: reader(fixture),
            reconciliation: try fixture.reconcile(), options: options)
    }

    private func reader(_ fixture: ReconcileFixture) -> SourceReader {
        SourceReader(
            mapping: .builtIn, tagDigits: fixture.rules.tagDigits, cnsDigits: fixture.rules.cnsDigits,
            buildings: fixture.buildings)
    }

    /// The fixture of the next night: the edited sheet is the central sheet, every other source is unchanged.
    private func nextNight(_ fixture: ReconcileFixture, _ plan: WriteBackPlan) -> ReconcileFixture {
        var next = fixture
        next.files[0].text = String(decoding: plan.editedSheet(), as: UTF8.self)
        return next
    }

    private func text(_ plan: WriteBackPlan) -> String {
        String(decoding: plan.editedSheet(), as: UTF8.self)
    }

    private func change(
        _ row: Int, _ tag: UInt64?, _ column: String, _ before: String, _ after: String, _ reason: ChangeReason
    ) -> SheetChange {
        SheetChange(
            row: row, vtTag: tag.map { VTTag(number: $0, digits: 6) }, column: column, before: before, after: after,
            reason: reason)
    }

    // MARK: - The layout stays the company's

    @Test func keepsBOMCRLFQuotingFormulasAndUnmappedColumnsByteForByte() throws {
        var fixture = ReconcileFixture(
            central: "\u{FEFF}VT Tag,CNS #,Serial Number,MAC Address,Model,Building,Room,Link,Notes\r\n"
                + "1234,c 77,ab 12,AA-BB-CC-DD-EE-01,ap-515,Torgersen Hall,\"b-12, west\","
                + "\"=HYPERLINK(\"\"https://x/1234\"\",\"\"open\"\")\",\"cabled, \"\"not\"\" mounted\"\r\n"
                + "004513,C000078,CD34,aa:bb:cc:dd:ee:02,AP-515,TORG,101,=HYPERLINK(\"https://x/4513\"),\r\n")
        fixture.sighting(
            "survey.csv",
            "P-Tag,Serial,MAC,Bldg,Room,Scanned At\n"
                + "001234,AB12,aabbccddee01,TORG,\"B-12, West\",2026-11-01\n"
                + "004513,CD34,aabb.ccdd.ee02,TORG,101,2026-11-02\n")
        let result = try plan(fixture)
        #expect(
            text(result)
                == "\u{FEFF}VT Tag,CNS #,Serial Number,MAC Address,Model,Building,Room,Link,Notes\r\n"
                + "001234,C000077,AB12,aa:bb:cc:dd:ee:01,AP-515,TORG,\"B-12, WEST\","
                + "\"=HYPERLINK(\"\"https://x/1234\"\",\"\"open\"\")\",\"cabled, \"\"not\"\" mounted\"\r\n"
                + "004513,C000078,CD34,aa:bb:cc:dd:ee:02,AP-515,TORG,101,=HYPERLINK(\"https://x/4513\"),\r\n")
        #expect(
            result.changes == [
                change(1, 1234, "VT Tag", "1234", "001234", .normalized),
                change(1, 1234, "CNS #", "c 77", "C000077", .normalized),
                change(1, 1234, "Serial Number", "ab 12", "AB12", .normalized),
                change(1, 1234, "MAC Address", "AA-BB-CC-DD-EE-01", "aa:bb:cc:dd:ee:01", .normalized),
                change(1, 1234, "Model", "ap-515", "AP-515", .normalized),
                change(1, 1234, "Building", "Torgersen Hall", "TORG", .normalized),
                change(1, 1234, "Room", "b-12, west", "B-12, WEST", .normalized),
            ])
    }

    @Test func aSheetWithoutChangesKeepsItsBytes() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Room\r\n001234,B-12\r\n")
        fixture.sighting("survey.csv", "P-Tag,Room\n001234,B-12\n")
        let result = try plan(fixture, WriteBackOptions(overwrite: true, addUnrecorded: true))
        #expect(result.editedSheet() == Array(fixture.files[0].text.utf8))
        #expect(result.changes.isEmpty)
        #expect(!result.changesSheet)
    }

    // MARK: - Each option alone

    /// A central sheet with a model to normalize, an empty room and custodian to fill, and a room to overwrite.
    private func optionsFixture() -> ReconcileFixture {
        var fixture = ReconcileFixture(
            central: "VT Tag,Model,Room,Custodian\n001234,ap-515,,jdoe\n004513,AP-515,101,\n")
        fixture.sighting("survey.csv", "P-Tag,Room,Custodian\n001234,B-12,\n004513,102,asmith\n")
        return fixture
    }

    @Test func normalizeAloneRewritesOnlyCanonicalForms() throws {
        let result = try plan(optionsFixture(), WriteBackOptions(normalize: true, fill: false, overwrite: false))
        #expect(text(result) == "VT Tag,Model,Room,Custodian\n001234,AP-515,,jdoe\n004513,AP-515,101,\n")
        #expect(result.changes == [change(1, 1234, "Model", "ap-515", "AP-515", .normalized)])
    }

    @Test func fillAloneFillsOnlyEmptyCells() throws {
        let result = try plan(optionsFixture(), WriteBackOptions(normalize: false, fill: true, overwrite: false))
        #expect(text(result) == "VT Tag,Model,Room,Custodian\n001234,ap-515,B-12,jdoe\n004513,AP-515,101,asmith\n")
        #expect(
            result.changes == [
                change(1, 1234, "Room", "", "B-12", .filled),
                change(2, 4513, "Custodian", "", "asmith", .filled),
            ])
    }

    @Test func overwriteAloneReplacesOnlyValuesAMoreAuthoritativeSourceContradicts() throws {
        let result = try plan(optionsFixture(), WriteBackOptions(normalize: false, fill: false, overwrite: true))
        #expect(text(result) == "VT Tag,Model,Room,Custodian\n001234,ap-515,,jdoe\n004513,AP-515,102,\n")
        #expect(result.changes == [change(2, 4513, "Room", "101", "102", .overwritten)])
    }

    @Test func theDefaultsLeaveADisagreementAsAFieldConflict() throws {
        let fixture = optionsFixture()
        #expect(try fixture.reconcile().found(.fieldConflict).count == 1)
        let result = try plan(fixture)
        #expect(text(result) == "VT Tag,Model,Room,Custodian\n001234,AP-515,B-12,jdoe\n004513,AP-515,101,asmith\n")
        #expect(
            result.changes == [
                change(1, 1234, "Model", "ap-515", "AP-515", .normalized),
                change(1, 1234, "Room", "", "B-12", .filled),
                change(2, 4513, "Custodian", "", "asmith", .filled),
            ])
        let conflicts = try nextNight(fixture, result).reconcile().found(.fieldConflict)
        #expect(conflicts.map(\.vtTag) == [VTTag(number: 4513, digits: 6)])
        #expect(conflicts.map(\.field) == [.room])
    }

    @Test func noOptionChangesNothing() throws {
        let fixture = optionsFixture()
        let result = try plan(fixture, WriteBackOptions(normalize: false, fill: false, overwrite: false))
        #expect(result.editedSheet() == Array(fixture.files[0].text.utf8))
        #expect(result.changes.isEmpty)
    }

    @Test func fieldsRestrictWhichColumnsAreEverWritten() throws {
        let result = try plan(optionsFixture(), WriteBackOptions(overwrite: true, fields: [.room]))
        #expect(text(result) == "VT Tag,Model,Room,Custodian\n001234,ap-515,B-12,jdoe\n004513,AP-515,102,\n")
        #expect(
            result.changes == [
                change(1, 1234, "Room", "", "B-12", .filled),
                change(2, 4513, "Room", "101", "102", .overwritten),
            ])
    }

    // MARK: - What is left as it is

    @Test func unknownBuildingsAndInvalidMACAddressesAreLeftAsTheyAre() throws {
        var fixture = ReconcileFixture(central: "VT Tag,MAC Address,Building,Room\n1234,zz:zz:zz,Nowhere Hall,\n")
        fixture.sighting("survey.csv", "P-Tag,MAC,Bldg,Room\n001234,aabbccddee01,TORG,B-12\n")
        let reconciliation = try fixture.reconcile()
        #expect(reconciliation.found(.unknownBuilding).count == 1)
        #expect(reconciliation.found(.invalidValue).count == 1)
        let result = try plan(fixture, WriteBackOptions(overwrite: true))
        #expect(text(result) == "VT Tag,MAC Address,Building,Room\n001234,zz:zz:zz,Nowhere Hall,B-12\n")
        #expect(
            result.changes == [
                change(1, 1234, "VT Tag", "1234", "001234", .normalized),
                change(1, 1234, "Room", "", "B-12", .filled),
            ])
    }

    /// The reader takes `N A` as the placeholder `NA` and `0 0` (a no-break space between) as zeros: the serial cell
    /// says nothing, and the plan leaves it as typed. It used to rewrite them as `NA` and `00`.
    @Test func aSerialTheReaderTakesAsEmptyIsLeftAsTyped() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Serial Number\n001234,N A\n004513,0\u{A0}0\n")
        fixture.sighting("survey.csv", "P-Tag,Serial\n001234,CNF123\n004513,CNF124\n")
        let result = try plan(fixture, WriteBackOptions(overwrite: true))
        #expect(text(result) == "VT Tag,Serial Number\n001234,N A\n004513,0\u{A0}0\n")
        #expect(result.changes.isEmpty)
    }

    @Test func identitiesAreNeverFilledOrOverwritten() throws {
        var fixture = ReconcileFixture(central: "VT Tag,CNS #,Serial Number,MAC Address\n001234,,,aa:bb:cc:dd:ee:01\n")
        fixture.sighting("survey.csv", "P-Tag,MAC,Serial\n001234,aabbccddee01,AB12\n")
        fixture.register("cns.csv", "VT Tag,CNS #\n001234,C000077\n")
        let result = try plan(fixture, WriteBackOptions(overwrite: true))
        #expect(result.editedSheet() == Array(fixture.files[0].text.utf8))
        #expect(result.changes.isEmpty)
    }

    @Test func aValueAnotherCentralRowHoldsIsNotOverwritten() throws {
        // Both rows are central: the merged room 101 may be the central sheet's own, so row 2 is the clerk's call.
        var fixture = ReconcileFixture(central: "VT Tag,Room\n001234,101\n001234,102\n")
        fixture.sighting("survey.csv", "P-Tag\n001234\n")
        #expect(try fixture.reconcile().asset("001234")?.values.room == "101")
        let result = try plan(fixture, WriteBackOptions(overwrite: true))
        #expect(result.changes.isEmpty)
        #expect(text(result) == "VT Tag,Room\n001234,101\n001234,102\n")
    }

    @Test func rowsOfATagOnTwoDevicesAreOnlyNormalized() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Serial Number,Model,Room\n001234,AB12,ap-515,\n")
        fixture.sighting("survey.csv", "P-Tag,Serial,Room\n001234,CD34,B-12\n")
        #expect(try fixture.reconcile().found(.duplicateTag).count == 1)
        let result = try plan(fixture, WriteBackOptions(overwrite: true))
        #expect(text(result) == "VT Tag,Serial Number,Model,Room\n001234,AB12,AP-515,\n")
        #expect(result.changes == [change(1, 1234, "Model", "ap-515", "AP-515", .normalized)])
    }

    @Test func damagedTextAndTheSheetsOwnFormulasAreLeftAsTheyAre() throws {
        // `b-1"2` has a stray quote; ` =SUM(A1) ` is a formula, which overwrite must not replace either.
        var fixture = ReconcileFixture(central: "VT Tag,Room,Description\n001234,b-1\"2, =SUM(A1) \n")
        fixture.sighting("survey.csv", "P-Tag,Room,Description\n001234,B-12,spare\n")
        let result = try plan(fixture, WriteBackOptions(overwrite: true))
        #expect(result.changes.isEmpty)
        #expect(result.editedSheet() == Array(fixture.files[0].text.utf8))
    }

    @Test func aDateIsNeverReplacedByAnOlderOne() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Last Inventory Date\n001234,2026-01-05\n004513,3/4/2025\n")
        fixture.sighting("survey.csv", "P-Tag,Scanned At\n001234,2025-12-01\n004513,2026-11-01\n")
        let result = try plan(fixture, WriteBackOptions(overwrite: true))
        #expect(text(result) == "VT Tag,Last Inventory Date\n001234,2026-01-05\n004513,2026-11-01\n")
        #expect(result.changes == [change(2, 4513, "Last Inventory Date", "3/4/2025", "2026-11-01", .overwritten)])
    }

    // MARK: - Appending unrecorded assets

    /// 001234 is missing and 001243 is its typo; 009999 is unrecorded; GH78 has no tag.
    private func unrecordedFixture() -> ReconcileFixture {
        var fixture = ReconcileFixture(
            central:
                "VT Tag,Serial Number,Building,Room,Notes,GPS\n001234,AB12,TORG,B-12,keep,\n004513,CD34,TORG,101,,\n")
        fixture.sighting(
            "survey.csv",
            "P-Tag,Serial,Bldg,Room,GPS\n004513,CD34,TORG,101,\n001243,XY99,TORG,B-12,\n"
                + "009999,EF56,BUR,\"Room 5, annex\",\"37.2296,-80.4139\"\n,GH78,TORG,200,\n")
        return fixture
    }

    @Test func addUnrecordedAppendsInTheSheetsColumnsButNeverTyposOrUntaggedDevices() throws {
        let fixture = unrecordedFixture()
        let reconciliation = try fixture.reconcile()
        #expect(reconciliation.found(.possibleTypo).map(\.value) == ["001243"])
        #expect(reconciliation.found(.noTag).map(\.serialNumber) == [SerialNumber(canonical: "GH78")])
        let result = try plan(fixture, WriteBackOptions(addUnrecorded: true))
        #expect(
            text(result)
                == fixture.files[0].text + "009999,EF56,BUR,\"ROOM 5, ANNEX\",,\"37.2296,-80.4139\"\n")
        #expect(
            result.changes == [
                change(3, 9999, "VT Tag", "", "009999", .added),
                change(3, 9999, "Serial Number", "", "EF56", .added),
                change(3, 9999, "Building", "", "BUR", .added),
                change(3, 9999, "Room", "", "ROOM 5, ANNEX", .added),
                change(3, 9999, "GPS", "", "37.2296,-80.4139", .added),
            ])
        #expect(try nextNight(fixture, result).reconcile().found(.unrecorded).isEmpty)
    }

    @Test func withoutAddUnrecordedNoRowIsAppended() throws {
        let fixture = unrecordedFixture()
        #expect(try fixture.reconcile().found(.unrecorded).count == 1)
        let result = try plan(fixture)
        #expect(result.editedSheet() == Array(fixture.files[0].text.utf8))
        #expect(result.changes.isEmpty)
    }

    @Test func appendedRowsWriteOnlyAllowedFieldsAndAlwaysTheTag() throws {
        let result = try plan(unrecordedFixture(), WriteBackOptions(fields: [.room], addUnrecorded: true))
        #expect(text(result).hasSuffix("101,,\n009999,,,\"ROOM 5, ANNEX\",,\n"))
        #expect(result.changes.map(\.column) == ["VT Tag", "Room"])
    }

    // MARK: - Idempotence and text forms

    @Test func theSecondNightOnUnchangedInputsChangesNothing() throws {
        var fixture = ReconcileFixture(
            central: "\u{FEFF}VT Tag,Model,Room,Custodian,Last Inventory Date,Link\r\n"
                + "1234,ap-515,\"b-12, west\",,3/4/2025,\"=HYPERLINK(\"\"https://x/1234\"\")\"\r\n"
                + "004513,AP-515,101,jdoe,2026-01-05,\r\n")
        fixture.sighting(
            "survey.csv",
            "P-Tag,Room,Custodian,Scanned At\n001234,\"B-12, WEST\",=cmd(),2026-11-01\n004513,102,,2025-12-01\n"
                + "009999,7,,2026-11-03\n")
        let options = WriteBackOptions(overwrite: true, addUnrecorded: true)
        let first = try plan(fixture, options)
        #expect(
            text(first)
                == "\u{FEFF}VT Tag,Model,Room,Custodian,Last Inventory Date,Link\r\n"
                + "001234,AP-515,\"B-12, WEST\",'=cmd(),2026-11-01,\"=HYPERLINK(\"\"https://x/1234\"\")\"\r\n"
                + "004513,AP-515,102,jdoe,2026-01-05,\r\n"
                + "009999,,7,,2026-11-03,\r\n")
        #expect(
            first.changes == [
                change(1, 1234, "VT Tag", "1234", "001234", .normalized),
                change(1, 1234, "Model", "ap-515", "AP-515", .normalized),
                change(1, 1234, "Room", "b-12, west", "B-12, WEST", .normalized),
                change(1, 1234, "Custodian", "", "'=cmd()", .filled),
                change(1, 1234, "Last Inventory Date", "3/4/2025", "2026-11-01", .overwritten),
                change(2, 4513, "Room", "101", "102", .overwritten),
                change(3, 9999, "VT Tag", "", "009999", .added),
                change(3, 9999, "Room", "", "7", .added),
                change(3, 9999, "Last Inventory Date", "", "2026-11-03", .added),
            ])
        let next = nextNight(fixture, first)
        let second = try plan(next, options)
        #expect(second.changes.isEmpty)
        #expect(second.editedSheet() == first.editedSheet())
        // And with the defaults, too.
        #expect(try plan(next).changes.isEmpty)
    }

    @Test func aMissingFinalLineBreakStaysMissing() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Room\r\n001234,b-12")
        fixture.sighting("survey.csv", "P-Tag,Room\n001234,B-12\n009999,5\n")
        let edited = try plan(fixture)
        #expect(text(edited) == "VT Tag,Room\r\n001234,B-12")
        let appended = try plan(fixture, WriteBackOptions(addUnrecorded: true))
        #expect(text(appended) == "VT Tag,Room\r\n001234,B-12\r\n009999,5")
        #expect(try plan(nextNight(fixture, appended), WriteBackOptions(addUnrecorded: true)).changes.isEmpty)
    }

    @Test func tabSeparatedSheetsStayTabSeparated() throws {
        var fixture = ReconcileFixture(central: "VT Tag\tRoom\tCustodian\tNotes\n1234\tb-12, west\t\t\"a\ttab\"\n")
        fixture.files[0].name = "central.tsv"
        fixture.sighting("survey.csv", "P-Tag,Custodian,Room\n001234,\"Doe, Jane\",\"B-12, WEST\"\n")
        let result = try plan(fixture)
        #expect(text(result) == "VT Tag\tRoom\tCustodian\tNotes\n001234\tB-12, WEST\tDoe, Jane\t\"a\ttab\"\n")
        #expect(
            result.changes == [
                change(1, 1234, "VT Tag", "1234", "001234", .normalized),
                change(1, 1234, "Room", "b-12, west", "B-12, WEST", .normalized),
                change(1, 1234, "Custodian", "", "Doe, Jane", .filled),
            ])
    }

    @Test func aShortRowGrowsOnlyToTheFilledCell() throws {
        // Sheet exports leave out a row's trailing empty cells.
        var fixture = ReconcileFixture(central: "VT Tag,Model,Room,Custodian,Notes\n001234,AP-515\n")
        fixture.sighting("survey.csv", "P-Tag,Custodian\n001234,jdoe\n")
        let result = try plan(fixture)
        #expect(text(result) == "VT Tag,Model,Room,Custodian,Notes\n001234,AP-515,,jdoe\n")
        #expect(result.changes == [change(1, 1234, "Custodian", "", "jdoe", .filled)])
    }

    @Test func rowNumbersSkipBlankRowsAsTheReaderDoes() throws {
        var fixture = ReconcileFixture(central: ",,\nVT Tag,Room\n\n,\n001234,\n")
        fixture.sighting("survey.csv", "P-Tag,Room\n001234,B-12\n")
        let result = try plan(fixture)
        #expect(text(result) == ",,\nVT Tag,Room\n\n,\n001234,B-12\n")
        #expect(result.changes == [change(1, 1234, "Room", "", "B-12", .filled)])
    }

    @Test func aSheetPlannedOnBothCoresListsItsChangesInSheetOrder() throws {
        // Enough rows to be split between the cores; every seventh tag unpadded, every other model lower-case,
        // every fifth custodian empty and filled from the survey.
        let rowCount = 2 * WriteBackPlanner.rowsPerCore + 1001
        var central = "VT Tag,Model,Custodian\n"
        var survey = "P-Tag,Custodian\n"
        var expectedSheet = central
        var expected: [SheetChange] = []
        for row in 1...rowCount {
            let tag = VTTag(number: UInt64(row), digits: 6)
            let written = row % 7 == 0 ? String(row) : tag.description
            let model = row % 2 == 0 ? "ap-515" : "AP-515"
            let custodian = row % 5 == 0 ? "" : "jdoe"
            central += "\(written),\(model),\(custodian)\n"
            survey += "\(tag),\(row % 5 == 0 ? "asmith" : "")\n"
            expectedSheet += "\(tag),AP-515,\(row % 5 == 0 ? "asmith" : "jdoe")\n"
            if row % 7 == 0 {
                expected.append(change(row, UInt64(row), "VT Tag", written, tag.description, .normalized))
            }
            if row % 2 == 0 { expected.append(change(row, UInt64(row), "Model", "ap-515", "AP-515", .normalized)) }
            if row % 5 == 0 { expected.append(change(row, UInt64(row), "Custodian", "", "asmith", .filled)) }
        }
        var fixture = ReconcileFixture(central: central)
        fixture.sighting("survey.csv", survey)
        let result = try plan(fixture)
        #expect(Array(result.changes) == expected)
        #expect(text(result) == expectedSheet)
    }

    @Test func blankAndUntaggedRowsAcrossTheCoresAreNumberedAsTheReaderDoes() throws {
        // Blank rows (skipped, not counted) and rows without a tag (normalized, never filled) throughout a sheet
        // large enough for its rows to be found and planned on both cores.
        var central = ",\n\nVT Tag,Model\n"
        var expected: [SheetChange] = []
        var dataRow = 0
        for line in 1...(2 * WriteBackPlanner.rowsPerCore + 7) {
            if line % 997 == 0 {
                central += line % 2 == 0 ? ",\n" : "\n"
                continue
            }
            dataRow += 1
            let tagged = line % 3 != 0
            central += "\(tagged ? VTTag(number: UInt64(line), digits: 6).description : ""),ap-\(line)\n"
            expected.append(
                change(dataRow, tagged ? UInt64(line) : nil, "Model", "ap-\(line)", "AP-\(line)", .normalized))
        }
        let result = try plan(ReconcileFixture(central: central))
        #expect(Array(result.changes) == expected)
    }

    @Test func anUnreadableSheetIsRefusedWithTheReadersMessage() throws {
        let fixture = optionsFixture()
        #expect {
            try WriteBackPlan(
                sheet: Array("VT Tag,Room\n001234,\"b-12\n".utf8), fileName: "central.csv", reader: reader(fixture),
                reconciliation: try fixture.reconcile(), options: WriteBackOptions())
        } throws: { error in
            (error as? CSVError)?.description
                == "central.csv: a quoted field opened on line 2 is never closed. "
                + "Look for a stray \" on that line and save the file again."
        }
    }

    /// A central sheet in Windows-1252 or UTF-16 is planned on its text, so `changes.csv` lists exactly what the UTF-8
    /// sheet would get; but its edited bytes would be UTF-8, not the sheet's own, so it is never pushable.
    @Test func aSheetInAnotherEncodingIsPlannedLikeItsUTF8VersionButNotPushable() throws {
        var fixture = ReconcileFixture(
            central: "VT Tag,Model,Room,Custodian\n001234,ap-515,,Ren\u{E9}e\n004513,AP-515,101,\n")
        fixture.sighting("survey.csv", "P-Tag,Room,Custodian\n001234,B-12,\n004513,102,Jos\u{E9}\n")
        let utf8 = try plan(fixture)
        #expect(utf8.sheetEncoding == .utf8)
        #expect(utf8.isPushable)
        #expect(utf8.changes.map(\.after).contains("Jos\u{E9}"))
        let text = fixture.files[0].text
        let windows1252 = text.unicodeScalars.map { UInt8($0.value) }
        let sheets: [([UInt8], TextEncoding)] = [
            (windows1252, .windows1252),
            ([0xFF, 0xFE] + utf16Bytes(text), .utf16LittleEndian),
            ([0xFE, 0xFF] + utf16Bytes(text, bigEndian: true), .utf16BigEndian),
        ]
        for (bytes, encoding) in sheets {
            let other = try WriteBackPlan(
                sheet: bytes, fileName: "central.csv", reader: reader(fixture), reconciliation: try fixture.reconcile(),
                options: WriteBackOptions())
            #expect(other.sheetEncoding == encoding)
            #expect(!other.isPushable)
            #expect(other.changes == utf8.changes, "\(encoding)")
        }
        // The account's setting is honoured: the same bytes set to UTF-8 are a UTF-8 sheet with a damaged cell.
        let set = try WriteBackPlan(
            sheet: windows1252, fileName: "central.csv", reader: reader(fixture),
            reconciliation: try fixture.reconcile(), options: WriteBackOptions(), encoding: .utf8)
        #expect(set.sheetEncoding == .utf8)
        #expect(set.isPushable)
    }

    @Test func aSheetInUTF32IsRefusedWithTheReadersMessage() throws {
        let fixture = optionsFixture()
        let utf32: [UInt8] = [0xFF, 0xFE, 0x00, 0x00] + Array("VT Tag\n".utf8).flatMap { [$0, 0, 0, 0] }
        #expect {
            try WriteBackPlan(
                sheet: utf32, fileName: "central.csv", reader: self.reader(fixture),
                reconciliation: try fixture.reconcile(), options: WriteBackOptions())
        } throws: { error in
            (error as? CSVError)?.description
                == "central.csv: the file is encoded as UTF-32 LE, which cannot be read. "
                + "Open it in a spreadsheet and save it as \"CSV UTF-8\"."
        }
    }
}

/// The write-back of a central sheet that is a worksheet of an `.xlsx` workbook, made by openpyxl at test time with
/// styles, a number format, column widths, a comment, a formula and a second sheet.
@Suite(.enabled(if: WorkbookTools.hasOpenpyxl, "needs python3-openpyxl"))
struct WorkbookWriteBackPlanTests {
    /// openpyxl's workbook: the tag 4512 stored as a number (format `000000`), a lower-case serial, an empty room
    /// and custodian, a room that is a formula (without a cached value, as openpyxl saves it), a bold yellow header,
    /// column widths, a comment, and a second sheet with a formula.
    static let openpyxlScript = """
        import openpyxl
        from openpyxl.styles import Font, PatternFill
        from openpyxl.comments import Comment
        book = openpyxl.Workbook()
        sheet = book.active
        sheet.title = "Assets"
        sheet.append(["VT Tag", "Serial Number", "Building", "Room", "Custodian", "Notes"])
        sheet.append([4512, "cnf123", "BUR", "101", "jdoe", "kept"])
        sheet.append(["004513", "CNF124", "BUR", None, None, None])
        sheet.append(["004514", "CNF125", "BUR", '="1"&"03"', "asmith", "formula room"])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
            cell.fill = PatternFill("solid", fgColor="FFFF00")
        sheet["A2"].number_format = "000000"
        sheet.column_dimensions["A"].width = 14
        sheet.column_dimensions["F"].width = 30
        sheet["F2"].comment = Comment("checked by J", "J")
        other = book.create_sheet("Other")
        other.append(["x", "y"])
        other.append([1, "=A2*2"])
        book.save("out.xlsx")
        """

    static let survey =
        "P-Tag,Serial,Room,Custodian\n4512,CNF123,205,\n4513,CNF124,102,asmith\n4514,CNF125,104,\n"
        + "4999,CNF999,300,\n"

    private func fixture(_ folder: TemporaryFolder) throws -> CentralWorkbookFixture {
        var fixture = CentralWorkbookFixture(
            workbook: try CentralWorkbookFixture.python(Self.openpyxlScript, in: folder))
        fixture.sighting("survey.csv", Self.survey)
        return fixture
    }

    private func change(
        _ row: Int, _ tag: UInt64?, _ column: String, _ before: String, _ after: String, _ reason: ChangeReason
    ) -> SheetChange {
        SheetChange(
            row: row, vtTag: tag.map { VTTag(number: $0, digits: 6) }, column: column, before: before, after: after,
            reason: reason)
    }

    /// Every entry but the worksheet's is the same stored record, in the same order.
    private func expectOnlyTheWorksheetChanged(_ edited: [UInt8], from pulled: [UInt8]) throws {
        let before = try CentralWorkbookFixture.storedRecords(pulled)
        let after = try CentralWorkbookFixture.storedRecords(edited)
        #expect(after.map(\.name) == before.map(\.name))
        for (old, new) in zip(before, after) where old.name != "xl/worksheets/sheet1.xml" {
            #expect(new.record == old.record, "\(old.name) is copied byte for byte")
        }
        #expect(
            after.first { $0.name == "xl/worksheets/sheet1.xml" }?.record
                != before.first { $0.name == "xl/worksheets/sheet1.xml" }?.record)
    }

    @Test func onlyTheChangedCellsOfTheWorksheetChangeAndEveryOtherPartIsKept() throws {
        let folder = TemporaryFolder()
        let fixture = try fixture(folder)
        let plan = try fixture.plan()
        #expect(plan.isWorkbook)
        #expect(plan.refusal == nil)
        #expect(
            plan.changes == [
                change(1, 4512, "VT Tag", "4512", "004512", .normalized),
                change(1, 4512, "Serial Number", "cnf123", "CNF123", .normalized),
                change(2, 4513, "Room", "", "102", .filled),
                change(2, 4513, "Custodian", "", "asmith", .filled),
            ])
        let edited = plan.editedSheet()
        try expectOnlyTheWorksheetChanged(edited, from: fixture.workbook)
        let cells = try CentralWorkbookFixture.openpyxlCells(edited, in: folder)
        #expect(
            cells["Assets"] == [
                ["s VT Tag", "s Serial Number", "s Building", "s Room", "s Custodian", "s Notes"],
                ["s 004512", "s CNF123", "s BUR", "s 101", "s jdoe", "s kept"],
                ["s 004513", "s CNF124", "s BUR", "s 102", "s asmith", ""],
                ["s 004514", "s CNF125", "s BUR", "f =\"1\"&\"03\"", "s asmith", "s formula room"],
            ])
        #expect(cells["Other"] == [["s x", "s y"], ["n 1", "f =A2*2"]])
        // The changed cells keep their reference and style: A2 still has the style of its `000000` format.
        let worksheet = try CentralWorkbookFixture.part("xl/worksheets/sheet1.xml", of: edited)
        let pulledWorksheet = try CentralWorkbookFixture.part("xl/worksheets/sheet1.xml", of: fixture.workbook)
        let style = try #require(pulledWorksheet.firstMatch(of: /<c r="A2" (s="\d+")/)?.output.1)
        #expect(
            worksheet.contains("<c r=\"A2\" \(style) t=\"inlineStr\"><is><t xml:space=\"preserve\">004512</t></is></c>")
        )
        #expect(worksheet.contains("<c r=\"D4\"><f>\"1\"&amp;\"03\"</f><v></v></c>"), "the formula is kept")
        if WorkbookTools.hasLibreOffice {
            #expect(
                CentralWorkbookFixture.libreOfficeCSV(edited, in: folder)
                    == "VT Tag,Serial Number,Building,Room,Custodian,Notes\n004512,CNF123,BUR,101,jdoe,kept\n"
                    + "004513,CNF124,BUR,102,asmith,\n004514,CNF125,BUR,103,asmith,formula room\n")
        }
        // The next night on the edited workbook changes nothing.
        let again = try fixture.plan(central: edited)
        #expect(again.changes.isEmpty)
        #expect(again.editedSheet() == edited)
    }

    @Test func addUnrecordedAppendsRowsAfterTheLastRow() throws {
        let folder = TemporaryFolder()
        let fixture = try fixture(folder)
        let plan = try fixture.plan(WriteBackOptions(addUnrecorded: true))
        #expect(
            plan.changes.filter { $0.reason == .added } == [
                change(4, 4999, "VT Tag", "", "004999", .added),
                change(4, 4999, "Serial Number", "", "CNF999", .added),
                change(4, 4999, "Room", "", "300", .added),
            ])
        let edited = plan.editedSheet()
        try expectOnlyTheWorksheetChanged(edited, from: fixture.workbook)
        let cells = try CentralWorkbookFixture.openpyxlCells(edited, in: folder)
        #expect(cells["Assets"]?.last == ["s 004999", "s CNF999", "", "s 300", "", ""])
        #expect(cells["Assets"]?.count == 5)
        let worksheet = try CentralWorkbookFixture.part("xl/worksheets/sheet1.xml", of: edited)
        #expect(worksheet.contains("<dimension ref=\"A1:F5\"/>"))
        let again = try fixture.plan(WriteBackOptions(addUnrecorded: true), central: edited)
        #expect(again.changes.isEmpty)
    }

    @Test func aValueThatWouldStartAFormulaIsWrittenAsTextWithoutAGuard() throws {
        let folder = TemporaryFolder()
        var fixture = try fixture(folder)
        fixture.sightings = [("survey.csv", "P-Tag,Custodian\n4513,=HYPERLINK(\"x\")\n")]
        let plan = try fixture.plan()
        #expect(
            plan.changes.filter { $0.column == "Custodian" } == [
                change(2, 4513, "Custodian", "", "=HYPERLINK(\"x\")", .filled)
            ])
        let cells = try CentralWorkbookFixture.openpyxlCells(plan.editedSheet(), in: folder)
        #expect(cells["Assets"]?[2][4] == "s =HYPERLINK(\"x\")", "a text cell, not a formula, and no leading '")
    }
}

extension WriteBackPlanTests {
    // MARK: - Unit cost and the columns only cleaned.csv has

    /// A register with unit costs, and a central sheet whose buildings the buildings table names.
    private func billingFixture(central: String) -> ReconcileFixture {
        var fixture = ReconcileFixture(central: central)
        fixture.sighting("survey.csv", "P-Tag,Room\n001234,B-12\n004513,102\n")
        fixture.register("billing.csv", "Tag No,Amount\n001234,\"$1,195.00\"\n004513,$545.00\n")
        return fixture
    }

    @Test func aCentralSheetWithoutACostColumnGainsNoCostBuildingNameOrFindingsColumn() throws {
        let central = "VT Tag,Building,Room\r\n001234,TORG,B-12\r\n004513,TORG,101\r\n"
        let fixture = billingFixture(central: central)
        var reconciliation = try fixture.reconcile()
        reconciliation.buildings = fixture.buildings
        // The reconciliation has costs, building names and findings to give cleaned.csv.
        #expect(reconciliation.assets.map { $0.values.cost?.description } == ["1195.00", "545.00"])
        let cleaned = String(decoding: CleanedTable.csv(reconciliation), as: UTF8.self)
        #expect(cleaned.contains(",1195.00,ok,central.csv; survey.csv; billing.csv,Torgersen Hall,"))
        #expect(reconciliation.discrepancies.contains { $0.code == .fieldConflict && $0.vtTag?.number == 4513 })
        for options in [WriteBackOptions(), WriteBackOptions(overwrite: true, addUnrecorded: true)] {
            let result = try plan(fixture, options)
            let edited = text(result)
            #expect(edited.hasPrefix("VT Tag,Building,Room\r\n"))
            #expect(!edited.contains("1195") && !edited.contains("Torgersen") && !edited.contains("findings"))
            #expect(result.changes.allSatisfy { $0.column == "Room" })
        }
        #expect(try plan(fixture).editedSheet() == Array(central.utf8))
    }

    @Test func aCostColumnOfTheCentralSheetIsNormalizedAndFilledLikeAnyField() throws {
        let fixture = billingFixture(central: "VT Tag,Unit Cost\n001234,$895.00\n004513,\n")
        let result = try plan(fixture)
        #expect(text(result) == "VT Tag,Unit Cost\n001234,895.00\n004513,545.00\n")
        #expect(
            result.changes == [
                change(1, 1234, "Unit Cost", "$895.00", "895.00", .normalized),
                change(2, 4513, "Unit Cost", "", "545.00", .filled),
            ])
        let restricted = try plan(fixture, WriteBackOptions(fields: [.room]))
        #expect(restricted.editedSheet() == Array(fixture.files[0].text.utf8))
    }
}
