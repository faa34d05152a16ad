/// What a column of a generated source file holds; the header text is chosen per file.
enum SourceColumn: Sendable, Hashable {
    case tag
    case cns
    case serial
    case mac
    case model
    case description
    case building
    case room
    case mount
    case custodian
    /// Latitude and longitude in one cell, `lat,lon`.
    case gps
    /// Latitude alone, for files with separate coordinate columns.
    case latitude
    /// Longitude alone, for files with separate coordinate columns.
    case longitude
    case lastSeen
    case stockNumber
    /// Controller "AP Name": maps to no canonical field.
    case accessPointName
    /// Receiving "PO Number": maps to no canonical field.
    case purchaseOrder
    /// Custodian list "Department": maps to no canonical field.
    case department
    /// Billing "Amount": maps to no canonical field.
    case amount
    /// Property register "Acquired": maps to no canonical field.
    case acquired
    /// A trailing column with an empty header and empty cells.
    case trailingEmpty
}
