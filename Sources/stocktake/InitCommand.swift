import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake init`: writes a commented starting account folder for a new company.
enum InitCommand: Command {
    static let configuration = CommandConfiguration(
        name: "init",
        abstract: """
            Write a starting account: Jobs/NAME/ with a commented account.json whose central sheet is the empty
            example central.csv, a secrets/ folder only its owner can open (mode 0700), and a README.md for the
            account's admin. The new account passes 'stocktake check' as it is; edit account.json from there.
            """,
        synopsis: "stocktake init NAME [--jobs DIR]",
        sections: [.init(options: [SharedOptions.jobs])],
        discussion: """
            NAME holds letters, digits, '-', '_' and '.', and does not start with a dot. The jobs folder is created
            if missing.
            Exit status: 0 written; 64 bad usage or a name that cannot be an account; 73 the folder already exists
            (init never overwrites an account) or cannot be written.
            """)

    static func run(_ arguments: ParsedArguments) throws {
        let jobs = arguments.value(SharedOptions.jobs) ?? NightlyRunOptions().jobs
        let names = arguments.positionals
        guard names.count == 1 else {
            throw arguments.usageError(
                names.isEmpty ? "give the new account's NAME" : "give one NAME, not \(names.count)")
        }
        let folder = ControlCharacters.escaped(try AccountTemplate.write(name: names[0], jobs: jobs))
        print("Wrote \(folder): account.json, central.csv, README.md and secrets/ (mode 0700).")
        let jobsOption = jobs == NightlyRunOptions().jobs ? "" : " --jobs \(ControlCharacters.escaped(jobs))"
        print("Next: edit \(folder)/account.json, then run 'stocktake check\(jobsOption) --account \(names[0])'.")
    }
}
