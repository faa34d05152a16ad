/// Whether an exchange was reading a sheet or writing one back: a failed pull means a source is missing (exit 69),
/// a failed push means the outputs are kept and the push waits for the next run (exit 75).
public enum SyncPhase: String, Sendable, Hashable {
    case pull
    case push
}
