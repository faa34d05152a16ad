/// `report.html`: the clerk's report, one self-contained page (inline CSS, SVG and a little script, nothing fetched)
/// that reads offline, on a phone and by screen reader, and prints on A4 and Letter.
///
/// The top says whose run it is, when (in the account's time zone), what was reconciled, what changed since the
/// last run and what the push did. Every finding is then shown once per device, its findings together, in two views:
/// by building and room (for the walk-through) and by code (for the office); then a walk list per building, the
/// per-building table, a map, the changes to the central sheet, and a glossary of the codes. Every finding is in the
/// HTML; the script only hides and sorts.
public enum HTMLReport {
    /// A code's list of findings, and a building's, is folded (`<details>` closed) when it has more than this many.
    /// A browser lays out none of a folded list until it is opened, so a large report opens in seconds.
    public static let foldedAfter = 20
    /// The code view lists this many findings per code; all of them are in the building-and-room view, so that
    /// 50,000 findings give a page under 20 MB (`make bench-report` measures it).
    public static let rowsPerCode = 200

    /// The page's text.
    public static func html(_ reconciliation: Reconciliation, details: RunDetails) -> String {
        String(decoding: bytes(reconciliation, details: details), as: UTF8.self)
    }

    /// Accounts with at least this many assets and findings together are rendered on all the run's threads
    /// (`Parallel.threads`); smaller ones, whose report takes a few milliseconds, on the calling thread alone.
    static let parallelFrom = 5_000

    /// The page's UTF-8 bytes, as `report.html` holds them. `messages` are the findings' sentences, one for each of
    /// `reconciliation.discrepancies` in order (`DiscrepancyTable.messages(of:)`), when the tables have made them
    /// already; `nil` makes them here.
    public static func bytes(
        _ reconciliation: Reconciliation, details: RunDetails, messages: [String]? = nil
    ) -> [UInt8] {
        bytes(reconciliation, details: details, threads: threads(for: reconciliation), messages: messages)
    }

    /// The threads the report of `reconciliation` is rendered on: all the run's from `parallelFrom` assets and
    /// findings, else one. The reports' other files are made beside it on the same condition (`writeReports`).
    static func threads(for reconciliation: Reconciliation) -> Int {
        reconciliation.assets.count + reconciliation.discrepancies.count >= parallelFrom ? Parallel.threads : 1
    }

    /// The page's bytes, rendered on at most `threads` threads: the devices and the header's totals side by side,
    /// then the sections (the building-and-room view in pieces) each into its own buffer, joined in the page's
    /// order. On one thread every section is written straight into the page.
    static func bytes(
        _ reconciliation: Reconciliation, details: RunDetails, threads: Int, messages: [String]? = nil
    ) -> [UInt8] {
        let messages = messages ?? DiscrepancyTable.messages(of: reconciliation)
        precondition(
            messages.count == reconciliation.discrepancies.count, "a report needs one sentence for each finding")
        let statuses = reconciliation.statuses
        var devices: [ReportDevice] = []
        var changes: ChangeGroups?
        var billing: BillingTotals?
        var assetCounts: AssetCounts?
        Parallel.perform(2, threads: threads) { task in
            if task == 0 {
                devices = ReportDevice.devices(of: reconciliation)
            } else {
                changes = ChangeGroups(details.changes)
                billing = BillingTotals(reconciliation)
                assetCounts = AssetCounts(reconciliation.assets)
            }
        }
        let sections = Sections(
            reconciliation: reconciliation, details: details, statuses: statuses, messages: messages, devices: devices,
            changes: changes!, billing: billing!, assetCounts: assetCounts!,
            places: placeRanges(of: devices, pieces: threads > 1 ? threads * 4 : 1))
        let count = sections.count
        var page = HTMLBuffer(capacity: 1 << 16)
        guard threads > 1 else {
            for piece in 0..<count { sections.write(piece, into: &page) }
            return page.bytes
        }
        let pieces = ResultSlots<HTMLBuffer>(count: count)
        let schedule = sections.schedule
        Parallel.perform(count, threads: threads) { task in
            let piece = schedule[task]
            var text = HTMLBuffer()
            sections.write(piece, into: &text)
            pieces[piece] = text
        }
        let texts = (0..<count).map { pieces[$0]! }
        page = HTMLBuffer(capacity: texts.reduce(0) { $0 + $1.count })
        for text in texts { page.append(text) }
        return page.bytes
    }

