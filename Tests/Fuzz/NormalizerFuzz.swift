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
    for digits in [4, 6, 7] {
        let tag = VTTag.normalize(cell, digits: digits)
        agree("VTTag", tag, text.map { VTTag.normalize($0, digits: digits) })
        if let value = tag.value, VTTag.normalize(value.description, digits: digits) != .value(value) {
            fatalError("VTTag \(value) does not read back")
        }
        let number = CNSNumber.normalize(cell, digits: digits)
        agree("CNSNumber", number, text.map { CNSNumber.normalize($0, digits: digits) })
        if let value = number.value, CNSNumber.normalize(value.description, digits: digits) != .value(value) {
            fatalError("CNSNumber \(value) does not read back")
        }
    }
    let address = MACAddress.normalize(cell)
    agree("MACAddress", address, text.map(MACAddress.normalize))
    if let value = address.value, MACAddress.normalize(value.description) != .value(value) {
        fatalError("MACAddress \(value) does not read back")
    }
    let serial = SerialNumber.normalize(cell)
    agree("SerialNumber", serial, text.map(SerialNumber.normalize))
    if let value = serial.value, SerialNumber.normalize(value.description) != .value(value) {
        fatalError("SerialNumber \(value) does not read back")
    }
    let cost = UnitCost.normalize(cell)
    agree("UnitCost", cost, text.map(UnitCost.normalize))
    if let value = cost.value, UnitCost.normalize(value.description) != .value(value) {
        fatalError("UnitCost \(value) does not read back")
    }
    let date = InventoryDate.normalize(cell)
    agree("InventoryDate", date, text.map(InventoryDate.normalize))
    if let value = date.value, InventoryDate.normalize(value.description) != .value(value) {
        fatalError("InventoryDate \(value) does not read back")
    }
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
