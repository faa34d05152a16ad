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

    /// Writes the jobs folder, measures the floor over every account's inputs, runs `stocktake run` (`--runs`
    /// times, each with a state folder of its own, so that every run is a first night) and checks each account's
    /// latest findings against its dataset's. The run of median wall time is reported, unless a run's findings
    /// differ from the injected ones: then that run's are.
    func run() throws(BenchError) -> BenchmarkResult {
        let jobs = try BenchJobsFolder.write(count: command.accounts, datasets: datasets, into: work + "/Jobs")
        var inputsByFolder: [String: [String]] = [:]
        for dataset in datasets { inputsByFolder[dataset.folder] = try dataset.inputFiles() }
        let inputs = jobs.accounts.flatMap { inputsByFolder[$0.dataset.folder] ?? [] }
        let floor = try PageCacheFloor.measure(inputs)
        let start = try StartFloor.measure(stocktake, environment: environment, logs: work + "/start")
        let asOf = datasets[0].parameters.asOf.iso
        var expectedByFolder: [String: [Finding]] = [:]
        for dataset in datasets { expectedByFolder[dataset.folder] = try Finding.read(path: dataset.expected) }
        var runs: [(measurement: ProcessMeasurement, state: String, findings: [BenchmarkResult.AccountFindings])] = []
        for index in 0..<command.runs {
            StandardError.write(
                "stocktake-bench: running \(stocktake) run over \(jobs.accounts.count) accounts"
                    + SingleAccountBenchmark.ordinal(index, command.runs))
            let suffix = index == 0 ? "" : "-\(index + 1)"
            let state = work + "/state" + suffix
            let measurement = try SingleAccountBenchmark.measure(
                stocktake, ["run", "--jobs", jobs.path, "--state", state, "--as-of", asOf], environment: environment,
                logs: work + "/run" + suffix)
            var findings: [BenchmarkResult.AccountFindings] = []
            for account in jobs.accounts {
                let comparison = FindingsComparison(
                    expected: expectedByFolder[account.dataset.folder] ?? [],
                    found: try Finding.read(path: state + "/" + account.name + "/latest/discrepancies.csv"))
                findings.append(.init(account: account.name, comparison: comparison))
            }
            runs.append((measurement, state, findings))
        }
        let series = RunSeries(walls: runs.map(\.measurement.wallSeconds))
        let reported = series.reportedIndex(differs: runs.map { !$0.findings.allSatisfy(\.comparison.isEqual) })
        let (measurement, state, findings) = runs[reported]
        var rows = 0
        var phases: [(name: String, seconds: Double)] = []
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
        }
        return BenchmarkResult(
            command: command, datasets: datasets, program: "stocktake run", measurement: measurement,
            series: runs.count > 1 ? series : nil, inputFiles: inputs.count, rows: rows, inputBytes: floor.bytes,
            phases: phases, floor: floor, start: start, fileSystem: JournalFreeExt4.holding(work),
            findings: findings)
    }
}