    /// Ranges of `devices` (listed by building and room) that hold about the same number of findings each, at
    /// most `pieces` of them, together all the devices: the building-and-room view is written range by range.
    static func placeRanges(of devices: [ReportDevice], pieces: Int) -> [Range<Int>] {
        let total = devices.reduce(0) { $0 + $1.findings.count }
        guard pieces > 1, devices.count > 1 else { return [0..<devices.count] }
        var ranges: [Range<Int>] = []
        var start = 0
        var findings = 0
        for position in devices.indices {
            findings += devices[position].findings.count
            if findings * pieces >= total * (ranges.count + 1), position + 1 < devices.count {
                ranges.append(start..<(position + 1))
                start = position + 1
            }
        }
        ranges.append(start..<devices.count)
        return ranges
    }

    /// The page's sections and what they are written from; `write` writes one piece of the page, and the pieces
    /// in order are the page.
    private struct Sections {
        let reconciliation: Reconciliation
        let details: RunDetails
        let statuses: [FindingStatus]
        /// Each finding's sentence.
        let messages: [String]
        let devices: [ReportDevice]
        let changes: ChangeGroups
        let billing: BillingTotals
        let assetCounts: AssetCounts
        /// The ranges of `devices` the building-and-room view is written in.
        let places: [Range<Int>]

        /// The pieces: the top, the map, the building-and-room view's ranges, the code view, the rest.
        var count: Int { places.count + 4 }

        /// The pieces in the order threads take them: the long ones first (the map scans every asset), the
        /// building-and-room view's ranges, of about equal length, last, so that the threads finish together.
        var schedule: [Int] { [1, count - 1, 0, count - 2] + Array(2..<(count - 2)) }

        func write(_ piece: Int, into page: inout HTMLBuffer) {
            switch piece {
            case 0: top(into: &page)
            case 1: map(reconciliation, devices: devices, statuses: statuses, into: &page)
            case count - 2: byCode(reconciliation, devices: devices, statuses: statuses, into: &page)
            case count - 1: rest(into: &page)
            default:
                let range = places[piece - 2]
                if range.lowerBound == 0 {
                    page.append("<h2 id=\"by-place\">Findings by building and room</h2>\n")
                    if devices.isEmpty { page.append("<p>No findings.</p>\n") }
                }
                byPlace(
                    reconciliation, devices: devices, range, statuses: statuses, messages: messages,
                    buildings: reconciliation.buildings, into: &page)
            }
        }

        /// The head, the header, the counts, the buildings' table, and the map's heading.
        private func top(into page: inout HTMLBuffer) {
            let name = escape(details.displayName)
            let facts = HTMLReport.facts(
                reconciliation, details: details, statuses: statuses, changes: changes, assets: assetCounts)
            page.append(
                """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Stocktake report: \(name), \(reconciliation.asOf)</title>
                <style>
                \(ReportStyle.css)
                </style></head><body>
                <header><h1>Stocktake report: \(name)</h1>
                \(facts)</header>
                <nav aria-label="Sections"><ul><li><a href="#counts">Counts</a></li><li><a href="#buildings">Buildings</a></li>
                <li><a href="#map">Map</a></li><li><a href="#by-place">By building and room</a></li>
                <li><a href="#by-code">By code</a></li><li><a href="#walk">Walk lists</a></li>
                <li><a href="#changes">Central sheet changes</a></li><li><a href="#glossary">Codes</a></li></ul></nav>

                """)
            page.append(tools(reconciliation, statuses: statuses))
            page.append(counts(reconciliation, statuses: statuses))
            page.append("<h2 id=\"buildings\">Buildings</h2>\n")
            BuildingSummary.html(
                BuildingSummary.rows(
                    billing: billing, devices: devices, discrepancies: reconciliation.discrepancies, statuses: statuses),
                names: reconciliation.buildings, showsBills: billing.hasCosts, into: &page)
            page.append("<h2 id=\"map\">Map</h2>\n")
        }

