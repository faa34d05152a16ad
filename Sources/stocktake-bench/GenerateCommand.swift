import Foundation
import StocktakeGenerator

/// `stocktake-bench generate --assets N --seed S --out DIR [--as-of YYYY-MM-DD] [--tag-digits N] [--cns-digits N]
/// [--assets-per-injection N]`
///
/// Writes a realistic test account with known, injected discrepancies (see ``usage``).
struct GenerateCommand {
    /// The command's usage text.
    static let usage = """
        usage: stocktake-bench generate --assets N --seed S --out DIR [--as-of YYYY-MM-DD] [--tag-digits N] \
        [--cns-digits N] [--assets-per-injection N]

        Writes a generated account into DIR: central.csv, sightings/ (six survey sheets, the controller export,
        the warehouse receiving list), registers/ (property tags, CNS register, custodians, billing, legacy
        export), buildings.csv, expected.csv (the discrepancies a correct run must report) and generated.json.
        The same options always write byte-identical files.

        options:
          --assets N          central assets to generate (at least 100; at most a tenth of the tag space)
          --seed S            seed of the pseudo-random generator (0 to 18446744073709551615)
          --out DIR           output folder, created if needed
          --as-of YYYY-MM-DD  run date the sighting dates are relative to (default 2026-11-20)
          --tag-digits N      digits of a VT tag (default 6)
          --cns-digits N      digits of a CNS number after the C (default 6)
          --assets-per-injection N
                              inject one set of discrepancies (about 16 findings) per N assets (default 500,
                              at least 25)
          -h, --help          show this help
        """

    /// The options to generate with.
    var options: GeneratorOptions
    /// The output folder.
    var output: String

    /// Parses the arguments after `generate`; `nil` when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> GenerateCommand? {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-h" || argument == "--help" {
                return nil
            }
            let known = [
                "--assets", "--seed", "--out", "--as-of", "--tag-digits", "--cns-digits", "--assets-per-injection",
            ]
            guard known.contains(argument) else {
                throw UsageError("unknown option '\(argument)' for generate; run 'stocktake-bench generate --help'.")
            }
            guard index + 1 < arguments.count else {
                throw UsageError("\(argument) needs a value; run 'stocktake-bench generate --help'.")
            }
            values[argument] = arguments[index + 1]
            index += 2
        }
        for required in ["--assets", "--seed", "--out"] where values[required] == nil {
            throw UsageError("generate needs \(required); run 'stocktake-bench generate --help'.")
        }
        let assets = try integer(values["--assets"]!, option: "--assets")
        guard let seed = UInt64(values["--seed"]!) else {
            throw UsageError(
                "--seed must be a whole number from 0 to 18446744073709551615, not '\(values["--seed"]!)'.")
        }
        var options = GeneratorOptions(assets: assets, seed: seed)
        if let text = values["--as-of"] {
            guard let day = CalendarDay(iso: text) else {
                throw UsageError("--as-of must be a date written YYYY-MM-DD, not '\(text)'.")
            }
            options.asOf = day
        }
        if let text = values["--tag-digits"] {
            options.tagDigits = try integer(text, option: "--tag-digits")
        }
        if let text = values["--cns-digits"] {
            options.cnsDigits = try integer(text, option: "--cns-digits")
        }
        if let text = values["--assets-per-injection"] {
            options.assetsPerInjection = try integer(text, option: "--assets-per-injection")
        }
        do {
            try options.validate()
        } catch {
            throw UsageError(error.description)
        }
        return GenerateCommand(options: options, output: values["--out"]!)
    }

    /// Runs the command; returns the process exit status (0, 64 for bad usage, 73 when the output cannot be
    /// written).
    static func main(_ arguments: [String]) -> Int32 {
        var status: Int32 = 0
        guard let command = UsageError.command(arguments, usage: usage, status: &status, parse: parse) else {
            return status
        }
        do {
            let account = try AccountGenerator.generate(
                command.options, into: URL(fileURLWithPath: command.output, isDirectory: true))
            print(
                "Wrote \(account.files.count) files for \(command.options.assets) assets into \(command.output); "
                    + "expected.csv lists \(account.expected.count) discrepancies.")
            return 0
        } catch let error as GeneratorError {
            StandardError.write("stocktake-bench: \(error.description)")
            return 73
        } catch {
            StandardError.write("stocktake-bench: \(error)")
            return 73
        }
    }

    private static func integer(_ text: String, option: String) throws(UsageError) -> Int {
        guard let value = Int(text), value >= 0 else {
            throw UsageError("\(option) must be a whole number, not '\(text)'.")
        }
        return value
    }
}
