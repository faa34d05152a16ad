import Foundation
import StocktakeCore
import StocktakeGenerator
import Testing

/// The acceptance criteria of the reconciliation: on realistic accounts with known, injected discrepancies, the
/// job finds every expected one and no unexpected error or warning.
@Suite("Acceptance: generated accounts reconcile to exactly their injected discrepancies")
struct AcceptanceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs the job as `stocktake reconcile` would on an account folder written by the generator.
    static func reconcile(_ folder: URL, asOf: InventoryDate, output: URL) throws -> Reconciliation {
        var rules = ReconciliationRules(asOf: asOf)
        rules.staleAfterDays = 365
        var request = ReconcileRequest(
            account: folder.lastPathComponent, central: folder.appendingPathComponent("central.csv").path,
            rules: rules, outputDirectory: output.path)
        request.sightings = [SourceEntry(folder.appendingPathComponent("sightings").path)]
        request.registers = [SourceEntry(folder.appendingPathComponent("registers").path)]
        request.buildings = folder.appendingPathComponent("buildings.csv").path
        return try ReconcileJob.run(request, log: Log(account: "test", isEnabled: false)).0
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stocktake-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The status counts of cleaned.csv equal the code counts: one `missing`, `unrecorded` and `typo` asset per
    /// MISSING, UNRECORDED and POSSIBLE_TYPO finding, and no cleaned row for the scanned tag of a typo.
    static func checkStatusCounts(_ result: Reconciliation) {
        let counts = result.countsByCode
        #expect(result.count(AssetStatus.missing) == counts[.missing])
        #expect(result.count(AssetStatus.unrecorded) == counts[.unrecorded])
        #expect(result.count(AssetStatus.typo) == counts[.possibleTypo])
        let tags = Dictionary(result.assets.map { ($0.values.vtTag!.description, $0.status) }) { first, _ in first }
        for typo in result.discrepancies where typo.code == .possibleTypo {
            #expect(tags[typo.expected] == .typo, "\(typo.expected)")
            #expect(tags[typo.value] == nil, "\(typo.value)")
        }
    }

    @Test func theBundledSampleAccount() throws {
        let sample = Self.repository.appendingPathComponent("samples/vt-nis")
        let settings =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: sample.appendingPathComponent("generated.json"))) as! [String: Any]
        let asOf = try #require(InventoryDate.parseISO(settings["asOf"] as! String))
        let output = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Self.reconcile(sample, asOf: asOf, output: output)
        let expected = try ExpectedDiscrepancies(path: sample.appendingPathComponent("expected.csv").path)
        #expect(expected.rows.count >= 2 * StocktakeCore.DiscrepancyCode.allCases.count)
        #expect(Set(result.discrepancies.map(\.code)) == Set(StocktakeCore.DiscrepancyCode.allCases))
        let mismatches = expected.mismatches(in: result)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n"))")
        #expect(result.assets.count > 2900)
        Self.checkStatusCounts(result)
        // The cron mail counts the statuses the way the table of codes does.
        let summary = try String(contentsOf: output.appendingPathComponent("summary.txt"), encoding: .utf8)
        let counts = result.countsByCode
        #expect(
            summary.contains(
                "\(counts[.missing]!) missing, \(counts[.unrecorded]!) unrecorded, \(counts[.possibleTypo]!) typo, "))
    }

    @Test func aFreshlyGeneratedTwentyThousandAssetAccount() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try AccountGenerator.generate(GeneratorOptions(assets: 20_000, seed: 4_512), into: folder)
        let output = folder.appendingPathComponent("out")
        let result = try Self.reconcile(folder, asOf: InventoryDate(year: 2026, month: 11, day: 20)!, output: output)
        let expected = try ExpectedDiscrepancies(path: account.expectedPath)
        #expect(expected.rows.count == account.expected.count)
        #expect(Set(result.discrepancies.map(\.code)) == Set(StocktakeCore.DiscrepancyCode.allCases))
        let mismatches = expected.mismatches(in: result)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n"))")
        Self.checkStatusCounts(result)
        for file in ReconcileJob.outputFiles {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(file).path))
        }
    }

    @Test func theComparisonCanFail() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try AccountGenerator.generate(GeneratorOptions(assets: 300, seed: 1), into: folder)
        var result = try Self.reconcile(
            folder, asOf: InventoryDate(year: 2026, month: 11, day: 20)!, output: folder.appendingPathComponent("out"))
        let expected = try ExpectedDiscrepancies(path: account.expectedPath)
        #expect(expected.mismatches(in: result).isEmpty)
        let dropped = result.discrepancies.removeFirst()
        #expect(expected.mismatches(in: result).count == 1, "dropping \(dropped.code) must be noticed")
        result.discrepancies.append(
            Discrepancy(code: .noCNS, vtTag: VTTag(number: 1, digits: 6), sources: [], message: "planted"))
        #expect(expected.mismatches(in: result).count == 2)
    }
}

/// Issue 11: the sheets a clerk saves from Excel on Windows — "CSV" in Windows-1252, "Unicode Text" in UTF-16 with a
/// byte-order mark, tab-separated, named `.txt` — reconcile exactly like their UTF-8 versions.
@Suite("Acceptance: the sample account in Windows-1252 and UTF-16 reconciles like its UTF-8 version")
struct EncodingAcceptanceTests {
    /// How each sheet of the account is written.
    enum Form { case utf8, windows1252, utf16LittleEndian, utf16BigEndian }