        /// The walk lists, the changes to the central sheet, the resolved findings, the files read, the glossary.
        private func rest(into page: inout HTMLBuffer) {
            page.append("<h2 id=\"walk\">Walk lists</h2>\n")
            let walkLists = WalkList.lists(of: devices, in: reconciliation, statuses: statuses)
            if walkLists.isEmpty { page.append("<p>No device needs looking for.</p>\n") }
            for list in walkLists {
                list.html(
                    buildingName: list.building.flatMap { reconciliation.buildings?.building(code: $0)?.name },
                    into: &page)
            }
            page.append("<h2 id=\"changes\">Changes to the central sheet</h2>\n")
            changes.html(into: &page)
            resolved(reconciliation, into: &page)
            page.append(filesRead(reconciliation))
            page.append(glossary())
            page.append("<script>\n\(ReportStyle.script)\n</script>\n</body></html>\n")
        }
    }

    // MARK: - The top

    /// The run's facts: when, what was reconciled, the findings and how they stand since the last run, the push.
    static func facts(
        _ reconciliation: Reconciliation, details: RunDetails, statuses: [FindingStatus], changes: ChangeGroups,
        assets: AssetCounts
    ) -> String {
        let new = statuses.count(where: { $0.state == .new })
        let open = statuses.count(where: { $0.state == .open })
        let acknowledged = statuses.count(where: { $0.state == .acknowledged })
        let resolved = reconciliation.ledger.resolved
        let fixed = resolved.count(where: { $0.state == .fixedByPush })
        var text = "<dl class=\"facts\">\n"
        text += "<dt>Run</dt><dd>\(escape(details.timeZone.format(details.started))) "
        text += "(inventory as of \(reconciliation.asOf))</dd>\n"
        text += "<dt>Assets reconciled</dt><dd>\(grouped(reconciliation.assets.count)): "
        text += "\(grouped(assets[.ok])) ok, \(grouped(assets[.missing])) missing, "
        text += "\(grouped(assets[.unrecorded])) unrecorded, \(grouped(assets[.typo])) typo, "
        text += "\(grouped(assets[.conflict])) in conflict</dd>\n"
        text += "<dt>Findings</dt><dd>\(grouped(reconciliation.discrepancies.count)), as in discrepancies.csv: "
        text += "\(counted(reconciliation.count(Severity.error), "error")), "
        text += "\(counted(reconciliation.count(.warning), "warning")), \(grouped(reconciliation.count(.info))) info"
        text += acknowledged > 0 ? ", \(grouped(acknowledged)) acknowledged</dd>\n" : "</dd>\n"
        text += "<dt>Since the last run</dt><dd>\(grouped(new)) new, \(grouped(open)) still open, "
        text += "\(grouped(resolved.count)) resolved" + (fixed > 0 ? " (\(grouped(fixed)) fixed by the push)" : "")
        text += ", \(grouped(acknowledged)) acknowledged</dd>\n"
        text += "<dt>Central sheet</dt><dd>\(pushResult(details, changes: changes))</dd>\n</dl>"
        return text
    }

