import Foundation

/// Generates a realistic test account: a central sheet, sighting and register sources, a buildings table, and the
/// discrepancies a correct reconciliation must report (`expected.csv`).
///
/// The account is a university deploying access points across sixty buildings. Sheets disagree only in
/// harmless ways (identifier formats, building names, placeholders, blank lines) except for the injected
/// discrepancies, each of which yields exactly its rows of `expected.csv`. The same options always give
/// byte-identical files.
public enum AccountGenerator {
    /// Writes the account into `directory` (created if needed; existing files of the same names are replaced)
    /// and returns where everything went and the expected discrepancies.
    public static func generate(_ options: GeneratorOptions, into directory: URL) throws -> GeneratedAccount {
        try options.validate()
        let plan = AccountPlanner.plan(options)
        var files: [String: [UInt8]] = [:]
        var locations: [Int: String] = [:]
        for file in SourceFile.all {
            let rendered = SourceFileWriter.render(file, rows: plan.rows[file] ?? [])
            files[file.relativePath] = rendered.bytes
            for (marker, row) in rendered.rowNumbers {
                locations[marker] = "\(file.fileName) row \(row)"
            }
        }
        let expected = plan.expectations.map { planned in
            var discrepancy = planned.discrepancy
            discrepancy.note = citing(planned.markers.compactMap { locations[$0] }, in: discrepancy.note)
            return discrepancy
        }.sorted()
        files["expected.csv"] = expectedFile(expected)
        files["buildings.csv"] = buildingsFile()
        files["generated.json"] = manifest(options)
        try write(files, into: directory)
        return GeneratedAccount(
            centralPath: directory.appendingPathComponent("central.csv").path,
            sightingsDirectory: directory.appendingPathComponent("sightings").path,
            registersDirectory: directory.appendingPathComponent("registers").path,
            buildingsPath: directory.appendingPathComponent("buildings.csv").path,
            expectedPath: directory.appendingPathComponent("expected.csv").path, expected: expected,
            files: files.keys.sorted())
    }

    /// The note with its placeholders `{0}`, `{1}`… replaced by the cited row locations; a note without
    /// placeholders gets the locations appended in parentheses.
    static func citing(_ locations: [String], in note: String) -> String {
        guard !locations.isEmpty else {
            return note
        }
        guard note.contains("{0}") else {
            return note + " (" + locations.joined(separator: "; ") + ")"
        }
        var result = note
        for (index, location) in locations.enumerated() {
            result = result.replacingOccurrences(of: "{\(index)}", with: location)
        }
        return result
    }

    /// The rows of `expected.csv`: a header and one line per discrepancy, LF line ends.
    static func expectedFile(_ expected: [ExpectedDiscrepancy]) -> [UInt8] {
        var text = DelimitedTextWriter.line(ExpectedDiscrepancy.columns, separator: ",") + "\n"
        for discrepancy in expected {
            text += DelimitedTextWriter.line(discrepancy.cells, separator: ",") + "\n"
        }
        return Array(text.utf8)
    }

    /// The buildings table: `code,name,latitude,longitude`.
    static func buildingsFile() -> [UInt8] {
        var text = "code,name,latitude,longitude\n"
        for building in BuildingCatalog.buildings {
            let cells = [
                building.code, building.name, CanonicalForm.degrees(building.latitudeMicrodegrees),
                CanonicalForm.degrees(building.longitudeMicrodegrees),
            ]
            text += DelimitedTextWriter.line(cells, separator: ",") + "\n"
        }
        return Array(text.utf8)
    }

    /// `generated.json`: the options, so that a run can be reproduced and checked against the right date.
    static func manifest(_ options: GeneratorOptions) -> [UInt8] {
        let text = """
            {
              "assets": \(options.assets),
              "seed": \(options.seed),
              "asOf": "\(options.asOf.iso)",
              "tagDigits": \(options.tagDigits),
              "cnsDigits": \(options.cnsDigits),
              "staleAfterDays": \(GeneratorOptions.staleAfterDays)
            }

            """
        return Array(text.utf8)
    }

    private static func write(_ files: [String: [UInt8]], into directory: URL) throws(GeneratorError) {
        let manager = FileManager.default
        for folder in ["", "sightings", "registers"] {
            let url = folder.isEmpty ? directory : directory.appendingPathComponent(folder)
            do {
                try manager.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw .cannotWrite(path: url.path, reason: error.localizedDescription)
            }
        }
        for path in files.keys.sorted() {
            let url = directory.appendingPathComponent(path)
            do {
                try Data(files[path]!).write(to: url, options: .atomic)
            } catch {
                throw .cannotWrite(path: url.path, reason: error.localizedDescription)
            }
        }
    }
}
