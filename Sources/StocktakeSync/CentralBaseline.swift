import StocktakeCore

/// The central sheet as the last good run pulled it: how many data rows it had, and when.
///
/// A night whose central sheet has far fewer rows (a sheet cut off, emptied or replaced by mistake) is refused
/// before anything is reconciled or pushed, because the cleaned table made from it would re-create every lost row
/// as unrecorded and could be pushed over the company's record.
public struct CentralBaseline: Sendable, Hashable, Codable {
    /// Data rows of the sheet (the header and blank lines not counted).
    public var rows: Int
    /// The run date of the run that pulled it.
    public var date: InventoryDate
    /// The id of that run, for people tracing it.
    public var runID: String

    public init(rows: Int, date: InventoryDate, runID: String) {
        self.rows = rows
        self.date = date
        self.runID = runID
    }

    private enum CodingKeys: String, CodingKey {
        case rows, date, runID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rows = try container.decode(Int.self, forKey: .rows)
        let text = try container.decode(String.self, forKey: .date)
        guard let date = InventoryDate.parseISO(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .date, in: container, debugDescription: "not a date as YYYY-MM-DD")
        }
        self.date = date
        runID = try container.decode(String.self, forKey: .runID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encode(date.description, forKey: .date)
        try container.encode(runID, forKey: .runID)
    }
}
