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
        // Columns and reasons are counted by index: a night's millions of changes hash nothing. The first `shown`
        // changes of each column are kept by position and made into `SheetChange` values at the end.
        let reasons = ChangeReason.allCases
        var counts = Array(repeating: 0, count: changes.labels.count * reasons.count)
        var cellCounts = Array(repeating: 0, count: changes.labels.count)
        // The positions of the changes shown, all columns together, in sheet order.
        var kept: [Int] = []
        // Changes come in sheet order, so a row's changes are together: its distinct rows are counted as they
        // change, unless the rows go back somewhere (a list built by hand), when a set counts them.
        var rows = 0
        var lastRow: UInt32?
        var isAscending = true
        var changedCells = 0
        var addedRows = 0
        var lastAddedRow: UInt32?
        // The changes are kept in parts (one per core that planned them); `index` counts across the parts.
        var partStart = 0
        for part in changes.parts {
            part.entries.withUnsafeBufferPointer { entries in
                for offset in entries.indices {
                    let entry = entries[offset]
                    let index = partStart + offset
                    if entry.reason != .added {
                        changedCells += 1
                        if entry.row != lastRow {
                            if let lastRow, entry.row < lastRow { isAscending = false }
                            rows += 1
                            lastRow = entry.row
                        }
                    } else if entry.row != lastAddedRow {
                        // As `SheetChanges.addedRowCount` counts them.
                        addedRows += 1
                        lastAddedRow = entry.row
                    }
                    let column = Int(entry.column)
                    counts[column * reasons.count + Self.position(of: entry.reason)] += 1
                    if cellCounts[column] < shown { kept.append(index) }
                    cellCounts[column] += 1
                }
            }
            partStart += part.entries.count
        }
        if !isAscending {
            var distinct = Set<UInt32>()
            for entry in changes.entries where entry.reason != .added { distinct.insert(entry.row) }
            rows = distinct.count
        }
        // In the order of the sheet's columns.
        var groups: [Group] = []
        for column in cellCounts.indices where cellCounts[column] > 0 {
            var group = Group(column: changes.labels[column], reasons: [], changes: [], count: cellCounts[column])
            for (offset, reason) in reasons.enumerated() where counts[column * reasons.count + offset] > 0 {
                group.reasons.append((reason, counts[column * reasons.count + offset]))
            }
            for index in kept where Int(changes.entries[index].column) == column {
                group.changes.append(changes[index])
            }
            groups.append(group)
        }
        self.groups = groups
        self.changedCells = changedCells
        changedRows = rows
        self.addedRows = addedRows
    }

    /// The position of `reason` in `ChangeReason.allCases`, which lists the cases in the order they are declared.
    static func position(of reason: ChangeReason) -> Int {
        switch reason {
        case .normalized: 0
        case .filled: 1
        case .overwritten: 2
        case .added: 3
        }
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
