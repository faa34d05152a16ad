import Foundation
import StocktakeCore

extension AssetLookup {
    /// Gives each match its findings from the latest run's `discrepancies.csv` (by VT tag), and adds the tag-less
    /// devices (`NO_TAG`) whose serial number or MAC address is one of `readings`, which `cleaned.csv` cannot hold.
    /// A run made before findings had ids (no `id` column) adds nothing.
    static func attachFindings(
        to matches: [AssetMatch], readings: [CanonicalField: String], table path: String, account: String
    ) throws(AssetLookupError) -> [AssetMatch] {
        guard FileManager.default.fileExists(atPath: path) else { return matches }
        var result = matches
        var matchOfTag: [String: Int] = [:]
        for (index, match) in matches.enumerated() where !match[.vtTag].isEmpty { matchOfTag[match[.vtTag]] = index }
        let wanted: [(field: CanonicalField, text: String)] = [.serialNumber, .macAddress].compactMap { field in
            readings[field].map { (field, $0) }
        }
        do {
            var reader = try CSVReader(path: path, delimiter: .comma)
            var columns: [String: Int]?
            try reader.forEachRecord { record in
                guard let known = columns else {
                    var header: [String: Int] = [:]
                    for index in 0..<record.count { header[record.string(at: index)] = index }
                    columns = header
                    return
                }
                guard known["id"] != nil else { return }
                if !result.isEmpty && !result[0].findingsKnown {
                    for index in result.indices { result[index].findingsKnown = true }
                }
                func cell(_ name: String) -> String {
                    guard let index = known[name], index < record.count else { return "" }
                    return record.string(at: index)
                }
                let finding = FindingMatch(
                    id: cell("id"), code: cell("code"), state: cell("state"), firstSeen: cell("first_seen"),
                    message: cell("message"))
                if let index = matchOfTag[cell("vt_tag")] {
                    result[index].findings.append(finding)
                    return
                }
                guard cell("code") == DiscrepancyCode.noTag.rawValue else { return }
                let matchedBy = wanted.filter { cell($0.field.rawValue) == $0.text }.map(\.field)
                guard !matchedBy.isEmpty else { return }
                var values: [CanonicalField: String] = [:]
                for field in [CanonicalField.cnsNumber, .serialNumber, .macAddress] {
                    values[field] = cell(field.rawValue)
                }
                var device = AssetMatch(
                    account: account, matchedBy: matchedBy, line: record.line, values: values, status: "no tag",
                    sources: cell("sources"))
                device.findings = [finding]
                device.findingsKnown = true
                result.append(device)
            }
        } catch let error as CSVError {
            throw .unreadableTable(account: account, error: error)
        } catch {
            throw .unreadableTable(account: account, error: .unreadable(file: path, reason: "\(error)"))
        }
        return result
    }
}
