import Foundation

/// A step of a night that `stocktake run --simulate-failure` (or an account's `testFailureMode`) makes fail exactly as
/// its real failure would, so that an operator can rehearse a bad night without breaking a server.
///
/// Each kind fails at the seam where the real failure happens, before anything reaches a server: the provider that
/// pulls or pushes a sheet, the report upload, the account's token, the HTTP exchange, the output writer, the
/// account's lock.
public enum SimulatedFailure: String, CaseIterable, Sendable, Hashable, Comparable {
    /// Pulling a sheet fails: a server stays unavailable (503), or a local sheet is missing.
    case pull
    /// Pushing the central sheet fails: its server stays unavailable (503), or its folder refuses the write.
    case push
    /// Uploading the reports to `push.report` fails: the server stays unavailable (503).
    case upload
    /// The account's token is rejected (401), or is needed and none is configured.
    case token
    /// The first exchange with a server stalls and times out.
    case timeout
    /// Writing the run's outputs fails because the disk is full (errno `ENOSPC`).
    case diskFull = "disk-full"
    /// Another run holds the account's lock.
    case lock

    /// The kinds as a user writes them: "pull, push, upload, token, timeout, disk-full, lock".
    public static var accepted: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The kinds named in `text`, a comma-separated list (`push,upload`), in the order of `allCases` and without
    /// repeats; throws the first name that is not a kind.
    public static func list(_ text: String) throws(UnknownName) -> [SimulatedFailure] {
        var kinds: Set<SimulatedFailure> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces)
            guard let kind = SimulatedFailure(rawValue: name) else { throw UnknownName(name: name) }
            kinds.insert(kind)
        }
        return kinds.sorted()
    }

    /// A name that is not a kind of simulated failure.
    public struct UnknownName: Error, Equatable {
        public var name: String
    }

    public static func < (lhs: SimulatedFailure, rhs: SimulatedFailure) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
