/// An account's buildings table, which turns whatever a sheet has in its building column (a code or a name,
/// in any case and spacing) into the building's canonical code.
public struct BuildingTable: Sendable {
    /// The buildings, in the order given.
    public let buildings: [Building]

    /// The index in `buildings` for each code, by matching key.
    private let indexByCode: [String: Int]
    /// The index in `buildings` for each name, by matching key.
    private let indexByName: [String: Int]
    /// The matching keys by their bytes, when all are ASCII (otherwise `nil`: a String compares by canonical
    /// equivalence, under which a non-ASCII key such as the Kelvin sign can equal ASCII text).
    private let asciiKeys: ByteKeys?

    /// The matching keys, codes before names, by their bytes; `indexByKey[id]` is the key's building. A class, so
    /// that copying the table (a reader does for every row) retains one reference, not every array.
    private final class ByteKeys: Sendable {
        let keys: TextPool
        let indexByKey: [Int]

        init(keys: TextPool, indexByKey: [Int]) {
            self.keys = keys
            self.indexByKey = indexByKey
        }

        /// The building whose matching key is `key`'s bytes, or `nil`.
        func index(ofKey key: UnsafeBufferPointer<UInt8>) -> Int? {
            keys.id(of: key).map { indexByKey[Int($0)] }
        }
    }

    /// Creates a table. When two buildings share a code, or two share a name, the first one wins.
    public init(_ buildings: [Building]) {
        self.buildings = buildings
        var indexByCode: [String: Int] = [:]
        var indexByName: [String: Int] = [:]
        for (index, building) in buildings.enumerated() {
            if let key = Self.key(building.code), indexByCode[key] == nil {
                indexByCode[key] = index
            }
            if let key = Self.key(building.name), indexByName[key] == nil {
                indexByName[key] = index
            }
        }
        self.indexByCode = indexByCode
        self.indexByName = indexByName
        // A code wins over a name, so codes go in first.
        var asciiKeys = TextPool()
        var indexByKey: [Int] = []
        let keys = indexByCode.sorted { $0.key < $1.key } + indexByName.sorted { $0.key < $1.key }
        for (key, index) in keys {
            var key = key
            if key.withUTF8({ asciiKeys.intern($0).isNew }) { indexByKey.append(index) }
        }
        let isASCII = keys.allSatisfy { $0.key.utf8.allSatisfy { $0 < 0x80 } }
        self.asciiKeys = isASCII ? ByteKeys(keys: asciiKeys, indexByKey: indexByKey) : nil
    }

    /// The building with this code, ignoring case and surrounding blanks; `nil` when there is none.
    public func building(code: String) -> Building? {
        guard let key = Self.key(code), let index = indexByCode[key] else {
            return nil
        }
        return buildings[index]
    }

    /// The canonical building code for raw cell bytes.
    ///
    /// A code (any case, trimmed) or a name (any case, runs of spaces collapsed) maps to the building's code;
    /// codes are tried before names. Blanks and placeholders are `.empty`; anything else is `.invalid` with the
    /// reason "is not in the buildings table" (reported as `UNKNOWN_BUILDING`).
    public func normalize(_ cell: UnsafeBufferPointer<UInt8>) -> Normalized<String> {
        switch index(of: cell) {
        case .value(let index): .value(buildings[index].code)
        case .empty: .empty
        case .invalid(let reason): .invalid(reason: reason)
        }
    }

    /// Like `normalize(_:)`, giving the building's index in `buildings`.
    func index(of cell: UnsafeBufferPointer<UInt8>) -> Normalized<Int> {
        if Placeholder.isEmptyOrPlaceholder(cell) {
            return .empty
        }
        // ASCII text matches exactly when its bytes do, so it is looked up without making a `String`. The keys are
        // used without taking a count: the table holds them, and the cores planning a large sheet took and dropped
        // counts of the same object for every building cell, each waiting for the other's (perf at a million assets:
        // 1.4 % of the run's time).
        if asciiKeys != nil, cell.allSatisfy({ $0 < 0x80 }) {
            let keys = Unmanaged.passUnretained(asciiKeys.unsafelyUnwrapped)
            let index = FreeText.withNormalizedBytes(cell, style: .upperCasedCollapsingSpaces) { key in
                keys._withUnsafeGuaranteedRef { $0.index(ofKey: key) }
            }
            guard let index, let index else { return .invalid(reason: "is not in the buildings table") }
            return .value(index)
        }
        guard case .value(let key) = FreeText.normalize(cell, style: .upperCasedCollapsingSpaces),
            let index = indexByCode[key] ?? indexByName[key]
        else {
            return .invalid(reason: "is not in the buildings table")
        }
        return .value(index)
    }

    /// The canonical building code for text, with the same rules as the byte overload.
    public func normalize(_ text: String) -> Normalized<String> {
        CellText.withBytes(of: text) { normalize($0) }
    }

    /// The matching key for a code or name: trimmed, upper-cased, runs of spaces collapsed; `nil` when blank.
    private static func key(_ text: String) -> String? {
        FreeText.normalize(text, style: .upperCasedCollapsingSpaces).value
    }
}
