import Foundation

/// What the benchmark needs from a run's `run.json`: rows read, the phases with their durations in the order the
/// run lists them, and the counts of assets and of discrepancies by code.
struct RunRecordDigest: Sendable, Equatable {
    /// The rows of every input, summed.
    var rows: Int
    /// The number of inputs.
    var inputs: Int
    /// Each phase and its seconds, in the order of the record's `durations` object (its last is usually `total`).
    var phases: [(name: String, seconds: Double)]
    /// `counts.assets`.
    var assets: Int
    /// `counts.discrepancies`: code → count.
    var discrepancies: [String: Int]

    static func == (left: RunRecordDigest, right: RunRecordDigest) -> Bool {
        left.rows == right.rows && left.inputs == right.inputs && left.assets == right.assets
            && left.discrepancies == right.discrepancies && left.phases.map(\.name) == right.phases.map(\.name)
            && left.phases.map(\.seconds) == right.phases.map(\.seconds)
    }

    /// Reads the record at `path`.
    init(path: String) throws(BenchError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotRead(path: path, reason: "the run left no run.json")
        }
        try self.init(data: data, path: path)
    }

    /// Reads the record `data`, which came from `path` (for messages).
    init(data: Data, path: String) throws(BenchError) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .cannotRead(path: path, reason: "it is not a JSON object")
        }
        guard let inputs = object["inputs"] as? [[String: Any]],
            let counts = object["counts"] as? [String: Any],
            let durations = object["durations"] as? [String: Any]
        else {
            throw .cannotRead(path: path, reason: "it lacks inputs, counts or durations")
        }
        rows = inputs.reduce(0) { $0 + (($1["rows"] as? NSNumber)?.intValue ?? 0) }
        self.inputs = inputs.count
        assets = (counts["assets"] as? NSNumber)?.intValue ?? 0
        discrepancies = ((counts["discrepancies"] as? [String: Any]) ?? [:]).compactMapValues {
            ($0 as? NSNumber)?.intValue
        }
        let order = Self.keyOrder(ofObject: "durations", in: Array(data))
        phases = order.compactMap { name in
            (durations[name] as? NSNumber).map { (name, $0.doubleValue) }
        }
        guard phases.count == durations.count else {
            throw .cannotRead(path: path, reason: "its durations are not all numbers")
        }
    }

    /// The keys of the flat JSON object that follows the first key `name` in `bytes`, in the order they are
    /// written (JSONSerialization forgets the order). Keys are read up to the object's closing brace; string
    /// escapes are skipped over.
    static func keyOrder(ofObject name: String, in bytes: [UInt8]) -> [String] {
        let needle = Array("\"\(name)\"".utf8)
        guard var index = firstIndex(of: needle, in: bytes) else { return [] }
        index += needle.count
        while index < bytes.count, bytes[index] != UInt8(ascii: "{") { index += 1 }
        var keys: [String] = []
        var expectingKey = true
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "}") { break }
            if byte == UInt8(ascii: "\"") {
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if expectingKey {
                    keys.append(String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self))
                }
                index = end + 1
                continue
            }
            if byte == UInt8(ascii: ":") { expectingKey = false }
            if byte == UInt8(ascii: ",") { expectingKey = true }
            index += 1
        }
        return keys
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
