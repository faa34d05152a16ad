/// How a free-text field is cleaned; see `FreeText.normalize(_:style:)`.
public enum TextStyle: Sendable {
    /// Blanks removed at both ends only (description, custodian, stock number).
    case trimmed
    /// Trimmed, ASCII letters upper-cased (model).
    case upperCased
    /// Trimmed, ASCII letters upper-cased, each run of spaces or tabs inside made one space (room).
    case upperCasedCollapsingSpaces
    /// Trimmed, ASCII letters lower-cased (mount).
    case lowerCased
}
