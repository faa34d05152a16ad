/// The fixed, made-up campus of every generated account: sixty buildings in six installer zones.
///
/// The campus does not depend on the seed, so that accounts of different sizes share one buildings table.
enum BuildingCatalog {
    /// The number of installer zones, each with its own survey sheet.
    static let zoneCount = 6

    /// Every building, in table order.
    static let buildings: [Building] = {
        var random = SeededRandom(seed: 0x5EED_CA4B)
        var result: [Building] = []
        for (index, entry) in codesAndNames.enumerated() {
            let zone = index / 10 + 1
            // Zones are neighbourhoods around a campus centre near 37.2290, -80.4230.
            let zoneLatitude = 37_222_000 + ((zone - 1) % 3) * 6_500
            let zoneLongitude = -80_432_000 + ((zone - 1) / 3) * 9_000
            result.append(
                Building(
                    code: entry.code, name: entry.name,
                    latitudeMicrodegrees: zoneLatitude + random.integer(in: 0...5_000),
                    longitudeMicrodegrees: zoneLongitude + random.integer(in: 0...7_000), zone: zone))
        }
        return result
    }()

    /// Codes that look like building codes but are not in the table, for `UNKNOWN_BUILDING` injections.
    static let unknownCodes = ["MODB", "TRL4", "ANX2", "OLDH", "PODC", "SWG7", "TMP3", "WHSE"]

    /// The buildings of one installer zone.
    static func buildings(inZone zone: Int) -> [Int] {
        buildings.indices.filter { buildings[$0].zone == zone }
    }

    private static let codesAndNames: [(code: String, name: String)] = [
        ("ABH", "Alder Hall"), ("BRK", "Birchwood Hall"), ("CSB", "Cedar Science Building"),
        ("DLH", "Dogwood Lecture Hall"), ("ELM", "Elm House"), ("FRH", "Fernwood Residence Hall"),
        ("GSC", "Grant Student Center"), ("HNL", "Hanley Library"), ("IVH", "Ivy Hall"),
        ("JPC", "Juniper Performance Center"), ("KWH", "Kestrel Hall"), ("LKE", "Lakeside Engineering"),
        ("MRB", "Marlow Research Building"), ("NWH", "Northwind Hall"), ("OKH", "Oakridge Hall"),
        ("PCH", "Pinecrest Hall"), ("QDH", "Quad Dining Hall"), ("RVH", "Riverview Hall"),
        ("SLB", "Sterling Laboratories"), ("TRH", "Torrance Hall"), ("UPC", "University Police Center"),
        ("VLH", "Valley Hall"), ("WBC", "Westbrook Commons"), ("XHB", "Exhibition Hall"), ("YTH", "Yates Hall"),
        ("ZMH", "Zimmer Hall"), ("AGR", "Agricultural Research Annex"), ("BIO", "Biosciences Tower"),
        ("CHM", "Chemistry Annex"), ("DSC", "Data Science Center"), ("ENG", "Engineering Quad North"),
        ("FAB", "Fine Arts Building"), ("GEO", "Geosciences Hall"), ("HLT", "Health Sciences Center"),
        ("INF", "Infirmary Annex"), ("JRN", "Journalism Hall"), ("KIN", "Kinesiology Complex"),
        ("LAW", "Law Annex"), ("MTH", "Mathematics Hall"), ("NRS", "Nursing Building"), ("OBS", "Observatory"),
        ("PHY", "Physics Building"), ("PSY", "Psychology Hall"), ("RCC", "Recreation Center"),
        ("SSB", "Student Services Building"), ("THT", "Theatre Workshop"), ("VET", "Veterinary Teaching Hospital"),
        ("WRH", "Wright House"), ("ARC", "Architecture Studios"), ("BKS", "University Bookstore"),
        ("CPH", "Carpenter Hall"), ("DWH", "Dawson Hall"), ("EAC", "East Athletic Center"),
        ("FLH", "Fielding Hall"), ("GRH", "Greer Hall"), ("HRH", "Harper Hall"), ("LNH", "Linden Hall"),
        ("MDH", "Meadow Hall"), ("NBH", "North Bank Hall"), ("SWH", "Southwest Hall"),
    ]
}
