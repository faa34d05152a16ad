import Foundation

/// The kept rows of one source spreadsheet, each in only the bytes of the fields its file fills.
///
/// A row of packed values is 96 bytes whatever its file maps; a file of tags and custodians needs 24 of them. Rows
/// are most of what a large account keeps (5.5 million at a million assets), and every byte of them is memory the
/// machine must hand out fresh while the files are read, so each file keeps its row number, line, the byte saying
/// which numbers are there, and the bytes of its own fields. A row that holds a field the file was not expected to
/// fill widens the layout of all the file's rows, so nothing is ever lost.
///
/// It reads as a collection of `SourceRecord`s, unpacked when read; `view` reads rows in place.
public struct SourceRows: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    public typealias Element = SourceRecord
    public typealias Index = Int

    private var storage: RowStorage
    public private(set) var count = 0

    /// Rows that keep `fields` (one bit per field by its position in `CanonicalField.allCases`).
    init(fields: UInt16) {
        storage = RowStorage(fields: fields, capacity: 0)
    }

    /// Rows that keep the fields `fields`.
    init(keeping fields: some Sequence<CanonicalField>) {
        self.init(fields: Self.bits(of: fields))
    }

    public init() {
        self.init(fields: 0)
    }

    public init(_ records: some Sequence<SourceRecord>) {
        self.init()
        for record in records { append(record) }
    }

    public init(arrayLiteral records: SourceRecord...) {
        self.init(records)
    }

    /// The bits of `fields`, by their positions in `CanonicalField.allCases`.
    static func bits(of fields: some Sequence<CanonicalField>) -> UInt16 {
        var bits: UInt16 = 0
        for field in fields { bits |= 1 << UInt16(CanonicalField.allCases.firstIndex(of: field)!) }
        return bits
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The rows there is room for without growing.
    public var capacity: Int { storage.capacity }

    /// The fields each row keeps, one bit per field.
    var fields: UInt16 { storage.fields }

    /// The bytes a row takes.
    var stride: Int { storage.stride }

    public subscript(position: Int) -> SourceRecord {
        get {
            precondition(position >= 0 && position < count, "row index out of range")
            return view[position]
        }
        set {
            precondition(position >= 0 && position < count, "row index out of range")
            makeRoom(for: newValue.packed, capacity: capacity)
            storage.encode(row: newValue.row, line: newValue.line, packed: newValue.packed, at: position)
        }
    }

    /// The packed values of the row at `position`.
    func packed(at position: Int) -> PackedValues {
        precondition(position >= 0 && position < count, "row index out of range")
        return view.packed(at: position)
    }

    mutating func reserveCapacity(_ minimumCapacity: Int) {
        makeRoom(for: PackedValues(), capacity: minimumCapacity)
    }

    public mutating func append(_ record: SourceRecord) {
        append(row: record.row, line: record.line, packed: record.packed)
    }

    mutating func append(row: Int32, line: Int32, packed: PackedValues) {
        makeRoom(for: packed, capacity: capacityForOneMore)
        storage.encode(row: row, line: line, packed: packed, at: count)
        count += 1
    }

    /// Appends the row at `position` of `rows` with the row number `row` and the line `line`: its bytes as they are
    /// when `rows` keep the same fields as these (rows of the parts of one file do), else its values. Joining the
    /// parts of a large file copies a few million rows this way.
    mutating func append(_ position: Int, of rows: View, row: Int32, line: Int32) {
        guard rows.fields == storage.fields else {
            append(row: row, line: line, packed: rows.packed(at: position))
            return
        }
        if count == capacity || !isKnownUniquelyReferenced(&storage) {
            makeRoom(for: PackedValues(), capacity: capacityForOneMore)
        }
        storage.copy(rows.address(of: position), to: count, row: row, line: line)
        count += 1
    }

    /// Replaces the serial code of each row from `first` on that holds one by `replacement` of it.
    mutating func replaceSerialCodes(from first: Int, _ replacement: (SerialCode) -> SerialCode) {
        guard first < count, storage.fields & Self.bits(of: [.serialNumber]) != 0 else { return }
        makeRoom(for: PackedValues(), capacity: capacity)
        storage.replaceSerialCodes(in: first..<count, replacement)
    }

    /// The capacity an append needs: twice the rows when they are full, as an array grows.
    private var capacityForOneMore: Int { count == capacity ? Swift.max(16, capacity * 2) : capacity }

    /// Makes the storage this array's alone, with room for `capacity` rows and every field `packed` holds.
    private mutating func makeRoom(for packed: PackedValues, capacity: Int) {
        let fields = storage.fields | packed.fieldsHeld
        if fields != storage.fields || !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy(count: count, capacity: Swift.max(capacity, storage.capacity), fields: fields)
        } else if capacity > storage.capacity {
            storage.grow(to: capacity)
        }
    }

    /// The rows read in place, for as long as these rows are neither changed nor freed.
    var view: View { View(storage: storage, count: count) }

    /// Rows read in place: what the reconciliation reads a row's fields through, millions of times.
    struct View: @unchecked Sendable {
        fileprivate let base: UnsafeRawPointer?
        /// The fields each row keeps, one bit per field.
        let fields: UInt16
        let stride: Int
        fileprivate let spans: UnsafePointer<RowSpan>
        fileprivate let spanCount: Int
        let count: Int
        /// Where in a row the byte of the numbers that are there lies, and the VT tag's number, the CNS number's, the
        /// MAC address and the serial code (-1 for a field the rows do not keep).
        private let presentOffset: Int
        private let tagOffset: Int
        private let cnsOffset: Int
        private let macOffset: Int
        private let serialOffset: Int

        fileprivate init(storage: RowStorage, count: Int) {
            base = UnsafeRawPointer(storage.bytes)
            fields = storage.fields
            stride = storage.stride
            spans = UnsafePointer(storage.spans)
            spanCount = storage.spanCount
            self.count = count
            (presentOffset, tagOffset, cnsOffset, macOffset, serialOffset) = storage.identifierOffsets
        }

        /// The number of the VT tag of the row at `position`, read alone; `nil` when it has none.
        @inline(__always)
        func vtTagNumber(at position: Int) -> UInt64? {
            number(at: position, offset: tagOffset, bit: PackedValues.hasVTTag)
        }

        /// The number of the CNS number of the row at `position` (its `integerKey`), read alone; `nil` when it has
        /// none.
        @inline(__always)
        func cnsNumberValue(at position: Int) -> UInt64? {
            number(at: position, offset: cnsOffset, bit: PackedValues.hasCNSNumber)
        }

        /// The MAC address of the row at `position` as its number (its `integerKey`), read alone; `nil` when it has
        /// none.
        @inline(__always)
        func macAddressValue(at position: Int) -> UInt64? {
            number(at: position, offset: macOffset, bit: PackedValues.hasMACAddress)
        }

        /// The serial code of the row at `position`, read alone (`.none` when it has none).
        @inline(__always)
        func serialCode(at position: Int) -> SerialCode {
            guard serialOffset >= 0 else { return .none }
            return SerialCode(
                rawValue: address(of: position).loadUnaligned(fromByteOffset: serialOffset, as: UInt64.self))
        }

        @inline(__always)
        private func number(at position: Int, offset: Int, bit: UInt8) -> UInt64? {
            guard offset >= 0 else { return nil }
            let row = address(of: position)
            guard row.load(fromByteOffset: presentOffset, as: UInt8.self) & bit != 0 else { return nil }
            return row.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }

        /// Where the row at `position` starts.
        @inline(__always)
        func address(of position: Int) -> UnsafeRawPointer { base! + position &* stride }

        @inline(__always)
        func row(at position: Int) -> Int32 { address(of: position).loadUnaligned(as: Int32.self) }

        @inline(__always)
        func line(at position: Int) -> Int32 { address(of: position).loadUnaligned(fromByteOffset: 4, as: Int32.self) }

        @inline(__always)
        func packed(at position: Int) -> PackedValues {
            let row = address(of: position)
            var values = PackedValues()
            withUnsafeMutableBytes(of: &values) { packed in
                RowSpan.copy(spans, count: spanCount, from: row, to: packed.baseAddress!, intoRow: false)
            }
            return values
        }

        subscript(position: Int) -> SourceRecord {
            SourceRecord(row: Int(row(at: position)), line: Int(line(at: position)), packed: packed(at: position))
        }
    }
}

