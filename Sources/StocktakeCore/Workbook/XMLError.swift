/// What is wrong with the XML of one workbook part, as `XMLScanner` finds it.
///
/// The workbook layer wraps it in `WorkbookError`, which names the file and the part.
public enum XMLError: Error, Equatable, Sendable {
    /// The text ends inside a tag, a comment or a CDATA section, or before its elements are closed.
    case unexpectedEnd
    /// Bytes at `offset` are not well-formed markup (a `<` that starts no tag, an unquoted attribute ...).
    case malformedMarkup(offset: Int)
    /// An end tag at `offset` closes no open element.
    case unbalancedEndTag(offset: Int)
    /// A reference `&name;` at `offset` to an entity that is not one of XML's five predefined ones.
    case undefinedEntity(name: String, offset: Int)
    /// A `&` at `offset` that starts no well-formed entity or character reference.
    case malformedReference(offset: Int)
    /// A document type declaration (`<!DOCTYPE`, the only place entities can be declared) at `offset`; it is
    /// refused, never expanded or fetched.
    case documentTypeDeclaration(offset: Int)
    /// The part is not UTF-8 (it starts with a UTF-16 byte-order mark).
    case notUTF8

    /// What is wrong, as a phrase that completes "the part ... is damaged: ..."; offsets are counted in bytes.
    public var reason: String {
        switch self {
        case .unexpectedEnd: "it ends in the middle of its XML (the file may be truncated)"
        case .malformedMarkup(let offset): "its XML is not well-formed at byte \(offset)"
        case .unbalancedEndTag(let offset): "its XML closes an element that is not open at byte \(offset)"
        case .undefinedEntity(let name, let offset): "its XML refers to an undefined entity &\(name); at byte \(offset)"
        case .malformedReference(let offset): "its XML has a stray & at byte \(offset)"
        case .documentTypeDeclaration(let offset):
            "its XML declares a document type or entities at byte \(offset), which is never expanded or fetched"
        case .notUTF8: "its XML is not encoded as UTF-8"
        }
    }
}