    /// What the write-back did to the central sheet, from its changes: pushed, planned and not pushed, or nothing.
    static func pushResult(_ details: RunDetails, changes: ChangeGroups) -> String {
        var text: String
        if details.changes.isEmpty {
            text = "no change was planned; nothing was pushed."
        } else {
            let what =
                "\(counted(changes.changedCells, "cell")) in \(counted(changes.changedRows, "row")) changed, "
                + "\(counted(changes.addedRows, "row")) added"
            text =
                details.pushedCentral
                ? "pushed: \(what) (see changes.csv)."
                : "planned, not pushed: \(what) (see changes.csv)."
        }
        if !details.pushes.isEmpty {
            text += " " + details.pushes.map { escape($0) }.joined(separator: "; ") + "."
        }
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// The search box and filters, hidden until the script shows them.
    static func tools(_ reconciliation: Reconciliation, statuses: [FindingStatus]) -> String {
        let codes = Set(reconciliation.discrepancies.map(\.code))
        var text = "<div id=\"tools\" hidden><label>Search <input id=\"q\" type=\"search\"></label>"
        text += "<label>Code <select id=\"qc\"><option value=\"\">all</option>"
        for code in DiscrepancyCode.allCases where codes.contains(code) {
            text += "<option>\(code.rawValue)</option>"
        }
        text += "</select></label><label>State <select id=\"qs\"><option value=\"\">all</option>"
        text += "<option>new</option><option>open</option><option>acknowledged</option></select></label></div>\n"
        return text
    }

    /// The findings per code and state; its totals are the header's.
    static func counts(_ reconciliation: Reconciliation, statuses: [FindingStatus]) -> String {
        // Four counters per code, by the code's position in `allCases`.
        let codes = DiscrepancyCode.allCases
        var counts = Array(repeating: 0, count: codes.count * 4)
        let states: [FindingState] = [.new, .open, .acknowledged]
        for index in reconciliation.discrepancies.indices {
            let code = codes.firstIndex(of: reconciliation.discrepancies[index].code)!
            counts[code * 4] += 1
            if let state = states.firstIndex(of: statuses[index].state) { counts[code * 4 + state + 1] += 1 }
        }
        var text = "<h2 id=\"counts\">Counts</h2>\n<table class=\"sortable\"><thead><tr><th scope=\"col\">Code</th>"
        text += "<th scope=\"col\">Severity</th><th scope=\"col\">Findings</th><th scope=\"col\">New</th>"
        text += "<th scope=\"col\">Open</th><th scope=\"col\">Acknowledged</th></tr></thead><tbody>\n"
        var totals = [0, 0, 0, 0]
        for (position, code) in codes.enumerated() where counts[position * 4] > 0 {
            let row = counts[(position * 4)..<(position * 4 + 4)].map { $0 }
            for column in totals.indices { totals[column] += row[column] }
            text += "<tr><th scope=\"row\"><a href=\"#\(code.rawValue)\">\(code.rawValue)</a></th>"
            text += "<td data-l=\"Severity\" class=\"\(code.severity.rawValue)\">\(code.severity.rawValue)</td>"
            for (column, label) in ["Findings", "New", "Open", "Acknowledged"].enumerated() {
                text += "<td data-l=\"\(label)\" class=\"number\">\(grouped(row[column]))</td>"
            }
            text += "</tr>\n"
        }
        text += "</tbody><tfoot><tr><th scope=\"row\">Total</th><td></td>"
        for (column, label) in ["Findings", "New", "Open", "Acknowledged"].enumerated() {
            text += "<td data-l=\"\(label)\" class=\"number\">\(grouped(totals[column]))</td>"
        }
        text += "</tr></tfoot></table>\n"
        return text
    }

    // MARK: - The findings

    /// One finding in a device's entry: code, id, state, rows, and its sentence (what to check and do).
    static func finding(
        _ index: Int, of reconciliation: Reconciliation, status: FindingStatus, message: String,
        into page: inout HTMLBuffer
    ) {
        let discrepancy = reconciliation.discrepancies[index]
        let code = discrepancy.code
        let id = status.id.description
        // Short markup: 50,000 findings must stay under 20 MB. The script reads the code from the `<b>`.
        page.append("<li id=\"f-")
        page.append(id)
        page.append("\" data-s=\"")
        page.append(status.state.rawValue)
        page.append("\"><b>")
        page.append(code.rawValue)
        page.append("</b> ")
        page.append(id)
        page.append(", ")
        page.append(status.state.rawValue)
        // The rows, unless the sentence names every one of them already.
        if !mentions(message, every: discrepancy.sources) {
            page.append(" · ")
            page.append(escaped: SourceLocation.listed(discrepancy.sources))
        }
        // An `<li>` closes itself at the next one.
        page.append("<br>")
        page.append(escaped: message)
        if !status.note.isEmpty {
            page.append(" ")
            page.append(escaped: status.note)
        }
        page.append("\n")
    }

    /// Whether `message` names every one of `sources` ("a.csv row 3"), as `message.contains($0.spoken)` says for
    /// each; where both are printable ASCII that is a plain search of bytes, without UTF-16 copies of both.
    static func mentions(_ message: String, every sources: [SourceLocation]) -> Bool {
        guard !sources.isEmpty else { return true }
        var text = message
        let isPlain = text.withUTF8 { isPrintableASCII($0) }
        // Each phrase is written into one scratch buffer, as `spoken` would write it, not made a string.
        var phrase = HTMLBuffer()
        for source in sources {
            phrase.removeAll()
            phrase.append(source.file)
            phrase.append(" row ")
            phrase.append(source.row)
            let found =
                phrase.withUnsafeBufferPointer { phrase -> Bool? in
                    guard isPlain, isPrintableASCII(phrase) else { return nil }
                    return text.withUTF8 { contains(phrase, in: $0) }
                } ?? message.contains(source.spoken)
            if !found { return false }
        }
        return true
    }

    private static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte < 0x20 || byte > 0x7E { return false }
        return true
    }