    /// The sample's text with characters outside ASCII in two sheets (the sample is ASCII, and an ASCII file is
    /// UTF-8 and Windows-1252 alike), keyed by path in the account: registers become tab-separated `.txt` sheets.
    static func sheets() throws -> [(path: String, text: String)] {
        let sample = AcceptanceTests.repository.appendingPathComponent("samples/vt-nis")
        func text(_ path: String) throws -> String {
            try String(contentsOf: sample.appendingPathComponent(path), encoding: .utf8)
        }
        var sheets: [(path: String, text: String)] = []
        let central = try text("central.csv").replacingOccurrences(of: "\u{FEFF}", with: "")
        sheets.append(("central.csv", central.replacingOccurrences(of: "surplus lot", with: "surplus lot – café")))
        for name in try FileManager.default.contentsOfDirectory(atPath: sample.appendingPathComponent("sightings").path)
            .sorted()
        {
            var sheet = try text("sightings/" + name)
            if name == "controller_aps.csv" { sheet = sheet.replacingOccurrences(of: "-AP1", with: "-AP1 Rés’") }
            sheets.append(("sightings/" + name, sheet))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: sample.appendingPathComponent("registers").path)
            .sorted()
        {
            var reader = CSVReader(bytes: Array(try text("registers/" + name).utf8), name: name)
            var lines: [String] = []
            try reader.forEachRecord { record in
                lines.append(
                    record.strings.map { field in
                        field.contains(where: { "\t\"\r\n".contains($0) })
                            ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
                    }
                    .joined(separator: "\t"))
            }
            sheets.append(
                (
                    "registers/" + name.replacingOccurrences(of: ".csv", with: ".txt"),
                    lines.joined(separator: "\r\n") + "\r\n"
                ))
        }
        return sheets
    }

    static func bytes(_ text: String, _ form: Form) -> [UInt8] {
        switch form {
        case .utf8:
            return Array(text.utf8)
        case .windows1252:
            let high: [Unicode.Scalar: UInt8] = ["–": 0x96, "’": 0x92, "€": 0x80]
            return text.unicodeScalars.map { high[$0] ?? UInt8($0.value) }
        case .utf16LittleEndian:
            return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case .utf16BigEndian:
            return [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
    }

    /// Writes the account with each sheet in the form `form(path)` gives, reconciles it, and returns its output.
    static func run(_ sheets: [(path: String, text: String)], in folder: URL, form: (String) -> Form) throws -> URL {
        for sheet in sheets {
            let url = folder.appendingPathComponent(sheet.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes(sheet.text, form(sheet.path))).write(to: url)
        }
        try FileManager.default.copyItem(
            at: AcceptanceTests.repository.appendingPathComponent("samples/vt-nis/buildings.csv"),
            to: folder.appendingPathComponent("buildings.csv"))
        let output = folder.appendingPathComponent("out")
        _ = try AcceptanceTests.reconcile(folder, asOf: InventoryDate(year: 2026, month: 11, day: 20)!, output: output)
        return output
    }

    static func output(_ folder: URL, _ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func windows1252AndUTF16SheetsGiveTheFindingsOfTheirUTF8Versions() throws {
        let folder = try AcceptanceTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheets = try Self.sheets()
        #expect(sheets.filter { $0.path.hasSuffix(".txt") }.count == 5)
        let reference = try Self.run(sheets, in: folder.appendingPathComponent("utf8")) { _ in .utf8 }
        let little = try Self.run(sheets, in: folder.appendingPathComponent("little")) { path in
            path.hasSuffix(".txt") ? .utf16LittleEndian : path.hasSuffix(".csv") ? .windows1252 : .utf8
        }
        let big = try Self.run(sheets, in: folder.appendingPathComponent("big")) { path in
            path == "central.csv" || path.hasSuffix(".txt") ? .utf16BigEndian : .windows1252
        }
        #expect(try Self.output(reference, "cleaned.csv").contains("surplus lot – café"))
        for name in ["cleaned.csv", "discrepancies.csv", "resolved.csv"] {
            let expected = try Self.output(reference, name)
            #expect(try Self.output(little, name) == expected, "\(name) from Windows-1252 and UTF-16 LE")
            #expect(try Self.output(big, name) == expected, "\(name) from Windows-1252 and UTF-16 BE")
        }
        // One note per sheet guessed to be Windows-1252 (the ASCII ones are UTF-8 too), none for UTF-16.
        let note = "read as Windows-1252 because it is not UTF-8; save it as &quot;CSV UTF-8&quot; to be sure"
        let reports = try [reference, little, big].map { try Self.output($0, "report.html") }
        #expect(reports.map { $0.components(separatedBy: note).count - 1 } == [0, 2, 1])
        #expect(reports[1].contains("<li>central.csv: " + note + "</li>"))
        #expect(reports[1].contains("<li>controller_aps.csv: " + note + "</li>"))
        #expect(reports[2].contains("<li>controller_aps.csv: " + note + "</li>"))
        let summaries = try [reference, little, big].map { try Self.output($0, "summary.txt") }
        #expect(!summaries[0].contains("Notes:"))
        #expect(summaries[1].contains("Notes: 2 (listed in the report)."))
        #expect(summaries[2].contains("Notes: 1 (listed in the report)."))
    }
}
