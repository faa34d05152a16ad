/// The outcome of normalizing one spreadsheet cell into a canonical value.
///
/// Blank cells and placeholders such as `N/A` are `.empty`; a cell that holds something
/// that cannot be turned into the canonical form is `.invalid`, with a reason the clerk
/// can read (a clause such as "has 11 hex digits; a MAC address has 12").
public enum Normalized<Value>: Sendable where Value: Sendable {
    /// The cell is blank or holds a placeholder; it says nothing about the field.
    case empty
    /// The cell holds a valid value, in canonical form.
    case value(Value)
    /// The cell holds something that is not a valid value; the reason says why.
    case invalid(reason: String)

    /// The canonical value, or `nil` when the cell was empty or invalid.
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }
}

extension Normalized: Equatable where Value: Equatable {}
