import Foundation
import StocktakeCore

/// One run's folder, `STATE/<account>/runs/<run-id>/`, holding the pulled central snapshot, every output file and
/// `run.json`.
///
/// Run ids are the run's start time in UTC (`20261123T021500Z`), with `-2`, `-3`, … added when two runs start in the
/// same second, so they sort by time; `Comparable` orders them that way (`…Z-10` after `…Z-9`).
public struct RunFolder: Sendable, Hashable, Comparable {
    /// The folder's path.
    public let path: String
    /// The run id, which is also the folder's name.
    public let id: String

    /// The path of the file `name` inside the run folder, for example `path(of: "cleaned.csv")`.
    public func path(of name: String) -> String {
        path + "/" + name
    }

    public static func < (lhs: RunFolder, rhs: RunFolder) -> Bool {
        let left = sortKey(lhs.id)
        let right = sortKey(rhs.id)
        return left.time != right.time ? left.time < right.time : left.sequence < right.sequence
    }

    /// The id of a run that started at `date`, before any `-2` suffix: `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func baseID(startedAt date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(parts.tm_year + 1900, 4) + digits(parts.tm_mon + 1, 2) + digits(parts.tm_mday, 2) + "T"
            + digits(parts.tm_hour, 2) + digits(parts.tm_min, 2) + digits(parts.tm_sec, 2) + "Z"
    }

    /// The UTC day a run with this id started, or `nil` when `id` is not a run id.
    static func date(ofID id: String) -> InventoryDate? {
        guard isRunID(id) else { return nil }
        let digits = Array(id.utf8.prefix(8)).map { Int($0) - Int(UInt8(ascii: "0")) }
        let number = { (range: Range<Int>) in digits[range].reduce(0) { $0 * 10 + $1 } }
        return InventoryDate(year: number(0..<4), month: number(4..<6), day: number(6..<8))
    }

    /// Whether `name` has the form of a run id; other entries of `runs/` are left alone.
    static func isRunID(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return false }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard bytes[0..<8].allSatisfy(isDigit), bytes[9..<15].allSatisfy(isDigit) else { return false }
        if bytes.count == 16 { return true }
        return bytes.count > 17 && bytes[16] == UInt8(ascii: "-") && bytes[17] != UInt8(ascii: "0")
            && bytes[17...].allSatisfy(isDigit)
    }

    /// The start time part of an id and its sequence number (1 without a suffix).
    private static func sortKey(_ id: String) -> (time: Substring, sequence: Int) {
        guard let dash = id.firstIndex(of: "-") else { return (id[...], 1) }
        return (id[..<dash], Int(id[id.index(after: dash)...]) ?? Int.max)
    }
}
