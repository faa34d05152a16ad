/// The changes the write-back planned to the central sheet (`changes.csv`), grouped by the sheet's column, for the
/// report: how many cells of each column change and why, and the first few of them.
struct ChangeGroups: Sendable {
    /// The changes of one column.
    struct Group: Sendable {
        var column: String
        /// How many cells change, for each reason, in `ChangeReason` order.
        var reasons: [(reason: ChangeReason, count: Int)]
        /// The first `shown` changes, in sheet order.
        var changes: [SheetChange]
        var count: Int

    }

    /// Changes listed per column; the rest are counted and left to `changes.csv`.
    static let shownPerColumn = 50

    /// The groups, in the order of the sheet's columns.
    var groups: [Group]
    /// Cells of existing rows that change, the rows they are in, and the rows appended.
    var changedCells: Int
    var changedRows: Int
    var addedRows: Int

    init(_ changes: SheetChanges, shown: Int = ChangeGroups.shownPerColumn) {
        var byColumn: [Int: Int] = [:]
        var groups: [Group] = []
        var counts: [[Int]] = []
        var rows = Set<UInt32>()
        for index in changes.indices {
            let entry = changes.entries[index]
            if entry.reason != .added { rows.insert(entry.row) }
            let column = Int(entry.column)
            let position: Int
            if let known = byColumn[column] {
                position = known
            } else {
                position = groups.count
                byColumn[column] = position
                groups.append(Group(column: changes.labels[column], reasons: [], changes: [], count: 0))
                counts.append(Array(repeating: 0, count: ChangeReason.allCases.count))
            }
            groups[position].count += 1
            counts[position][ChangeReason.allCases.firstIndex(of: entry.reason)!] += 1
            if groups[position].changes.count < shown { groups[position].changes.append(changes[index]) }
        }
        for position in groups.indices {
            groups[position].reasons = ChangeReason.allCases.enumerated().compactMap { offset, reason in
                counts[position][offset] > 0 ? (reason, counts[position][offset]) : nil
            }
        }
        let order = byColumn.sorted { $0.key < $1.key }.map(\.value)
        self.groups = order.map { groups[$0] }
        changedCells = changes.changedCellCount
        changedRows = rows.count
        addedRows = changes.addedRowCount
    }

    /// The section's HTML: one folded table per column.
    func html() -> String {
        guard !groups.isEmpty else {
            return "<p>The write-back planned no change to the central sheet.</p>\n"
        }
        var page = ""
        for group in groups {
            let reasons = group.reasons.map { "\(grouped($0.count)) \($0.reason.rawValue)" }.joined(separator: ", ")
            page += "<details class=\"changes\"><summary><strong>\(HTMLReport.escape(group.column))</strong>: "
            page += "\(counted(group.count, "cell")) (\(reasons))</summary>\n"
            page += "<table><thead><tr><th scope=\"col\">Row</th><th scope=\"col\">VT tag</th>"
            page += "<th scope=\"col\">Before</th><th scope=\"col\">After</th><th scope=\"col\">Why</th></tr></thead>"
            page += "<tbody>\n"
            for change in group.changes {
                page += "<tr><td data-l=\"Row\">\(change.row)</td>"
                page += "<td data-l=\"VT tag\">\(change.vtTag?.description ?? "")</td>"
                page += "<td data-l=\"Before\">\(HTMLReport.escape(change.before))</td>"
                page += "<td data-l=\"After\">\(HTMLReport.escape(change.after))</td>"
                page += "<td data-l=\"Why\">\(change.reason.rawValue)</td></tr>\n"
            }
            page += "</tbody></table>\n"
            if group.count > group.changes.count {
                let more = group.count - group.changes.count
                page += "<p>\(counted(more, "more change")) of this column \(more == 1 ? "is" : "are") listed in "
                page += "changes.csv.</p>\n"
            }
            page += "</details>\n"
        }
        return page
    }
}
