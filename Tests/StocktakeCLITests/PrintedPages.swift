/// The pages of a printed report, checked for the page breaks a reader trips over: a heading left alone at the
/// bottom of a page, a table's header at the bottom of a page with its rows on the next, and a page that begins
/// with a table header with no row under it.
///
/// A page is the text `pdftotext -layout` prints for it; its lines are compared with whitespace runs collapsed to one
/// space, and blank lines are left out. The headings and table headers are those of the page itself (the
/// rendering's `headings` and `tableHeaders`):
/// * a line is a heading when it is a heading's text, or the first or last part (two words or more) of a heading
///   that wrapped onto several lines;
/// * a line is a table header when it is the header's cells joined by spaces, or when its words are at least two
///   thirds of the header's words in their order (cells that wrapped inside narrow columns).
struct PrintedPages {
    /// One bad page break.
    enum Problem: Equatable, CustomStringConvertible {
        /// The page's last line is a heading; what it heads starts on the next page.
        case headingAtPageEnd(page: Int, line: String)
        /// The page's last line is a table header; the table's rows start on the next page.
        case tableHeaderAtPageEnd(page: Int, line: String)
        /// The page begins with a table header followed by no row (the page ends, or a heading or another table
        /// header follows).
        case emptyTableAtPageStart(page: Int, line: String)

        var description: String {
            switch self {
            case .headingAtPageEnd(let page, let line):
                "page \(page) ends with the heading \"\(line)\"; its content starts on page \(page + 1)"
            case .tableHeaderAtPageEnd(let page, let line):
                "page \(page) ends with the table header \"\(line)\"; its rows start on page \(page + 1)"
            case .emptyTableAtPageStart(let page, let line):
                "page \(page) begins with the table header \"\(line)\" and no row under it"
            }
        }
    }

    /// Each page's text.
    var pages: [String]
    /// The page's headings.
    var headings: [String]
    /// The page's table headers, one list of cells per table.
    var tableHeaders: [[String]]

    /// Every bad page break, page by page (pages count from 1).
    var problems: [Problem] {
        let headingTexts = Set(headings.map(Self.collapsed))
        let headerTexts = Set(tableHeaders.map { Self.collapsed($0.joined(separator: " ")) })
        var problems: [Problem] = []
        for (index, page) in pages.enumerated() {
            let number = index + 1
            let lines = page.split(whereSeparator: \.isNewline).map { Self.collapsed(String($0)) }.filter {
                !$0.isEmpty
            }
            guard let first = lines.first, let last = lines.last else { continue }
            let isHeading = { (line: String) in self.isHeading(line, headingTexts) }
            let isHeader = { (line: String) in self.isTableHeader(line, headerTexts) }
            if isHeader(first) {
                let next = lines.dropFirst().first
                if next == nil || isHeading(next!) || isHeader(next!) {
                    problems.append(.emptyTableAtPageStart(page: number, line: first))
                    continue
                }
            }
            guard number < pages.count else { continue }
            if isHeading(last) {
                problems.append(.headingAtPageEnd(page: number, line: last))
            } else if isHeader(last) {
                problems.append(.tableHeaderAtPageEnd(page: number, line: last))
            }
        }
        return problems
    }

    private func isHeading(_ line: String, _ texts: Set<String>) -> Bool {
        if texts.contains(line) { return true }
        guard line.split(separator: " ").count >= 2 else { return false }
        return texts.contains { $0.hasPrefix(line + " ") || $0.hasSuffix(" " + line) }
    }

    private func isTableHeader(_ line: String, _ texts: Set<String>) -> Bool {
        if texts.contains(line) { return true }
        let words = line.split(separator: " ")
        guard words.count >= 2 else { return false }
        return texts.contains { text in
            let headerWords = text.split(separator: " ")
            guard words.count * 3 >= headerWords.count * 2 else { return false }
            var remaining = headerWords[...]
            for word in words {
                guard let found = remaining.firstIndex(of: word) else { return false }
                remaining = remaining[(found + 1)...]
            }
            return true
        }
    }

    /// `text` with every run of whitespace made one space, and without leading or trailing whitespace.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