    /// Whether `text` holds the bytes of `phrase`, which is not empty.
    private static func contains(_ phrase: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard phrase.count <= text.count else { return false }
        let first = phrase[0]
        for start in 0...(text.count - phrase.count) where text[start] == first {
            var offset = 1
            while offset < phrase.count, text[start + offset] == phrase[offset] { offset += 1 }
            if offset == phrase.count { return true }
        }
        return false
    }

    /// The building-and-room view's devices in `range`: each building's devices, room by room, each device once with
    /// all its findings. A building's heading (with its totals) comes with its first device, its end with its last,
    /// so that ranges written one after the other give the whole view.
    static func byPlace(
        _ reconciliation: Reconciliation, devices: [ReportDevice], _ range: Range<Int>, statuses: [FindingStatus],
        messages: [String], buildings: BuildingTable?, into page: inout HTMLBuffer
    ) {
        for position in range {
            let device = devices[position]
            let building = device.building
            let startsBuilding = position == 0 || devices[position - 1].building != building
            if startsBuilding {
                var end = position
                var findingCount = 0
                while end < devices.count, devices[end].building == building {
                    findingCount += devices[end].findings.count
                    end += 1
                }
                let name = building.flatMap { buildings?.building(code: $0)?.name }
                let title = building.map { code in name.map { "\(code), \($0)" } ?? code } ?? "Building not known"
                page.append(
                    findingCount > foldedAfter ? "<details class=\"place\">" : "<details open class=\"place\">")
                page.append("<summary><h3>")
                page.append(escaped: title)
                page.append("</h3> ")
                page.append(counted: end - position, "device")
                page.append(", ")
                page.append(counted: findingCount, "finding")
                page.append("</summary>\n")
            }
            if startsBuilding || devices[position - 1].room != device.room {
                page.append("<h4>Room ")
                page.append(escaped: device.room ?? "not known")
                page.append("</h4>\n")
            }
            page.append("<div class=\"d\"><h5>")
            page.append(escaped: device.label)
            if let model = device.model {
                page.append(" <small>")
                page.append(escaped: model)
                page.append("</small>")
            }
            page.append("</h5><ul>\n")
            for index in device.findings {
                finding(index, of: reconciliation, status: statuses[index], message: messages[index], into: &page)
            }
            page.append("</ul></div>\n")
            if position + 1 == devices.count || devices[position + 1].building != building {
                page.append("</details>\n")
            }
        }
    }

