/// Decides, for one account, which rows are the same device, what each field's value is, and what is wrong.
///
/// Sources are taken in reconciliation order: the central sheet, then sightings, then registers, each group in
/// the order given. The result is deterministic for the same inputs.
public struct Reconciler: Sendable {
    public var rules: ReconciliationRules

    public init(rules: ReconciliationRules) {
        self.rules = rules
    }

    /// Reorders `elements` so that position `i` holds what was at `order[i]`, in place: following each cycle of the
    /// permutation moves every element once, without a second copy of a list that may hold millions of findings.
    static func permute<Element>(_ elements: inout [Element], into order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] {
            var current = start
            while order[current] != start {
                elements.swapAt(current, order[current])
                placed[current] = true
                current = order[current]
            }
            placed[current] = true
        }
    }

    /// Reconciles the sources, which must already be read with the same rules.
    public func reconcile(_ unordered: consuming [SourceData]) -> Reconciliation {
        var durations: [(phase: String, seconds: Double)] = []
        return reconcile(unordered, durations: &durations)
    }

    /// Reconciles the sources, adding the time each phase took to `durations`: "identify" (joining rows into
    /// assets), "merge" (choosing each field's value) and "reconcile" (finding what is wrong).
    ///
    /// The sources are taken, not copied: a caller that passes its last reference to them (`consume`) lets the run
    /// free their rows once every finding is made, before the cleaned table is built.
    public func reconcile(_ unordered: consuming [SourceData], durations: inout [(phase: String, seconds: Double)])
        -> Reconciliation
    {
        var sources: [SourceData] = []
        for role in SourceRole.allCases {
            for index in unordered.indices where unordered[index].file.role == role { sources.append(unordered[index]) }
        }
        _ = consume unordered
        var run = ReconcileRun(sources: consume sources, rules: rules, durations: &durations)
        let clock = ContinuousClock()
        let start = clock.now
        let reconciliation = run.finish()
        durations.append(("reconcile", Self.seconds(clock.now - start)))
        return reconciliation
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
