import StocktakeCore

/// Why an account's night was refused before anything was reconciled or pushed: the evidence it would rest on is
/// missing or broken, so reporting it would bury the clerk in thousands of false findings and pushing it would damage
/// the company's sheet.
///
/// Each description is one sentence naming the account, the sheet or source, the numbers, and what to do.
public enum RunRefusal: UserFacingError, Equatable {
    /// Tonight's central sheet has far fewer rows than the last good run's (more than `rules.maxShrink` fewer).
    case centralShrank(account: String, location: String, rows: Int, baseline: CentralBaseline, limit: Double)
    /// The central sheet has no data rows (only its header, or nothing) and no earlier run vouches for it.
    case centralEmpty(account: String, location: String)
    /// A pulled sheet ended in the middle of a row or a quoted field, every time it was pulled.
    case incompleteTransfer(account: String, location: String, problem: String, attempts: Int)
    /// A configured sighting or register source gave no data rows (an unmounted share, only XLSX files, a header).
    case sourceEmpty(account: String, role: SourceRole, location: String, files: Int)
    /// More of the central assets were seen by no sighting than `rules.maxMissingShare` allows.
    case tooManyMissing(account: String, missing: Int, central: Int, limit: Double)

    /// Whether the night is suspect: its evidence is missing (an empty or shrunken central sheet, an empty source,
    /// most assets unseen), as opposed to a transfer that broke off.
    public var isSuspectNight: Bool {
        switch self {
        case .incompleteTransfer: false
        case .centralShrank, .centralEmpty, .sourceEmpty, .tooManyMissing: true
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .incompleteTransfer: .unavailable
        case .centralShrank, .centralEmpty, .sourceEmpty, .tooManyMissing: .dataError
        }
    }

    public var description: String {
        switch self {
        case .centralShrank(let account, let location, let rows, let baseline, let limit):
            return "Account \(account): the central sheet \(location) has \(counted(rows, "row")), "
                + "\(grouped(baseline.rows)) on \(baseline.date) (more than the \(Self.percent(limit)) "
                + "rules.maxShrink allows): not reconciled or pushed; check the sheet or run with --accept-shrink."
        case .centralEmpty(let account, let location):
            return "Account \(account): the central sheet \(location) has no rows, only a header or nothing: not "
                + "reconciled or pushed; check the sheet, or run with --accept-shrink if it is really empty."
        case .incompleteTransfer(let account, let location, let problem, let attempts):
            return "Account \(account): \(location) arrived incomplete \(Self.times(attempts)) and was not reconciled "
                + "or pushed; \(problem)"
        case .sourceEmpty(let account, let role, let location, let files):
            let what =
                files == 0
                ? "holds no spreadsheet (.csv, .tsv, .txt or .xlsx)" : "has no data rows in \(counted(files, "file"))"
            return "Account \(account): the \(role.rawValue) source \(location) \(what): not reconciled or pushed; "
                + "check that the share is mounted and the sheets are exported there."
        case .tooManyMissing(let account, let missing, let central, let limit):
            let share = central == 0 ? 0 : Double(missing) / Double(central)
            return "Account \(account): \(grouped(missing)) of \(grouped(central)) central assets "
                + "(\(Self.percent(share))) were seen by no sighting, more than the \(Self.percent(limit)) "
                + "rules.maxMissingShare allows: not pushed; check that every sighting source is complete."
        }
    }

    /// "20 %", "99.7 %": a share as people read it, with one decimal only when it matters.
    static func percent(_ share: Double) -> String {
        let tenths = (share * 1000).rounded()
        let whole = Int(tenths / 10)
        let rest = Int(tenths.truncatingRemainder(dividingBy: 10))
        return rest == 0 ? "\(whole) %" : "\(whole).\(rest) %"
    }

    private static func times(_ count: Int) -> String {
        count == 1 ? "once" : count == 2 ? "twice" : "\(count) times"
    }
}
