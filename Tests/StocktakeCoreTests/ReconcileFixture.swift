import StocktakeCore

/// Builds a reconciliation from CSV text held in memory, for tests of identification and discrepancies.
struct ReconcileFixture {
    var files: [(name: String, role: SourceRole, text: String)] = []
    var buildings: BuildingTable? = BuildingTable([
        Building(code: "BUR", name: "Burruss Hall", latitude: nil, longitude: nil),
        Building(code: "TORG", name: "Torgersen Hall", latitude: nil, longitude: nil),
    ])
    var rules = ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!)

    init(central: String) {
        files.append(("central.csv", .central, central))
    }

    mutating func sighting(_ name: String, _ text: String) {
        files.append((name, .sighting, text))
    }

    mutating func register(_ name: String, _ text: String) {
        files.append((name, .register, text))
    }

    func sources() throws -> [SourceData] {
        let reader = SourceReader(
            mapping: .builtIn, tagDigits: rules.tagDigits, cnsDigits: rules.cnsDigits, buildings: buildings)
        return try files.map { file in
            var csv = CSVReader(bytes: Array(file.text.utf8), name: file.name)
            return try reader.read(SourceFile(path: file.name, role: file.role), from: &csv)
        }
    }

    func reconcile() throws -> Reconciliation {
        Reconciler(rules: rules).reconcile(try sources())
    }
}

extension Reconciliation {
    /// The discrepancies with `code`.
    func found(_ code: DiscrepancyCode) -> [Discrepancy] {
        discrepancies.filter { $0.code == code }
    }

    /// The codes found, sorted, each once per discrepancy.
    var codes: [DiscrepancyCode] {
        discrepancies.map(\.code).sorted()
    }

    /// The cleaned asset with `tag`.
    func asset(_ tag: String) -> CleanedAsset? {
        assets.first { $0.values.vtTag?.description == tag }
    }
}

/// A central sheet header used by most tests.
let centralHeader = "VT Tag,CNS #,Serial Number,MAC Address,Model,Building,Room,Mount,Custodian"
/// A survey sheet header used by most tests.
let surveyHeader = "P-Tag,Serial,MAC,Bldg,Room,Scanned At"
