/// The canonical text of one mapped cell, read exactly as `SourceReader` reads it, and the text a merged value
/// takes in such a cell, both written as bytes.
///
/// Write-back compares and writes text, so every canonical value here is the text `cleaned.csv` shows for it. A
/// GPS column holding `lat,lon` reads and writes both coordinates together, as `37.2296,-80.4139`. Nothing here
/// makes a `String` for an identifier, a date or free text: a cell that is already canonical costs no allocation.
enum CanonicalCell {
    /// What a cell holds.
    enum Reading: Equatable {
        /// A blank or a placeholder: it says nothing about the field.
        case empty
        /// A value, whose canonical text was appended.
        case value
        /// Something that cannot be normalized (an invalid MAC address, an unknown building); write-back leaves it.
        case invalid
    }

    /// Reads `cell` as a column read into `target`, appending its canonical text to `text` when it holds a value.
    static func read<Output: ByteSink & ~Copyable>(
        _ cell: UnsafeBufferPointer<UInt8>, target: ColumnTarget, reader: SourceReader, into text: inout Output
    ) -> Reading {
        switch target {
        case .ignored:
            return .empty
        case .position:
            return append(GeoPosition.normalizePair(cell), to: &text) {
                CanonicalText.append(latitude: $0.latitude, longitude: $0.longitude, to: &$1)
            }
        case .field(let field):
            return read(cell, field: field, reader: reader, into: &text)
        }
    }

    /// Appends the text `values` give a cell of a column read into `target` to `text`; `false` (nothing appended)
    /// when the merged value is empty.
    static func append<Output: ByteSink & ~Copyable>(
        _ values: PackedValues, for target: ColumnTarget, to text: inout Output
    ) -> Bool {
        let start = text.count
        switch target {
        case .ignored:
            return false
        case .position:
            guard let latitude = values.latitude, let longitude = values.longitude else { return false }
            CanonicalText.append(latitude: latitude, longitude: longitude, to: &text)
        case .field(let field):
            CanonicalText.append(field, of: values, to: &text)
        }
        return text.count > start
    }

    private static func read<Output: ByteSink & ~Copyable>(
        _ cell: UnsafeBufferPointer<UInt8>, field: CanonicalField, reader: SourceReader, into text: inout Output
    ) -> Reading {
        switch field {
        case .vtTag:
            return append(VTTag.normalize(cell, digits: reader.tagDigits), to: &text) {
                CanonicalText.append($0, to: &$1)
            }
        case .cnsNumber:
            return append(CNSNumber.normalize(cell, digits: reader.cnsDigits), to: &text) {
                CanonicalText.append($0, to: &$1)
            }
        case .serialNumber: return serialNumber(cell, into: &text)
        case .macAddress:
            return append(MACAddress.normalize(cell), to: &text) { CanonicalText.append($0, to: &$1) }
        case .model: return freeText(cell, style: .upperCased, into: &text)
        case .description: return freeText(cell, style: .trimmed, into: &text)
        case .building:
            // The reader's table is used in place: binding it copied its four references for every cell.
            guard let building = reader.buildings?.normalize(cell) else {
                return freeText(cell, style: .upperCased, into: &text)
            }
            return append(building, to: &text) { $1.append(utf8: $0) }
        case .room: return freeText(cell, style: .upperCasedCollapsingSpaces, into: &text)
        case .mount: return freeText(cell, style: .lowerCased, into: &text)
        case .custodian: return freeText(cell, style: .trimmed, into: &text)
        case .latitude:
            return append(GeoPosition.normalizeLatitude(cell), to: &text) {
                CanonicalText.append(degrees: $0, to: &$1)
            }
        case .longitude:
            return append(GeoPosition.normalizeLongitude(cell), to: &text) {
                CanonicalText.append(degrees: $0, to: &$1)
            }
        case .lastSeen:
            return append(InventoryDate.normalize(cell), to: &text) { CanonicalText.append($0, to: &$1) }
        case .stockNumber: return freeText(cell, style: .trimmed, into: &text)
        case .cost: return append(UnitCost.normalize(cell), to: &text) { CanonicalText.append($0, to: &$1) }
        }
    }

    /// The kind of `result`, its value's text appended by `form`.
    private static func append<Value, Output: ByteSink & ~Copyable>(
        _ result: Normalized<Value>, to text: inout Output, _ form: (Value, inout Output) -> Void
    ) -> Reading {
        switch result {
        case .empty: return .empty
        case .value(let value):
            form(value, &text)
            return .value
        case .invalid: return .invalid
        }
    }

    /// `FreeText.normalize(_:style:)`, its text appended as bytes, by the reader's own rules (`FreeText`), written at
    /// once into room for all of them: the text never grows.
    private static func freeText<Output: ByteSink & ~Copyable>(
        _ cell: UnsafeBufferPointer<UInt8>, style: TextStyle, into text: inout Output
    ) -> Reading {
        guard let trimmed = FreeText.valueBytes(cell) else { return .empty }
        text.append(atMost: trimmed.count) { FreeText.write(trimmed, style: style, to: $0) }
        return .value
    }

    /// `SerialNumber.normalize(_:)`, its text appended as bytes, by the reader's own rules: a cell the reader takes
    /// as empty (`N A`, a placeholder once its space is gone; `0 0` with a no-break space) or as invalid (bytes that
    /// are not UTF-8) is so here too, never a value a push would write.
    private static func serialNumber<Output: ByteSink & ~Copyable>(
        _ cell: UnsafeBufferPointer<UInt8>, into text: inout Output
    ) -> Reading {
        switch SerialNumber.withCanonicalBytes(cell, { text.append(contentsOf: $0) }) {
        case .empty: .empty
        case .value: .value
        case .invalid: .invalid
        }
    }
}
