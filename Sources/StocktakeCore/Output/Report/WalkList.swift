/// A building's walk list: a printable checklist of its rooms with the devices to look for, a tick box and a notes
/// line per device.
///
/// The devices to look for are those with a finding someone must go and see: MISSING (not seen), STALE (not seen
/// lately), POSSIBLE_TYPO (read the sticker) and UNRECORDED (seen, not on record). An acknowledged finding puts no
/// device on a list: the clerk has already said why it stands.
struct WalkList: Sendable, Hashable {
    /// One device to look for.
    struct Item: Sendable, Hashable {
        var room: String?
        var label: String
        var model: String?
        /// The codes that put it on the list, most telling first.
        var codes: [DiscrepancyCode]
    }

    /// The codes that put a device on a walk list.
    static let codes: Set<DiscrepancyCode> = [.missing, .stale, .possibleTypo, .unrecorded]

    /// The building's code; `nil` for devices whose building is not known.
    var building: String?
    /// Its items, by room (no room last), in the order of the devices.
    var items: [Item]

    /// The walk lists of the devices (listed by building and room), one per building with something to look for.
    static func lists(
        of devices: [ReportDevice], in reconciliation: Reconciliation, statuses: [FindingStatus]
    ) -> [WalkList] {
        var lists: [WalkList] = []
        for device in devices {
            var codes: [DiscrepancyCode] = []
            for index in device.findings where statuses[index].state != .acknowledged {
                let code = reconciliation.discrepancies[index].code
                if Self.codes.contains(code) && !codes.contains(code) { codes.append(code) }
            }
            guard !codes.isEmpty else { continue }
            let item = Item(room: device.room, label: device.label, model: device.model, codes: codes)
            if let last = lists.indices.last, lists[last].building == device.building {
                lists[last].items.append(item)
            } else {
                lists.append(WalkList(building: device.building, items: [item]))
            }
        }
        return lists
    }

    /// The list as HTML: a heading and a table of room, device, what to look for, a tick box and a notes line.
    func html(buildingName: String?) -> String {
        var page = HTMLBuffer()
        html(buildingName: buildingName, into: &page)
        return page.text
    }

    /// Appends the list's HTML to `page`.
    func html(buildingName: String?, into page: inout HTMLBuffer) {
        let title = building.map { code in buildingName.map { "\(code), \($0)" } ?? code } ?? "Building not known"
        page.append("<section class=\"walk\"><h3>Walk list: ")
        page.append(escaped: title)
        page.append("</h3>\n")
        page.append("<table class=\"walklist\"><thead><tr><th scope=\"col\">Room</th><th scope=\"col\">Device</th>")
        page.append(
            "<th scope=\"col\">Look for</th><th scope=\"col\">Found</th><th scope=\"col\">Notes</th></tr></thead>")
        page.append("<tbody>\n")
        for item in items {
            page.append("<tr><td>")
            page.append(escaped: item.room ?? "?")
            page.append("<td>")
            page.append(escaped: item.label)
            if let model = item.model {
                page.append(" (")
                page.append(escaped: model)
                page.append(")")
            }
            page.append("<td>")
            for (offset, code) in item.codes.enumerated() {
                if offset > 0 { page.append(", ") }
                page.append(code.rawValue)
            }
            page.append("<td><td></tr>\n")
        }
        page.append("</tbody></table></section>\n")
    }
}