/// Where one stored property of packed values lies in a row.
struct RowSpan {
    var packed: UInt8
    var row: UInt8
    var size: UInt8

    /// Copies the bytes of `count` spans from packed values into a row (`intoRow`), or from a row into packed values.
    @inline(__always)
    static func copy(
        _ spans: UnsafePointer<RowSpan>, count: Int, from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer,
        intoRow: Bool
    ) {
        for index in 0..<count {
            let span = spans[index]
            let from = Int(intoRow ? span.packed : span.row)
            let to = Int(intoRow ? span.row : span.packed)
            switch span.size {
            case 8:
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: from, as: UInt64.self), toByteOffset: to, as: UInt64.self)
            case 4:
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: from, as: UInt32.self), toByteOffset: to, as: UInt32.self)
            default:
                target.storeBytes(
                    of: source.load(fromByteOffset: from, as: UInt8.self), toByteOffset: to, as: UInt8.self)
            }
        }
    }
}

/// The bytes of a file's rows, and where each field lies in them. Its layout never changes: rows that need another
/// are copied into new storage.
private final class RowStorage: @unchecked Sendable {
    let fields: UInt16
    let stride: Int
    let spans: UnsafeMutablePointer<RowSpan>
    let spanCount: Int
    /// Where in a row the byte of the numbers that are there lies, and the VT tag's number, the CNS number's, the MAC
    /// address and the serial code (-1 for a field the rows do not keep): what `SourceRows.View` reads alone.
    let identifierOffsets: (present: Int, tag: Int, cns: Int, mac: Int, serial: Int)
    private(set) var bytes: UnsafeMutableRawPointer?
    private(set) var capacity: Int

