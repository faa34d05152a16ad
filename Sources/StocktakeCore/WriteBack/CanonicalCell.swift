/// The canonical text of one mapped cell, read exactly as `SourceReader` reads it, and the text a merged value
/// takes in such a cell.
///
/// Write-back compares and writes text, so every canonical value here is the text `cleaned.csv` shows for it. A
/// GPS column holding `lat,lon` reads and writes both coordinates together, as `37.2296,-80.4139`.
enum CanonicalCell {
    /// The cell's value in canonical text form: `.empty` for blanks and placeholders, `.invalid` for values that
    /// cannot be normalized (an invalid MAC address, an unknown building), which write-back leaves as they are.
    static func reading(
        _ cell: UnsafeBufferPointer<UInt8>, target: ColumnTarget, reader: SourceReader
    ) -> Normalized<String> {
        switch target {
        case .ignored:
            return .empty
        case .position:
            return text(GeoPosition.normalizePair(cell)) {
                positionText(latitude: $0.latitude, longitude: $0.longitude)
            }
        case .field(let field):
            return reading(cell, field: field, reader: reader)
        }
    }

    /// The text `values` give a cell of a column read into `target`; `nil` when the merged value is empty.
    static func text(of values: AssetValues, for target: ColumnTarget) -> String? {
        switch target {
        case .ignored:
            return nil
        case .position:
            guard let latitude = values.latitude, let longitude = values.longitude else { return nil }
            return positionText(latitude: latitude, longitude: longitude)
        case .field(let field):
            let text = values.text(field)
            return text.isEmpty ? nil : text
        }
    }

    private static func reading(
        _ cell: UnsafeBufferPointer<UInt8>, field: CanonicalField, reader: SourceReader
    ) -> Normalized<String> {
        switch field {
        case .vtTag: return text(VTTag.normalize(cell, digits: reader.tagDigits), \.description)
        case .cnsNumber: return text(CNSNumber.normalize(cell, digits: reader.cnsDigits), \.description)
        case .serialNumber: return text(SerialNumber.normalize(cell), \.description)
        case .macAddress: return text(MACAddress.normalize(cell), \.description)
        case .model: return FreeText.normalize(cell, style: .upperCased)
        case .description: return FreeText.normalize(cell, style: .trimmed)
        case .building:
            guard let buildings = reader.buildings else { return FreeText.normalize(cell, style: .upperCased) }
            return buildings.normalize(cell)
        case .room: return FreeText.normalize(cell, style: .upperCasedCollapsingSpaces)
        case .mount: return FreeText.normalize(cell, style: .lowerCased)
        case .custodian: return FreeText.normalize(cell, style: .trimmed)
        case .latitude: return text(GeoPosition.normalizeLatitude(cell), GeoPosition.text)
        case .longitude: return text(GeoPosition.normalizeLongitude(cell), GeoPosition.text)
        case .lastSeen: return text(InventoryDate.normalize(cell), \.description)
        case .stockNumber: return FreeText.normalize(cell, style: .trimmed)
        }
    }

    /// `result` with its value turned into text by `form`.
    private static func text<Value>(_ result: Normalized<Value>, _ form: (Value) -> String) -> Normalized<String> {
        switch result {
        case .empty: return .empty
        case .value(let value): return .value(form(value))
        case .invalid(let reason): return .invalid(reason: reason)
        }
    }

    /// A position as one cell holds it: `latitude,longitude` in canonical coordinate text.
    private static func positionText(latitude: Double, longitude: Double) -> String {
        GeoPosition.text(latitude) + "," + GeoPosition.text(longitude)
    }
}
