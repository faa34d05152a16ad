/// The shared strings of `cleaned.xlsx`: the texts of the columns whose values repeat from asset to asset (a model,
/// a building, a room, a custodian, the status, the list of sources, the building's name), each written once, and
/// for every asset the index of each of its cells' text.
///
/// The identifiers that differ from asset to asset (tag, CNS number, serial number, MAC address) and the findings
/// stay inline strings: a shared string would only add its index to the text. Texts are indexed in the order the
/// assets first use them, so the same reconciliation makes the same workbook.
struct CleanedSharedStrings: Sendable {
    /// The columns whose cells refer to shared strings, in the order of the sheet.
    enum Column: Int, CaseIterable {
        case model, description, building, room, mount, custodian, stockNumber, status, sources, buildingName
    }

    /// The texts, by index.
    let table: SharedStringTable
    /// For each asset, the index of each `Column`'s text, -1 for an empty cell.
    private let indices: [Int32]

    init(_ reconciliation: Reconciliation, annotations: CleanedAnnotations) {
        let assets = reconciliation.assets
        let texts = SharedTexts.shared
        let columnCount = Column.allCases.count
        var table = SharedStringTable()
        // Indices by the shared text's id, by building code id (for its name) and by status: looked up by integer,
        // so that a text is hashed once, when first met. A list of sources is compared with the last list of its
        // length, which it nearly always is (the lists are few, and equal lists share their storage).
        var byText = IntegerTable(capacity: 4096)
        var byBuildingName = IntegerTable(capacity: 256)
        var byStatus: [(AssetStatus, Int32)] = []
        var recentSources = [(text: String, index: Int32)?](repeating: nil, count: 64)
        var references = 0
        func index(ofText id: Int32) -> Int32 {
            guard id >= 0 else { return -1 }
            if let index = byText[UInt64(id)] { return index }
            let text = texts.string(id)
            let index = text.isEmpty ? -1 : table.index(of: text)
            byText.set(index, for: UInt64(id))
            return index
        }
        func index(ofSources text: String) -> Int32 {
            let slot = text.utf8.count & (recentSources.count - 1)
            if let recent = recentSources[slot], recent.text == text { return recent.index }
            let index = index(of: text)
            recentSources[slot] = (text, index)
            return index
        }
        func index(of text: String) -> Int32 {
            text.isEmpty ? -1 : table.index(of: text)
        }
        indices = [Int32](unsafeUninitializedCapacity: assets.count * columnCount) { buffer, initialized in
            var position = 0
            for asset in assets {
                let values = asset.packed
                func put(_ value: Int32) {
                    buffer[position] = value
                    position += 1
                    if value >= 0 { references += 1 }
                }
                put(index(ofText: values.model))
                put(index(ofText: values.description))
                put(index(ofText: values.building))
                put(index(ofText: values.room))
                put(index(ofText: values.mount))
                put(index(ofText: values.custodian))
                put(index(ofText: values.stockNumber))
                var status: Int32 = -1
                for (known, index) in byStatus where known == asset.status { status = index }
                if status < 0 {
                    status = index(of: asset.status.rawValue)
                    byStatus.append((asset.status, status))
                }
                put(status)
                put(index(ofSources: asset.sourceList))
                var buildingName: Int32 = -1
                if values.building >= 0 {
                    if let known = byBuildingName[UInt64(values.building)] {
                        buildingName = known
                    } else {
                        buildingName = annotations.buildingName(of: asset).map(index(of:)) ?? -1
                        byBuildingName.set(buildingName, for: UInt64(values.building))
                    }
                }
                put(buildingName)
            }
            initialized = position
        }
        table.references = references
        self.table = table
    }

    /// The index of the text of `column` for the asset at `asset`, -1 when the cell is empty.
    func index(_ column: Column, ofAsset asset: Int) -> Int32 {
        indices[asset * Column.allCases.count + column.rawValue]
    }
}
