import Foundation

/// Which header names map to which canonical fields: the built-in synonyms plus an account's own additions.
///
/// Headers are compared by their key: lower-cased, with every character that is not a letter or digit dropped,
/// so `"CNS #"`, `"cns"` and `"C.N.S."` are the same header.
public struct ColumnMapping: Sendable {
    private var targets: [String: ColumnTarget]

    /// The built-in synonyms of DOMAIN.md, with no account additions.
    public static let builtIn = ColumnMapping(targets: ColumnMapping.synonyms())

    /// The mapping with `additions` (header name → target) taking precedence over the built-in synonyms.
    public func adding(_ additions: [String: ColumnTarget]) -> ColumnMapping {
        var copy = self
        for (header, target) in additions {
            copy.targets[Self.key(header)] = target
        }
        return copy
    }

    /// The target of a header, or `nil` when the header is unmapped.
    public func target(forHeader header: String) -> ColumnTarget? {
        targets[Self.key(header)]
    }

    /// The comparison key of a header: lower-case letters and digits only.
    ///
    /// Nearly every header is ASCII, and its key is made from its bytes: the Unicode path below costs thousands of
    /// instructions a header, and each process keys the built-in synonyms and every file's header.
    public static func key(_ header: String) -> String {
        var header = header
        if let key = header.withUTF8({ bytes in asciiKey(bytes) }) { return key }
        return unicodeKey(header)
    }

    /// The key of an all-ASCII header, made from its bytes; `nil` when a byte is not ASCII.
    static func asciiKey(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var key: [UInt8] = []
        key.reserveCapacity(bytes.count)
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            if CellText.isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) {
                key.append(byte)
            } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                key.append(CellText.lowerCased(byte))
            }
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// The key of any header: its lower-cased scalars that are alphabetic or numeric.
    static func unicodeKey(_ header: String) -> String {
        String(
            String.UnicodeScalarView(
                header.lowercased().unicodeScalars.filter {
                    $0.properties.isAlphabetic || $0.properties.numericType != nil
                }))
    }

    private static func synonyms() -> [String: ColumnTarget] {
        let table: [(ColumnTarget, [String])] = [
            (
                .field(.vtTag),
                [
                    "VT Tag", "VT ID", "VT Number", "P-Tag", "PTag", "Property Tag", "Inventory Number", "Inventory #",
                    "Inventory No", "Asset ID", "Asset Tag", "Tag", "Tag No", "Tag Number",
                ]
            ),
            (.field(.cnsNumber), ["CNS", "CNS Number", "CNS #", "CNS No", "C Number", "C #"]),
            (.field(.serialNumber), ["Serial", "Serial Number", "Serial #", "Serial No", "S/N", "SN"]),
            (
                .field(.macAddress),
                ["MAC", "MAC Address", "MAC Addr", "Wired MAC", "Wired MAC Address", "Ethernet MAC"]
            ),
            (.field(.model), ["Model", "Model Number", "Model #", "Part Number", "AP Type"]),
            (.field(.description), ["Description", "Descr", "Desc", "Item Description"]),
            (
                .field(.building),
                ["Building", "Bldg", "Bldg Code", "Building Abbreviation", "Building Abbrev", "Building Name"]
            ),
            (.field(.room), ["Room", "Room Number", "Room #", "Rm"]),
            (.field(.mount), ["Mount", "Mounting", "Mount Type"]),
            (.field(.custodian), ["Custodian", "Custodian ID", "Custodian PID", "Assigned To", "PID"]),
            (.field(.latitude), ["Latitude", "Lat"]),
            (.field(.longitude), ["Longitude", "Lon", "Long", "Lng"]),
            (.position, ["GPS", "GPS Location", "Coordinates"]),
            (
                .field(.lastSeen),
                ["Last Seen", "Scanned At", "Scan Date", "Date", "Last Inventory Date", "Last Inv Date", "Received"]
            ),
            (.field(.stockNumber), ["Stock Number", "Stock #", "Stock No"]),
            (.field(.cost), ["Unit Cost", "Cost", "Amount", "Price", "Unit Price"]),
        ]
        var targets: [String: ColumnTarget] = [:]
        for (target, names) in table {
            for name in names { targets[key(name)] = target }
        }
        // The canonical column names themselves, so a cleaned.csv reads back as it was written.
        for field in CanonicalField.allCases { targets[key(field.rawValue)] = .field(field) }
        return targets
    }
}
