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
        // Columns and reasons are looked up by index: a night's millions of changes hash nothing.
        var positionOfColumn = Array(repeating: -1, count: changes.labels.count)
        var groups: [Group] = []
        let reasons = ChangeReason.allCases
        var counts: [Int] = []
        // Changes come in sheet order, so a row's changes are together: its distinct rows are counted as they
        // change, unless the rows go back somewhere (a list built by hand), when a set counts them.
        var rows = 0
        var lastRow: UInt32?
        var isAscending = true
        let entries = changes.entries
        for index in entries.indices {
            let entry = entries[index]
            if entry.reason != .added, entry.row != lastRow {
                if let lastRow, entry.row < lastRow { isAscending = false }
                rows += 1
                lastRow = entry.row
            }
            let column = Int(entry.column)
            var position = positionOfColumn[column]
            if position < 0 {
                position = groups.count
                positionOfColumn[column] = position
                groups.append(Group(column: changes.labels[column], reasons: [], changes: [], count: 0))
                counts += Array(repeating: 0, count: reasons.count)
            }
            groups[position].count += 1
            counts[position * reasons.count + reasons.firstIndex(of: entry.reason)!] += 1
            if groups[position].changes.count < shown { groups[position].changes.append(changes[index]) }
        }
        if !isAscending {
            var distinct = Set<UInt32>()
            for index in entries.indices where entries[index].reason != .added { distinct.insert(entries[index].row) }
            rows = distinct.count
        }
        for position in groups.indices {
            groups[position].reasons = reasons.enumerated().compactMap { offset, reason in
                let count = counts[position * reasons.count + offset]
                return count > 0 ? (reason, count) : nil
            }
        }
        // In the order of the sheet's columns.
        self.groups = positionOfColumn.filter { $0 >= 0 }.map { groups[$0] }
        changedCells = changes.changedCellCount
        changedRows = rows
        addedRows = changes.addedRowCount
    }

    /// The section's HTML: one folded table per column.
    func html() -> String {
        var page = HTMLBuffer()
        html(into: &page)
        return page.text
    }

    /// Appends the section's HTML to `page`.
    func html(into page: inout HTMLBuffer) {
        guard !groups.isEmpty else {
            page.append("<p>The write-back planned no change to the central sheet.</p>\n")
            return
        }
        for group in groups {
            page.append("<details class=\"changes\"><summary><strong>")
            page.append(escaped: group.column)
            page.append("</strong>: ")
            page.append(counted: group.count, "cell")
            page.append(" (")
            for (offset, reason) in group.reasons.enumerated() {
                if offset > 0 { page.append(", ") }
                page.append(grouped: reason.count)
                page.append(" ")
                page.append(reason.reason.rawValue)
            }
            page.append(")</summary>\n<table><thead><tr><th scope=\"col\">Row</th><th scope=\"col\">VT tag</th>")
            page.append(
                "<th scope=\"col\">Before</th><th scope=\"col\">After</th><th scope=\"col\">Why</th></tr></thead>")
            page.append("<tbody>\n")
            for change in group.changes {
                page.append("<tr><td data-l=\"Row\">")
                page.append(change.row)
                page.append("</td><td data-l=\"VT tag\">")
                if let tag = change.vtTag { page.append(tag.description) }
                page.append("</td><td data-l=\"Before\">")
                page.append(escaped: change.before)
                page.append("</td><td data-l=\"After\">")
                page.append(escaped: change.after)
                page.append("</td><td data-l=\"Why\">")
                page.append(change.reason.rawValue)
                page.append("</td></tr>\n")
            }
            page.append("</tbody></table>\n")
            if group.count > group.changes.count {
                let more = group.count - group.changes.count
                page.append("<p>")
                page.append(counted: more, "more change")
                page.append(
                    more == 1
                        ? " of this column is listed in changes.csv.</p>\n"
                        : " of this column are listed in changes.csv.</p>\n")
            }
            page.append("</details>\n")
        }
    }
}
