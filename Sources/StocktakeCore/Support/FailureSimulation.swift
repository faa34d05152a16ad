/// The failures one account's run simulates, and where each was asked for, so every message can say it was a
/// rehearsal and how to stop it.
///
/// An error a simulated failure causes is the real failure's own typed error wrapped in its `simulated` case, whose
/// sentence is the real one after the label: `(simulated failure: --simulate-failure push) Account acme: …`. The
/// label leads, so a line cut to fit (`summary.txt`) still shows it.
public struct FailureSimulation: Sendable, Hashable {
    /// Who asked for a simulated failure.
    public enum Origin: Sendable, Hashable {
        /// `stocktake run --simulate-failure`, for every account of the run.
        case commandLine
        /// The account's own `testFailureMode` in `account.json`.
        case account
    }

    /// Each simulated kind and who asked for it; the command line wins when both did.
    public private(set) var origins: [SimulatedFailure: Origin] = [:]

    /// No failure simulated.
    public init() {}

    /// `kinds`, asked for by `origin`.
    public init(_ kinds: [SimulatedFailure], origin: Origin) {
        for kind in kinds { origins[kind] = origin }
    }

    /// Whether nothing is simulated.
    public var isEmpty: Bool { origins.isEmpty }

    /// The simulated kinds, in the order of `SimulatedFailure.allCases`.
    public var kinds: [SimulatedFailure] { origins.keys.sorted() }

    /// Whether `kind` is simulated.
    public func contains(_ kind: SimulatedFailure) -> Bool {
        origins[kind] != nil
    }

    /// This simulation and `other` together; where both name a kind, the command line's label is kept.
    public func merging(_ other: FailureSimulation) -> FailureSimulation {
        var merged = self
        for (kind, origin) in other.origins where merged.origins[kind] != .commandLine {
            merged.origins[kind] = origin
        }
        return merged
    }

    /// The label put before every sentence `kind` causes, when it is simulated: `(simulated failure:
    /// --simulate-failure push)` or `(simulated failure: testFailureMode push)`.
    public func label(_ kind: SimulatedFailure) -> String? {
        origins[kind].map { Self.label(kind, origin: $0) }
    }

    /// The label of `kind` asked for by `origin`.
    public static func label(_ kind: SimulatedFailure, origin: Origin) -> String {
        switch origin {
        case .commandLine: "(simulated failure: --simulate-failure \(kind.rawValue))"
        case .account: "(simulated failure: testFailureMode \(kind.rawValue))"
        }
    }
}
