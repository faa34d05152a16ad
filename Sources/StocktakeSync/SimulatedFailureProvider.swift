import Foundation
import StocktakeCore

/// A sheet's provider whose pull or push fails as its real failure would, for `--simulate-failure pull` or `push`:
/// nothing is read from or sent to the sheet's server or file.
///
/// The real failures are those a rehearsal is for: a server that stays unavailable (503) through its retries; for a
/// local sheet, a file that is gone when pulled (a share that is not mounted) and a folder that refuses the write
/// when pushed. Each is the provider's own typed error in `SyncError.simulated`, under the label that says so.
struct SimulatedFailureProvider: SheetProvider {
    /// The provider that pulls and pushes when its step is not simulated.
    var base: any SheetProvider
    /// Whether the sheet is a file on this machine.
    var isLocal: Bool
    var account: String
    var simulation: FailureSimulation

    var location: String { base.location }

    func pull() throws(SyncError) -> PulledSheet {
        guard let label = simulation.label(.pull) else { return try base.pull() }
        throw .simulated(failure(.pull), label: label)
    }

    func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        guard let label = simulation.label(.push) else { return try base.push(bytes, over: pulled) }
        throw .simulated(failure(.push), label: label)
    }

    /// The error the real failure of `phase` gives for this sheet.
    func failure(_ phase: SyncPhase) -> SyncError {
        guard isLocal else {
            return .unavailable(account: account, url: location, status: 503, detail: "", phase: phase)
        }
        // A local sheet: missing when pulled, its folder refusing the write when pushed.
        let code = phase == .pull ? ENOENT : EACCES
        return FileProvider.error(errno: code, account: account, path: location, phase: phase)
    }
}