    /// The code view: per code, a table of its findings, each linking to its device's entry; long lists fold.
    static func byCode(
        _ reconciliation: Reconciliation, devices: [ReportDevice], statuses: [FindingStatus],
        into page: inout HTMLBuffer
    ) {
        page.append("<h2 id=\"by-code\">Findings by code</h2>\n")
        var place = Array(repeating: 0, count: reconciliation.discrepancies.count)
        for (position, device) in devices.enumerated() {
            for index in device.findings { place[index] = position }
        }
        // The findings by code (a stable counting sort): where each code's findings start in `byCode`.
        let codes = DiscrepancyCode.allCases
        var starts = Array(repeating: 0, count: codes.count + 1)
        var positions = Array(repeating: 0, count: reconciliation.discrepancies.count)
        for index in reconciliation.discrepancies.indices {
            positions[index] = codes.firstIndex(of: reconciliation.discrepancies[index].code)!
            starts[positions[index] + 1] += 1
        }
        for position in codes.indices { starts[position + 1] += starts[position] }
        var next = starts
        var byCode = Array(repeating: 0, count: reconciliation.discrepancies.count)
        for index in positions.indices {
            byCode[next[positions[index]]] = index
            next[positions[index]] += 1
        }
        for (position, code) in codes.enumerated() where starts[position + 1] > starts[position] {
            let indices = byCode[starts[position]..<starts[position + 1]]
            page.append(indices.count > foldedAfter ? "<details data-c=\"" : "<details open data-c=\"")
            page.append(code.rawValue)
            page.append("\"><summary><h3 id=\"")
            page.append(code.rawValue)
            page.append("\" class=\"")
            page.append(code.severity.rawValue)
            page.append("\">")
            page.append(code.rawValue)
            page.append("</h3> ")
            page.append(counted: indices.count, "finding")
            page.append(": ")
            page.append(escaped: code.meaning)
            page.append("</summary>\n")
            page.append(
                "<table class=\"sortable codes\"><thead><tr><th scope=\"col\">Id</th><th scope=\"col\">State</th>")
            page.append(
                "<th scope=\"col\">Device</th><th scope=\"col\">Building</th><th scope=\"col\">Room</th></tr></thead>")
            page.append("<tbody>\n")
            // Cells close themselves (HTML leaves their end tags optional): 50,000 rows are 1 MB shorter.
            for index in indices.prefix(rowsPerCode) {
                let device = devices[place[index]]
                let status = statuses[index]
                let id = status.id.description
                page.append("<tr data-s=\"")
                page.append(status.state.rawValue)
                page.append("\"><td><a href=\"#f-")
                page.append(id)
                page.append("\">")
                page.append(id)
                page.append("</a><td>")
                page.append(status.state.rawValue)
                page.append("<td>")
                page.append(escaped: device.label)
                page.append("<td>")
                page.append(escaped: device.building ?? "")
                page.append("<td>")
                page.append(escaped: device.room ?? "")
                page.append("</tr>\n")
            }
            page.append("</tbody></table>")
            if indices.count > rowsPerCode {
                let other = indices.count - rowsPerCode
                page.append("<p>The other ")
                page.append(counted: other, "\(code.rawValue) finding")
                page.append(other == 1 ? " is listed " : " are listed ")
                page.append("by building and room above, and in discrepancies.csv.</p>")
            }
            page.append("</details>\n")
        }
    }

    // MARK: - The rest

    /// The map section: the SVG, or a sentence when no asset can be placed. Devices whose findings are all
    /// acknowledged are not ringed.
    static func map(
        _ reconciliation: Reconciliation, devices: [ReportDevice], statuses: [FindingStatus],
        into page: inout HTMLBuffer
    ) {
        var flagged = Set<UInt64>()
        for device in devices where device.findings.contains(where: { statuses[$0].state != .acknowledged }) {
            if let tag = device.vtTag { flagged.insert(tag.number) }
        }
        let map = AssetMap(assets: reconciliation.assets, flagged: flagged, buildings: reconciliation.buildings)
        guard !map.points.isEmpty else {
            page.append("<p>No asset has a GPS position, and no building of theirs has coordinates.</p>\n")
            return
        }
        page.append("<figure>")
        _ = map.svg(into: &page)
        page.append("\n<figcaption>Assets by building")
        if map.isAggregated { page.append(", one circle per building (too many assets to draw each)") }
        page.append("; assets with findings are ringed in red. An asset without a position is drawn at its building's ")
        page.append("coordinates")
        if map.unplaced > 0 {
            page.append("; ")
            page.append(counted: map.unplaced, "asset")
            page.append(" without either are not drawn.")
        } else {
            page.append(".")
        }
        page.append("</figcaption></figure>\n")
    }