    /// The row number and line come first (4 bytes each), then the byte of the numbers that are there.
    private static let headerSize = 8

    init(fields: UInt16, capacity: Int) {
        self.fields = fields
        var layout: [RowSpan] = []
        var stored: [(offset: Int, size: Int)] = []
        for (position, field) in CanonicalField.allCases.enumerated() where fields & (1 << UInt16(position)) != 0 {
            stored += PackedValues.storage(of: field)
        }
        // Wider values first, so that they stay aligned as often as the row's stride allows.
        stored.sort { $0.size != $1.size ? $0.size > $1.size : $0.offset < $1.offset }
        var offset = Self.headerSize
        for (packedOffset, size) in stored {
            layout.append(RowSpan(packed: UInt8(packedOffset), row: UInt8(offset), size: UInt8(size)))
            offset += size
        }
        layout.append(RowSpan(packed: UInt8(PackedValues.presentByte), row: UInt8(offset), size: 1))
        offset += 1
        stride = (offset + 3) & ~3
        func rowOffset(ofPacked packed: Int) -> Int {
            layout.first { Int($0.packed) == packed }.map { Int($0.row) } ?? -1
        }
        func rowOffset(of field: CanonicalField) -> Int {
            rowOffset(ofPacked: PackedValues.storage(of: field)[0].offset)
        }
        identifierOffsets = (
            rowOffset(ofPacked: PackedValues.presentByte), rowOffset(of: .vtTag), rowOffset(of: .cnsNumber),
            rowOffset(of: .macAddress), rowOffset(of: .serialNumber)
        )
        spanCount = layout.count
        spans = .allocate(capacity: layout.count)
        spans.initialize(from: layout, count: layout.count)
        self.capacity = capacity
        bytes = capacity > 0 ? malloc(capacity * stride) : nil
        precondition(capacity == 0 || bytes != nil, "out of memory for \(capacity) rows")
    }

    deinit {
        free(bytes)
        spans.deallocate()
    }

    /// Storage for `capacity` rows keeping `fields`, holding the first `count` rows of this one.
    func copy(count: Int, capacity: Int, fields: UInt16) -> RowStorage {
        let copy = RowStorage(fields: fields, capacity: capacity)
        if fields == self.fields {
            if count > 0 { copy.bytes!.copyMemory(from: bytes!, byteCount: count * stride) }
        } else {
            let view = SourceRows.View(storage: self, count: count)
            for position in 0..<count {
                copy.encode(
                    row: view.row(at: position), line: view.line(at: position), packed: view.packed(at: position),
                    at: position)
            }
        }
        return copy
    }

    /// Makes room for `capacity` rows in place: the kernel moves a large block's pages instead of copying them.
    func grow(to capacity: Int) {
        let grown = realloc(bytes, capacity * stride)
        precondition(grown != nil, "out of memory for \(capacity) rows")
        bytes = grown
        self.capacity = capacity
    }

    func encode(row: Int32, line: Int32, packed: PackedValues, at position: Int) {
        let target = bytes! + position * stride
        target.storeBytes(of: row, as: Int32.self)
        target.storeBytes(of: line, toByteOffset: 4, as: Int32.self)
        withUnsafeBytes(of: packed) { packed in
            RowSpan.copy(spans, count: spanCount, from: packed.baseAddress!, to: target, intoRow: true)
        }
    }

    /// Copies the row bytes at `source` (a row of this layout) into the row at `position`, with `row` and `line`.
    func copy(_ source: UnsafeRawPointer, to position: Int, row: Int32, line: Int32) {
        let target = bytes! + position * stride
        target.copyMemory(from: source, byteCount: stride)
        target.storeBytes(of: row, as: Int32.self)
        target.storeBytes(of: line, toByteOffset: 4, as: Int32.self)
    }

    func replaceSerialCodes(in positions: Range<Int>, _ replacement: (SerialCode) -> SerialCode) {
        let serialOffset = identifierOffsets.serial
        guard serialOffset >= 0 else { return }
        for position in positions {
            let at = bytes! + position * stride + serialOffset
            let code = SerialCode(rawValue: at.loadUnaligned(as: UInt64.self))
            if !code.isNone { at.storeBytes(of: replacement(code).rawValue, as: UInt64.self) }
        }
    }
}
