import Foundation
import Testing

@testable import StocktakeGenerator

@Suite struct AccountGeneratorTests {
    static let sourceFiles = [
        "central.csv", "sightings/survey_zone1.csv", "sightings/survey_zone2.csv", "sightings/survey_zone3.csv",
        "sightings/survey_zone4.csv", "sightings/survey_zone5.csv", "sightings/survey_zone6.csv",
        "sightings/controller_aps.csv", "sightings/warehouse_receiving.tsv", "registers/property_tags.csv",
        "registers/cns_register.csv", "registers/custodians.csv", "registers/billing.csv",
        "registers/legacy_2014.csv",
    ]

    private func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("stocktake-gen-\(UUID().uuidString)")
    }

    private func generate(_ options: GeneratorOptions = GeneratorOptions(assets: 600, seed: 42)) throws
        -> (URL, GeneratedAccount)
    {
        let folder = temporaryFolder()
        return (folder, try AccountGenerator.generate(options, into: folder))
    }

    @Test func twoRunsAreByteIdentical() throws {
        let (first, account) = try generate()
        let (second, _) = try generate()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        #expect(account.files.count == 17)
        for path in account.files {
            let left = try Data(contentsOf: first.appendingPathComponent(path))
            let right = try Data(contentsOf: second.appendingPathComponent(path))
            #expect(left == right, "\(path) differs between two runs")
        }
    }

    @Test func anotherSeedGivesAnotherAccount() throws {
        let (first, _) = try generate()
        let (second, _) = try generate(GeneratorOptions(assets: 600, seed: 43))
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let left = try Data(contentsOf: first.appendingPathComponent("central.csv"))
        let right = try Data(contentsOf: second.appendingPathComponent("central.csv"))
        #expect(left != right)
    }

    @Test func writesEveryFileAndTheManifest() throws {
        let (folder, account) = try generate()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(account.files == (Self.sourceFiles + ["buildings.csv", "expected.csv", "generated.json"]).sorted())
        for path in account.files {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
        }
        #expect(account.centralPath == folder.appendingPathComponent("central.csv").path)
        let manifest = try String(contentsOf: folder.appendingPathComponent("generated.json"), encoding: .utf8)
        #expect(
            manifest
                == "{\n  \"assets\": 600,\n  \"seed\": 42,\n  \"asOf\": \"2026-11-20\",\n  \"tagDigits\": 6,\n"
                + "  \"cnsDigits\": 6,\n  \"staleAfterDays\": 365\n}\n")
        let buildings = try TestCSVReader.records(atPath: account.buildingsPath)
        #expect(buildings.first == ["code", "name", "latitude", "longitude"])
        #expect(buildings.count == 61)
    }

    @Test func headersAreAsDesigned() throws {
        let (folder, account) = try generate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expectedHeaders: [String: [String]] = [
            "central.csv": [
                "VT Tag", "CNS #", "Serial Number", "MAC Address", "Model", "Description", "Building", "Room", "Mount",
                "Custodian", "Last Inventory Date", "Stock Number",
            ],
            "sightings/survey_zone3.csv": ["P-Tag", "Serial", "MAC", "Bldg", "Room", "Mount", "Scanned At", "GPS"],
            "sightings/survey_zone4.csv": [
                "PTag", "Serial Number", "MAC Address", "Building", "Room #", "Mounting", "Scan Date", "Coordinates",
            ],
            "sightings/survey_zone6.csv": [
                "Tag Number", "S/N", "Ethernet MAC", "Building Name", "Rm", "Mount Type", "Date", "Lat", "Lng",
            ],
            "sightings/controller_aps.csv": ["AP Name", "Wired MAC", "Serial #", "AP Type", "Last Seen"],
            "sightings/warehouse_receiving.tsv": ["Part Number", "Serial No", "MAC Addr", "Received", "PO Number"],
            "registers/property_tags.csv": ["Inventory Number", "Description", "Custodian PID", "Acquired"],
            "registers/cns_register.csv": ["C Number", "VT ID", "Model"],
            "registers/custodians.csv": ["Asset Tag", "Assigned To", "Department"],
            "registers/billing.csv": ["Tag No", "CNS No", "Stock #", "Amount", "", ""],
            "registers/legacy_2014.csv": ["TAG_NO", "SN", "Bldg Code", "Rm", "Last Inv Date"],
            "expected.csv": ExpectedDiscrepancy.columns,
        ]
        for (path, header) in expectedHeaders {
            let separator: Character = path.hasSuffix(".tsv") ? "\t" : ","
            let records = try TestCSVReader.records(
                atPath: folder.appendingPathComponent(path).path, separator: separator)
            #expect(records.first == header, "\(path)")
            #expect(records.allSatisfy { $0.count == header.count }, "\(path) has ragged rows")
        }
        let central = try Data(contentsOf: URL(fileURLWithPath: account.centralPath))
        #expect(Array(central.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(String(decoding: central.prefix(200), as: UTF8.self).contains("Stock Number\r\n"))
    }

    @Test func everyCodeIsExpectedAtLeastTwice() throws {
        let (folder, account) = try generate()
        defer { try? FileManager.default.removeItem(at: folder) }
        for code in DiscrepancyCode.allCases {
            let rows = account.expected.filter { $0.code == code.rawValue }
            #expect(rows.count >= 2, "\(code.rawValue)")
            #expect(rows.allSatisfy { $0.severity == code.severity })
        }
        #expect(account.expected == account.expected.sorted())
        let written = try TestCSVReader.records(atPath: account.expectedPath)
        #expect(written.count == account.expected.count + 1)
        #expect(Array(written.dropFirst()) == account.expected.map(\.cells))
    }

    @Test func centralIdentifiersAreUniqueExceptInjectedOnes() throws {
        let (folder, account) = try generate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = try TestCSVReader.records(atPath: account.centralPath).dropFirst()
        func duplicates(_ values: [String]) -> Set<String> {
            var seen: Set<String> = []
            var repeated: Set<String> = []
            for value in values where !value.isEmpty && !seen.insert(value).inserted {
                repeated.insert(value)
            }
            return repeated
        }
        let tags = rows.map { Self.digits(of: $0[0]) }
        let cns = rows.map { Self.digits(of: $0[1]) }
        let serials = rows.map { $0[2].uppercased().filter { $0 != " " } }
        let macs = rows.map { $0[3].lowercased().filter(\.isHexDigit) }
        #expect(tags.count == 600)
        #expect(duplicates(tags).isEmpty)
        #expect(
            duplicates(cns)
                == Set(account.expected.filter { $0.code == "CNS_REUSED" }.map { Self.digits(of: $0.cnsNumber) }))
        #expect(duplicates(serials) == Set(account.expected.filter { $0.code == "SHARED_SERIAL" }.map(\.serialNumber)))
        #expect(
            duplicates(macs)
                == Set(account.expected.filter { $0.code == "SHARED_MAC" }.map { $0.macAddress.filter(\.isHexDigit) }))
        let blankCNS = Set(zip(tags, cns).filter { $0.1.isEmpty }.map(\.0))
        #expect(blankCNS == Set(account.expected.filter { $0.code == "NO_CNS" }.map(\.vtTag)))
    }

    @Test func refusesAccountsThatDoNotFit() {
        var options = GeneratorOptions(assets: 2_000, seed: 1)
        options.tagDigits = 4
        #expect(
            throws: GeneratorError.tooManyAssets(requested: 2_000, identifier: "VT tags", digits: 4, maximum: 1_000)
        ) {
            try options.validate()
        }
        #expect(
            GeneratorError.tooManyAssets(requested: 2_000, identifier: "VT tags", digits: 4, maximum: 1_000).description
                == "2000 assets do not fit 4-digit VT tags: at most 1000 fit; ask for fewer assets or more digits.")
        #expect(throws: GeneratorError.tooFewAssets(requested: 10, minimum: 100)) {
            try GeneratorOptions(assets: 10, seed: 1).validate()
        }
    }

    /// The tag or CNS digits of a cell, canonical width 6: prefix, `.0` tail and padding removed.
    private static func digits(of cell: String) -> String {
        var text = cell.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(".0") {
            text.removeLast(2)
        }
        let digits = text.filter(\.isNumber)
        return digits.isEmpty ? "" : String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
