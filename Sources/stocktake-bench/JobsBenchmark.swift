import Foundation

/// Many accounts: a jobs folder of `--accounts K` accounts and one `stocktake run` over it, as cron runs it.
struct JobsBenchmark {
    var command: RunCommand
    /// The datasets the accounts share round-robin.
    var datasets: [Dataset]
    /// The `stocktake` executable measured.
    var stocktake: String
    /// Variables added to the child's environment.
    var environment: [String: String]
    /// The temporary folder the jobs, the state and the logs go to.
    var work: String

    /// Writes the jobs folder, measures the floor over every account's inputs, runs `stocktake run` and checks
    /// each account's latest findings against its dataset's.
    func run() throws(BenchError) -> BenchmarkResult {
        let jobs = try BenchJobsFolder.write(count: command.accounts, datasets: datasets, into: work + "/Jobs")
        var inputsByFolder: [String: [String]] = [:]
        for dataset in datasets { inputsByFolder[dataset.folder] = try dataset.inputFiles() }
        let inputs = jobs.accounts.flatMap { inputsByFolder[$0.dataset.folder] ?? [] }
        let floor = try PageCacheFloor.measure(inputs)
        let state = work + "/state"
        let asOf = datasets[0].parameters.asOf.iso
        StandardError.write("stocktake-bench: running \(stocktake) run over \(jobs.accounts.count) accounts")
        let measurement = try SingleAccountBenchmark.measure(
            stocktake, ["run", "--jobs", jobs.path, "--state", state, "--as-of", asOf], environment: environment,
            logs: work + "/run")
        var expectedByFolder: [String: [Finding]] = [:]
        for dataset in datasets { expectedByFolder[dataset.folder] = try Finding.read(path: dataset.expected) }
        var rows = 0
        var phases: [(name: String, seconds: Double)] = []
        var findings: [BenchmarkResult.AccountFindings] = []
        for account in jobs.accounts {
            let latest = state + "/" + account.name + "/latest"
            let record = try RunRecordDigest(path: latest + "/run.json")
            rows += record.rows
            for phase in record.phases {
                if let index = phases.firstIndex(where: { $0.name == phase.name }) {
                    phases[index].seconds += phase.seconds
                } else {
                    phases.append(phase)
                }
            }
            let comparison = FindingsComparison(
                expected: expectedByFolder[account.dataset.folder] ?? [],
                found: try Finding.read(path: latest + "/discrepancies.csv"))
            findings.append(.init(account: account.name, comparison: comparison))
        }
        return BenchmarkResult(
            command: command, datasets: datasets, program: "stocktake run", measurement: measurement,
            inputFiles: inputs.count, rows: rows, inputBytes: floor.bytes, phases: phases, floor: floor,
            findings: findings)
    }
}
