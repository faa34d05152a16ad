/// `run.json`: the machine-readable record of a run, for monitoring and for the next night's run.
///
/// Keys follow the README's order (account, run date, start and finish, inputs, counts, durations, push results,
/// exit status), then where the outputs went.
public enum RunRecord {
    /// The file's text.
    public static func json(_ reconciliation: Reconciliation, details: RunDetails) -> String {
        let counts = reconciliation.countsByCode
        let byCode = DiscrepancyCode.allCases.filter { counts[$0] != nil }.map { ($0.rawValue, String(counts[$0]!)) }
        let inputs = reconciliation.inputs.map { input in
            JSONText.object([
                ("file", JSONText.quoted(input.file.displayName)), ("path", JSONText.quoted(input.file.path)),
                ("role", JSONText.quoted(input.file.role.rawValue)), ("rows", String(input.rows)),
                ("unmapped", JSONText.array(input.unmapped)),
            ])
        }
        let statuses = reconciliation.countsByStatus
        let assetCounts: [(String, String)] = [
            ("assets", String(reconciliation.assets.count)),
            ("ok", String(statuses[.ok] ?? 0)),
            ("missing", String(statuses[.missing] ?? 0)),
            ("unrecorded", String(statuses[.unrecorded] ?? 0)),
            ("typo", String(statuses[.typo] ?? 0)),
            ("conflict", String(statuses[.conflict] ?? 0)),
            ("errors", String(reconciliation.count(Severity.error))),
            ("warnings", String(reconciliation.count(.warning))),
            ("info", String(reconciliation.count(.info))),
            ("new", String(reconciliation.statuses.count(where: { $0.state == .new }))),
            ("open", String(reconciliation.statuses.count(where: { $0.state == .open }))),
            ("acknowledged", String(reconciliation.acknowledgedCount)),
            ("resolved", String(reconciliation.ledger.resolved.count)),
            ("discrepancies", JSONText.object(byCode, indent: 4)),
        ]
        // From the start until the reports are written: `finished` is stamped as the reports begin (they state it),
        // and their own time is the `reports` phase.
        let reports = details.durations.last { $0.phase == "reports" }?.seconds ?? 0
        let total = details.finished.timeIntervalSince(details.started) + reports
        let durations =
            details.durations.map { ($0.phase, JSONText.seconds($0.seconds)) } + [("total", JSONText.seconds(total))]
        let outputs = ReconcileJob.outputFiles
        return JSONText.object(
            [
                ("account", JSONText.quoted(details.account)),
                ("asOf", JSONText.quoted(reconciliation.asOf.description)),
                ("started", JSONText.quoted(RunDetails.timestamp(details.started))),
                ("finished", JSONText.quoted(RunDetails.timestamp(details.finished))),
                ("inputs", "[\n    " + inputs.joined(separator: ",\n    ") + "\n  ]"),
                ("counts", JSONText.object(assetCounts, indent: 2)),
                ("durations", JSONText.object(durations, indent: 2)),
                ("push", JSONText.array(details.pushes)),
                ("exitStatus", String(details.exitStatus.rawValue)),
            ] + simulated(details) + [
                ("outputDirectory", JSONText.quoted(details.outputDirectory)),
                ("outputs", JSONText.array(outputs)),
            ], indent: 0) + "\n"
    }

    /// `"simulatedFailures": ["push"]` when the run rehearsed failures (`--simulate-failure`, `testFailureMode`),
    /// else nothing: a real run's record keeps its keys.
    static func simulated(_ details: RunDetails) -> [(String, String)] {
        guard !details.simulation.isEmpty else { return [] }
        return [("simulatedFailures", JSONText.array(details.simulation.kinds.map(\.rawValue)))]
    }
}
