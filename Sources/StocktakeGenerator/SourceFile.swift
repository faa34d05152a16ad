/// The thirteen source files of a generated account and how each one is laid out.
enum SourceFile: Sendable, Hashable, Comparable {
    case central
    case survey(zone: Int)
    case controller
    case receiving
    case propertyTags
    case cnsRegister
    case custodians
    case billing
    case legacy

    /// Every source file, in the order sources are listed (central, sightings, registers).
    static let all: [SourceFile] =
        [.central] + (1...BuildingCatalog.zoneCount).map { .survey(zone: $0) } + [
            .controller, .receiving, .propertyTags, .cnsRegister, .custodians, .billing, .legacy,
        ]

    /// The file's name.
    var fileName: String {
        switch self {
        case .central: return "central.csv"
        case .survey(let zone): return "survey_zone\(zone).csv"
        case .controller: return "controller_aps.csv"
        case .receiving: return "warehouse_receiving.tsv"
        case .propertyTags: return "property_tags.csv"
        case .cnsRegister: return "cns_register.csv"
        case .custodians: return "custodians.csv"
        case .billing: return "billing.csv"
        case .legacy: return "legacy_2014.csv"
        }
    }

    /// The file's path relative to the account folder.
    var relativePath: String {
        switch self {
        case .central: return fileName
        case .survey, .controller, .receiving: return "sightings/" + fileName
        default: return "registers/" + fileName
        }
    }

    /// The header cells and what each column holds.
    var columns: [(header: String, column: SourceColumn)] {
        switch self {
        case .central:
            return [
                ("VT Tag", .tag), ("CNS #", .cns), ("Serial Number", .serial), ("MAC Address", .mac), ("Model", .model),
                ("Description", .description), ("Building", .building), ("Room", .room), ("Mount", .mount),
                ("Custodian", .custodian), ("Last Inventory Date", .lastSeen), ("Stock Number", .stockNumber),
            ]
        case .survey(zone: 4):
            // Another installer's tablet app names the same columns differently.
            return [
                ("PTag", .tag), ("Serial Number", .serial), ("MAC Address", .mac), ("Building", .building),
                ("Room #", .room), ("Mounting", .mount), ("Scan Date", .lastSeen), ("Coordinates", .gps),
            ]
        case .survey(zone: 6):
            // This installer records latitude and longitude in separate columns.
            return [
                ("Tag Number", .tag), ("S/N", .serial), ("Ethernet MAC", .mac), ("Building Name", .building),
                ("Rm", .room), ("Mount Type", .mount), ("Date", .lastSeen), ("Lat", .latitude), ("Lng", .longitude),
            ]
        case .survey:
            return [
                ("P-Tag", .tag), ("Serial", .serial), ("MAC", .mac), ("Bldg", .building), ("Room", .room),
                ("Mount", .mount), ("Scanned At", .lastSeen), ("GPS", .gps),
            ]
        case .controller:
            return [
                ("AP Name", .accessPointName), ("Wired MAC", .mac), ("Serial #", .serial), ("AP Type", .model),
                ("Last Seen", .lastSeen),
            ]
        case .receiving:
            return [
                ("Part Number", .model), ("Serial No", .serial), ("MAC Addr", .mac), ("Received", .lastSeen),
                ("PO Number", .purchaseOrder),
            ]
        case .propertyTags:
            return [
                ("Inventory Number", .tag), ("Description", .description), ("Custodian PID", .custodian),
                ("Acquired", .acquired),
            ]
        case .cnsRegister:
            return [("C Number", .cns), ("VT ID", .tag), ("Model", .model)]
        case .custodians:
            return [("Asset Tag", .tag), ("Assigned To", .custodian), ("Department", .department)]
        case .billing:
            return [
                ("Tag No", .tag), ("CNS No", .cns), ("Stock #", .stockNumber), ("Amount", .amount),
                ("", .trailingEmpty), ("", .trailingEmpty),
            ]
        case .legacy:
            return [
                ("TAG_NO", .tag), ("SN", .serial), ("Bldg Code", .building), ("Rm", .room),
                ("Last Inv Date", .lastSeen),
            ]
        }
    }

    /// The cell separator: a tab for the receiving list, a comma elsewhere.
    var separator: Character {
        self == .receiving ? "\t" : ","
    }

    /// True for files written with CRLF line ends (as exported from Windows tools); the others use LF.
    var usesCRLF: Bool {
        switch self {
        case .central, .legacy, .survey(zone: 4), .billing: return true
        default: return false
        }
    }

    /// True when the file starts with a UTF-8 byte order mark.
    var hasByteOrderMark: Bool {
        self == .central
    }

    /// After how many data rows a blank line is inserted, for files that carry stray blank lines.
    var blankLineInterval: Int? {
        switch self {
        case .survey(zone: 2): return 97
        case .survey(zone: 5): return 211
        case .custodians: return 400
        default: return nil
        }
    }

    /// Orders files as in ``all``.
    static func < (lhs: SourceFile, rhs: SourceFile) -> Bool {
        all.firstIndex(of: lhs)! < all.firstIndex(of: rhs)!
    }
}
