// libFuzzer target: every normalizer, on arbitrary bytes. Each is run on the bytes and on the same text as a
// String (the two paths must agree whenever the bytes are UTF-8), and a value's canonical text must normalize to
// the same value again, since cleaned.csv is read back the next night. Built by `make fuzz`.
@testable import StocktakeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNormalizers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let cell = UnsafeBufferPointer(start: data, count: size)
    let text = String(validating: cell, as: UTF8.self)
    func agree<Value: Equatable>(_ name: String, _ bytes: Normalized<Value>, _ string: Normalized<Value>?) {
        guard let string else { return }
        switch (bytes, string) {
        case (.empty, .empty), (.invalid, .invalid): return
        case (.value(let left), .value(let right)) where left == right: return
        default: fatalError("\(name): bytes give \(bytes), the String gives \(string) for \(text.debugDescription)")
        }
    }
    /// Both paths agree, and the value's canonical text normalizes to the value again.
    func readsBack<Value: Equatable & CustomStringConvertible>(
        _ name: String, _ normalize: (UnsafeBufferPointer<UInt8>) -> Normalized<Value>,
        _ normalizeText: (String) -> Normalized<Value>
    ) {
        let value = normalize(cell)
        agree(name, value, text.map(normalizeText))
        if let value = value.value, normalizeText(value.description) != .value(value) {
            fatalError("\(name) \(value) does not read back")
        }
    }
    for digits in [4, 6, 7] {
        readsBack("VTTag", { VTTag.normalize($0, digits: digits) }, { VTTag.normalize($0, digits: digits) })
        readsBack("CNSNumber", { CNSNumber.normalize($0, digits: digits) }, { CNSNumber.normalize($0, digits: digits) })
    }
    readsBack("MACAddress", MACAddress.normalize, MACAddress.normalize)
    readsBack("SerialNumber", SerialNumber.normalize, SerialNumber.normalize)
    readsBack("UnitCost", UnitCost.normalize, UnitCost.normalize)
    readsBack("InventoryDate", InventoryDate.normalize, InventoryDate.normalize)
    agree("latitude", GeoPosition.normalizeLatitude(cell), text.map(GeoPosition.normalizeLatitude))
    agree("longitude", GeoPosition.normalizeLongitude(cell), text.map(GeoPosition.normalizeLongitude))
    agree("position", GeoPosition.normalizePair(cell), text.map(GeoPosition.normalizePair))
    for style in [TextStyle.trimmed, .upperCased, .upperCasedCollapsingSpaces, .lowerCased] {
        let free = FreeText.normalize(cell, style: style)
        agree("FreeText \(style)", free, text.map { FreeText.normalize($0, style: style) })
        if let value = free.value, FreeText.normalize(value, style: style) != .value(value) {
            fatalError("FreeText \(style) of \(value.debugDescription) is not stable")
        }
    }
    agree("building", FuzzBuildings.table.normalize(cell), text.map(FuzzBuildings.table.normalize))
    return 0
}

/// A small buildings table for the building normalizer.
enum FuzzBuildings {
    static let table = BuildingTable([
        Building(code: "TORG", name: "Torgersen Hall"), Building(code: "0123", name: "Burruss Hall"),
        Building(code: "ENGR 2", name: "Engineering 2"),
    ])
}
