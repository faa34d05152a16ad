import Foundation
import StocktakeGenerator

/// Where generated accounts are kept: one folder per parameter set under a data folder (`--data DIR`), reused
/// while its marker records the same parameters, or a temporary folder removed after the run.
///
/// Generating a million assets takes minutes; keeping the data makes a second benchmark start at once. A dataset
/// is generated into a `.partial` folder and renamed when complete, so a run stopped midway leaves nothing that a
/// later run would take for complete.
///
/// Generating runs `stocktake-bench generate` as a child process, not in this one: Linux counts the peak memory of
/// the process a measured child was spawned from into the child's own (`posix_spawn` shares its memory until the
/// child starts its program), so generating here would make a small run look as large as the generation.
struct DatasetStore {
    /// The name of the marker file written last into a complete dataset.
    static let markerName = "bench-data.json"

    /// The data folder.
    var root: String

    /// The dataset for `parameters`: the kept one when its marker matches, else newly generated (replacing a
    /// folder of the same name whose marker differs or is missing), which is said on standard error.
    func dataset(for parameters: DatasetParameters) throws(BenchError) -> Dataset {
        if let kept = kept(parameters) { return kept }
        StandardError.write("stocktake-bench: generating \(parameters.summary) into \(root)")
        return try generate(parameters)
    }

    /// The kept dataset for `parameters`, when its marker records them.
    func kept(_ parameters: DatasetParameters) -> Dataset? {
        let folder = root + "/" + parameters.folderName
        let marker = FileManager.default.contents(atPath: folder + "/" + Self.markerName)
        guard let marker, String(decoding: marker, as: UTF8.self) == parameters.marker else { return nil }
        return Dataset(parameters: parameters, folder: folder, reused: true)
    }

    /// Generates the dataset for `parameters`, replacing any folder of its name.
    func generate(_ parameters: DatasetParameters) throws(BenchError) -> Dataset {
        let folder = root + "/" + parameters.folderName
        let partial = folder + ".partial-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: partial)
            try runGenerator(parameters, into: partial)
            try Data(parameters.marker.utf8).write(to: URL(fileURLWithPath: partial + "/" + Self.markerName))
            if FileManager.default.fileExists(atPath: folder) {
                try FileManager.default.removeItem(atPath: folder)
            }
            try FileManager.default.moveItem(atPath: partial, toPath: folder)
        } catch let error as BenchError {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw .cannotWrite(
                path: folder,
                reason: "the generated files cannot be written there (check its permissions and free space)")
        }
        return Dataset(parameters: parameters, folder: folder, reused: false)
    }

    /// Runs `stocktake-bench generate` (this program) for `parameters` into `folder`.
    private func runGenerator(_ parameters: DatasetParameters, into folder: String) throws(BenchError) {
        let log = root + "/generate-\(getpid()).err"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let process = MeasuredProcess(
            program: BenchExecutable.folder() + "/stocktake-bench",
            arguments: [
                "generate", "--assets", String(parameters.assets), "--seed", String(parameters.seed), "--out", folder,
                "--as-of", parameters.asOf.iso, "--tag-digits", String(parameters.tagDigits), "--cns-digits",
                String(parameters.cnsDigits),
            ]
                + (parameters.assetsPerInjection == GeneratorOptions.defaultAssetsPerInjection
                    ? [] : ["--assets-per-injection", String(parameters.assetsPerInjection)]),
            standardOutput: "/dev/null", standardError: log)
        let (outcome, _) = try process.run()
        guard outcome.succeeded else {
            // Its messages start with the program's name, which the caller's message already gives.
            let message = LogTail.read(log).split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "stocktake-bench: ", with: "")
            }.joined(separator: "\n")
            throw outcome == .exited(64) || outcome == .exited(73)
                ? .cannotGenerate(reason: message.isEmpty ? "stocktake-bench generate \(outcome.description)" : message)
                : .programFailed(program: "stocktake-bench generate", outcome: outcome, log: message)
        }
    }
}