    /// The findings of the last run that are gone.
    static func resolved(_ reconciliation: Reconciliation, into page: inout HTMLBuffer) {
        let entries = reconciliation.ledger.resolved
        guard !entries.isEmpty else { return }
        page.append("<h2 id=\"resolved\">Resolved since the last run</h2>\n")
        page.append(entries.count > foldedAfter ? "<details>" : "<details open>")
        page.append("<summary>")
        page.append(counted: entries.count, "finding")
        page.append("</summary>\n")
        page.append(
            "<table><thead><tr><th scope=\"col\">Id</th><th scope=\"col\">Code</th><th scope=\"col\">VT tag</th>")
        page.append("<th scope=\"col\">First seen</th><th scope=\"col\">How</th></tr></thead><tbody>\n")
        for entry in entries {
            page.append("<tr><td data-l=\"Id\">\(entry.id)</td><td data-l=\"Code\">")
            page.append(entry.code.rawValue)
            page.append("</td><td data-l=\"VT tag\">")
            page.append(escaped: entry.vtTag)
            page.append("</td><td data-l=\"First seen\">\(entry.firstSeen)</td><td data-l=\"How\">")
            page.append(entry.state.rawValue)
            page.append("</td></tr>\n")
        }
        page.append("</tbody></table></details>\n")
    }

    /// The files read, their unmapped columns, and the notes of the reading and the ledger.
    static func filesRead(_ reconciliation: Reconciliation) -> String {
        var text = "<h2 id=\"files\">Files read</h2>\n<table><thead><tr><th scope=\"col\">File</th>"
        text += "<th scope=\"col\">Role</th><th scope=\"col\">Rows</th><th scope=\"col\">Unmapped columns</th></tr>"
        text += "</thead><tbody>\n"
        for input in reconciliation.inputs {
            text += "<tr><td data-l=\"File\">\(escape(input.file.displayName))</td>"
            text += "<td data-l=\"Role\">\(input.file.role.rawValue)</td>"
            text += "<td data-l=\"Rows\" class=\"number\">\(grouped(input.rows))</td>"
            text += "<td data-l=\"Unmapped columns\">\(escape(input.unmapped.joined(separator: ", ")))</td></tr>\n"
        }
        text += "</tbody></table>\n"
        let notes =
            reconciliation.inputs.flatMap { input in input.notes.map { "\(input.file.displayName): \($0)" } }
            + reconciliation.ledger.notes
        if !notes.isEmpty {
            text +=
                "<h2 id=\"notes\">Notes</h2>\n<ul>\n" + notes.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        return text
    }

    /// Every code with its severity and meaning, the sentences of the README's list.
    static func glossary() -> String {
        var text = "<h2 id=\"glossary\">Codes</h2>\n<dl class=\"glossary\">\n"
        for code in DiscrepancyCode.allCases {
            text += "<dt>\(code.rawValue) <span class=\"\(code.severity.rawValue)\">(\(code.severity.rawValue))</span>"
            text += "</dt><dd>\(escape(code.meaning))</dd>\n"
        }
        return text + "</dl>\n"
    }

    /// Text made safe to place in HTML, in an element or a quoted attribute.
    public static func escape(_ text: String) -> String {
        // One set of replacements for the whole report: the page's buffer escapes by the same rule. Only the page's
        // few headings and notes come here; its thousands of entries are escaped into the buffer directly.
        var result = HTMLBuffer(capacity: text.utf8.count + 16)
        result.append(escaped: text)
        return result.text
    }
}
