/// The shared strings of `cleaned.xlsx`: the texts of the columns whose values repeat from asset to asset (a model,
/// a building, a room, a custodian, the status, the list of sources, the building's name), each written once, and
/// for every asset the index of each of its cells' text.
///
/// The identifiers that differ from asset to asset (tag, CNS number, serial number, MAC address) and the findings
/// stay inline strings: a shared string would only add its index to the text. Texts are indexed in the order the
/// assets first use them, so the same reconciliation makes the same workbook.
///
/// `cleaned.csv` writes the same cells from the same indices: each text's CSV form (neutralized and quoted as
/// `CSVWriter` writes a field) is made once here, and a cell is a copy of it.
struct CleanedSharedStrings: Sendable {
    /// The columns whose cells refer to shared strings, in the order of the sheet.
    enum Column: Int, CaseIterable {
        case model, description, building, room, mount, custodian, stockNumber, status, sources, buildingName
    }

    /// The texts, by index.
    let table: SharedStringTable
    /// Each text as a field of `cleaned.csv`, by index.
    let csvFields: CSVFieldTable
    /// For each asset, the index of each `Column`'s text, -1 for an empty cell.
    private let indices: [Int32]

    init(_ reconciliation: Reconciliation, annotations: CleanedAnnotations) {
        let assets = reconciliation.assets
        let columnCount = Column.allCases.count
        var gathering = Gathering()
        indices = [Int32](unsafeUninitializedCapacity: assets.count * columnCount) { buffer, initialized in
            var position = 0
            for asset in assets {
                let values = asset.packed
                func put(_ value: Int32) {
                    buffer[position] = value
                    position += 1
                }
                put(gathering.index(ofText: values.model))
                put(gathering.index(ofText: values.description))
                put(gathering.index(ofText: values.building))
                put(gathering.index(ofText: values.room))
                put(gathering.index(ofText: values.mount))
                put(gathering.index(ofText: values.custodian))
                put(gathering.index(ofText: values.stockNumber))
                put(gathering.index(of: asset.status))
                put(gathering.index(of: asset.sourceList))
                put(gathering.index(ofBuildingNameOf: asset, annotations))
            }
            initialized = position
        }
        var table = gathering.table
        table.references = indices.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
        self.table = table
        csvFields = CSVFieldTable(table)
    }

    /// The texts met so far and the indices already looked up, by integer, so that a text is hashed once, when
    /// first met: by the shared text's id, by building code id (for its name) and by status. A list of sources is
    /// looked up by its bytes each time: a cache of the last list of each length often missed in a 14-file account,
    /// whose lists are hundreds, and cost more than it saved (0.5 M instructions in a 3,000-asset account).
    ///
    /// A struct whose methods mutate it, rather than functions nested in `init` that capture its variables: those
    /// would be boxed and checked for exclusive access at every call.
    private struct Gathering {
        var table = SharedStringTable()
        private var byText = IntegerTable(capacity: 4096)
        private var byBuildingName = IntegerTable(capacity: 256)
        private var byStatus: [(AssetStatus, Int32)] = []
        private let texts = SharedTexts.shared

        /// The index of the shared text with id `id`, -1 for none or the empty text.
        mutating func index(ofText id: Int32) -> Int32 {
            guard id >= 0 else { return -1 }
            if let index = byText[UInt64(id)] { return index }
            let index = index(of: texts.string(id))
            byText.set(index, for: UInt64(id))
            return index
        }

        /// The index of a status's text.
        mutating func index(of status: AssetStatus) -> Int32 {
            for (known, index) in byStatus where known == status { return index }
            let index = index(of: status.rawValue)
            byStatus.append((status, index))
            return index
        }

        /// The index of the name of the asset's building, -1 when it has none.
        mutating func index(ofBuildingNameOf asset: CleanedAsset, _ annotations: CleanedAnnotations) -> Int32 {
            let building = asset.packed.building
            guard building >= 0 else { return -1 }
            if let known = byBuildingName[UInt64(building)] { return known }
            var name: Int32 = -1
            if let text = annotations.buildingName(of: asset) { name = index(of: text) }
            byBuildingName.set(name, for: UInt64(building))
            return name
        }

        /// The index of `text`, adding it when new; -1 for the empty text.
        mutating func index(of text: String) -> Int32 {
            text.isEmpty ? -1 : table.index(of: text)
        }
    }

    /// The index of the text of `column` for the asset at `asset`, -1 when the cell is empty.
    func index(_ column: Column, ofAsset asset: Int) -> Int32 {
        indices[asset * Column.allCases.count + column.rawValue]
    }
}
