/// Writes a ZIP file entry by entry, handing its bytes to a sink as they are made, so that a workbook whose sheet
/// unzips to hundreds of megabytes is never held whole in memory.
///
/// Entries are deflated (raw deflate) by `DeflateEncoder`: blocks compressed apart (`CompressedBlock`, a sheet's rows,
/// on any thread) and the bytes written between them, gathered and compressed together. An entry streamed in pieces (`beginEntry`, `write`, `endEntry`) is
/// followed by a data descriptor carrying its CRC-32 and sizes, since they are known only at its end and the sink
/// cannot seek back; an entry given whole (`addEntry`) has them in its local header. Every entry bears the same
/// modification time, 1980-01-01 00:00, so the same contents always make the same bytes. ZIP64 fields are written
/// exactly when a size, an offset or the number of entries does not fit the classic 32-bit (16-bit) fields.
///
/// An entry of another archive can be copied byte for byte, its compressed data untouched (`copyEntry`): the
/// write-back of a workbook keeps every part it does not edit exactly as it was.
final class ZipWriter {
    /// Receives the archive's bytes, in order; throws when they cannot be written.
    typealias Sink = ([UInt8]) throws(StocktakeError) -> Void

    /// A piece of an entry compressed on its own, possibly on another thread (`compress(_:)`), then added
    /// to the open entry with `write(_:)`.
    struct CompressedBlock: Sendable {
        /// Raw deflate data ending with a sync flush: byte-aligned, and not the stream's last block.
        var bytes: [UInt8]
        /// The CRC-32 of the uncompressed piece.
        var crc32: UInt32
        /// The uncompressed piece's length.
        var count: Int

        /// Compresses `input` independently of anything before or after it, with `DeflateEncoder`: blocks carry the
        /// rows of a sheet, nearly all of a workbook's bytes.
        static func compress(_ input: UnsafeRawBufferPointer) -> CompressedBlock {
            CompressedBlock(bytes: DeflateEncoder.compress(input), crc32: ZipChecksum.crc32(input), count: input.count)
        }

        /// Compresses `input` independently of anything before or after it.
        static func compress(_ input: [UInt8]) -> CompressedBlock {
            input.withUnsafeBytes { compress($0) }
        }
    }

    /// The central directory fields of an entry copied from another archive, as its central header gives them.
    struct CopiedEntry: Sendable, Equatable {
        /// The entry's name as stored (UTF-8 when `flags` has bit 11).
        var name: [UInt8]
        var versionNeeded: UInt16
        var flags: UInt16
        var method: UInt16
        var modificationTime: UInt16
        var modificationDate: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
    }

    /// One entry as the central directory lists it.
    private struct CentralRecord {
        var name: [UInt8]
        var versionNeeded: UInt16
        var flags: UInt16
        var method: UInt16
        var time: UInt16
        var date: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var offset: Int
    }

    /// The entry being streamed.
    private struct OpenEntry {
        var record: CentralRecord
        /// Bytes written to the entry and not yet compressed: they are compressed together before the next block,
        /// at the entry's end, or once there are `gatheredLimit` of them.
        var gathered: [UInt8] = []
    }

    /// The most written bytes gathered before they are compressed.
    private static let gatheredLimit = 1 << 20

    /// The path the archive is written to, for messages.
    let path: String
    private let sink: Sink
    /// Sizes and offsets from this value on are written as ZIP64 (0xFFFFFFFF; tests force ZIP64 with less).
    private let zip64Threshold: Int
    private var records: [CentralRecord] = []
    private var names: Set<[UInt8]> = []
    private var open: OpenEntry?
    /// Bytes handed to the sink so far, and bytes waiting to be.
    private var offset = 0
    private var pending: [UInt8] = []
    private var isFinished = false

    /// The sink gets pieces of about this size.
    private static let pieceSize = 1 << 20
    /// 1980-01-01 00:00 in MS-DOS form, the earliest time a ZIP header holds.
    static let modificationDate: UInt16 = (0 << 9) | (1 << 5) | 1
    static let modificationTime: UInt16 = 0

    /// A writer handing the archive to `sink`; `path` names it in messages.
    convenience init(path: String, sink: @escaping Sink) {
        self.init(path: path, zip64Threshold: Int(UInt32.max), sink: sink)
    }

    /// A writer writing the archive into `file`, which the caller commits after `finish()`.
    convenience init(file: AtomicFileWriter) {
        self.init(path: file.path) { (bytes: [UInt8]) throws(StocktakeError) in try file.write(bytes) }
    }

    /// A writer that writes ZIP64 fields for sizes and offsets from `zip64Threshold` on, so tests can exercise them
    /// without writing 4 GiB.
    init(path: String, zip64Threshold: Int, sink: @escaping Sink) {
        self.path = path
        self.sink = sink
        self.zip64Threshold = min(zip64Threshold, Int(UInt32.max))
        pending.reserveCapacity(Self.pieceSize + (1 << 16))
    }

    /// Opens an entry named `name` (a path inside the archive such as `xl/workbook.xml`) whose contents follow in
    /// `write` calls, closed by `endEntry()`.
    func beginEntry(name: String) throws(StocktakeError) {
        precondition(open == nil && !isFinished, "an entry of \(path) is already open, or the archive is finished")
        let nameBytes = try claim(name)
        let record = CentralRecord(
            name: nameBytes, versionNeeded: 20, flags: Self.flags(for: nameBytes) | 0x0008, method: 8,
            time: Self.modificationTime, date: Self.modificationDate, crc32: 0, compressedSize: 0,
            uncompressedSize: 0, offset: offset + pending.count)
        appendLocalHeader(record, sizesKnown: false)
        open = OpenEntry(record: record)
    }

    /// Adds `bytes` to the open entry.
    func write(_ bytes: [UInt8]) throws(StocktakeError) {
        bytes.withUnsafeBytes { absorb($0) }
        try handOver()
    }

    /// Adds `bytes` to the open entry.
    func write(_ bytes: UnsafeRawBufferPointer) throws(StocktakeError) {
        absorb(bytes)
        try handOver()
    }

    /// Adds `bytes` to the open entry's gathered bytes.
    private func absorb(_ bytes: UnsafeRawBufferPointer) {
        precondition(open != nil, "no entry of \(path) is open")
        guard !bytes.isEmpty else { return }
        open!.record.crc32 = ZipChecksum.crc32(bytes, continuing: open!.record.crc32)
        open!.record.uncompressedSize += bytes.count
        open!.gathered.append(contentsOf: bytes)
        if open!.gathered.count >= Self.gatheredLimit { compressGathered() }
    }

    /// Compresses the open entry's gathered bytes into the archive, ending with a sync flush.
    private func compressGathered() {
        guard !open!.gathered.isEmpty else { return }
        let compressed = DeflateEncoder.compress(open!.gathered)
        open!.gathered.removeAll(keepingCapacity: true)
        pending.append(contentsOf: compressed)
        open!.record.compressedSize += compressed.count
    }

    /// Adds a block compressed on its own to the open entry, after the bytes written before it; each piece ends with
    /// a sync flush, so the entry stays one valid deflate stream.
    func write(_ block: CompressedBlock) throws(StocktakeError) {
        precondition(open != nil, "no entry of \(path) is open")
        compressGathered()
        let before = pending.count
        pending.append(contentsOf: block.bytes)
        open!.record.compressedSize += pending.count - before
        open!.record.crc32 = ZipChecksum.combine(open!.record.crc32, block.crc32, secondCount: block.count)
        open!.record.uncompressedSize += block.count
        try handOver()
    }

    /// Closes the open entry: ends its deflate stream and writes its data descriptor.
    func endEntry() throws(StocktakeError) {
        precondition(open != nil, "no entry of \(path) is open")
        compressGathered()
        var record = open!.record
        open = nil
        pending.append(contentsOf: DeflateEncoder.finalBlock)
        record.compressedSize += DeflateEncoder.finalBlock.count
        let isZip64 = record.compressedSize >= zip64Threshold || record.uncompressedSize >= zip64Threshold
        if isZip64 { record.versionNeeded = 45 }
        appendInteger(0x0807_4B50, 4)
        appendInteger(Int(record.crc32), 4)
        appendInteger(record.compressedSize, isZip64 ? 8 : 4)
        appendInteger(record.uncompressedSize, isZip64 ? 8 : 4)
        records.append(record)
        try handOver()
    }

    /// Adds an entry whose whole contents are given; its local header carries its CRC-32 and sizes.
    func addEntry(name: String, contents: [UInt8]) throws(StocktakeError) {
        precondition(open == nil && !isFinished, "an entry of \(path) is open, or the archive is finished")
        let nameBytes = try claim(name)
        let compressed = DeflateEncoder.compress(contents) + DeflateEncoder.finalBlock
        let record = CentralRecord(
            name: nameBytes, versionNeeded: 20, flags: Self.flags(for: nameBytes), method: 8,
            time: Self.modificationTime, date: Self.modificationDate, crc32: ZipChecksum.crc32(contents),
            compressedSize: compressed.count, uncompressedSize: contents.count, offset: offset + pending.count)
        try addRecord(record, data: compressed)
    }

    /// Adds an entry of another archive byte for byte: `record` is its local header, compressed data and data
    /// descriptor exactly as stored there, and `entry` its central directory fields. Nothing is decompressed or
    /// checked: the reader checked the entry when it listed it.
    func copyEntry(record: ArraySlice<UInt8>, entry: CopiedEntry) throws(StocktakeError) {
        precondition(open == nil && !isFinished, "an entry of \(path) is open, or the archive is finished")
        guard names.insert(entry.name).inserted else {
            throw duplicate(String(decoding: entry.name, as: UTF8.self))
        }
        records.append(
            CentralRecord(
                name: entry.name, versionNeeded: entry.versionNeeded, flags: entry.flags, method: entry.method,
                time: entry.modificationTime, date: entry.modificationDate, crc32: entry.crc32,
                compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize,
                offset: offset + pending.count))
        pending.append(contentsOf: record)
        try handOver()
    }

    /// Writes the central directory and its end records, and hands the last bytes to the sink. The caller then
    /// commits the file the sink writes to.
    func finish() throws(StocktakeError) {
        precondition(open == nil && !isFinished, "an entry of \(path) is open, or the archive is finished")
        isFinished = true
        let directoryOffset = offset + pending.count
        for record in records { appendCentralHeader(record) }
        let directorySize = offset + pending.count - directoryOffset
        let needsZip64 =
            records.count >= 0xFFFF || directorySize >= zip64Threshold || directoryOffset >= zip64Threshold
        if needsZip64 {
            let recordOffset = offset + pending.count
            appendInteger(0x0606_4B50, 4)
            appendInteger(44, 8)
            appendInteger(45, 2)
            appendInteger(45, 2)
            appendInteger(0, 4)
            appendInteger(0, 4)
            appendInteger(records.count, 8)
            appendInteger(records.count, 8)
            appendInteger(directorySize, 8)
            appendInteger(directoryOffset, 8)
            appendInteger(0x0706_4B50, 4)
            appendInteger(0, 4)
            appendInteger(recordOffset, 8)
            appendInteger(1, 4)
        }
        appendInteger(0x0605_4B50, 4)
        appendInteger(0, 2)
        appendInteger(0, 2)
        appendInteger(min(records.count, 0xFFFF), 2)
        appendInteger(min(records.count, 0xFFFF), 2)
        appendInteger(directorySize >= zip64Threshold ? 0xFFFF_FFFF : directorySize, 4)
        appendInteger(directoryOffset >= zip64Threshold ? 0xFFFF_FFFF : directoryOffset, 4)
        appendInteger(0, 2)
        try handOver(all: true)
    }

    /// Registers `name`, refusing one already in the archive; returns its UTF-8 bytes.
    private func claim(_ name: String) throws(StocktakeError) -> [UInt8] {
        let bytes = Array(name.utf8)
        precondition(!bytes.isEmpty && bytes.count <= 0xFFFF, "a ZIP entry name has 1 to 65,535 bytes: \(name)")
        guard names.insert(bytes).inserted else { throw duplicate(name) }
        return bytes
    }

    private func duplicate(_ name: String) -> StocktakeError {
        .cannotWrite(path: path, reason: "it would hold two entries named \"\(name)\", which no reader can tell apart")
    }

    /// Bit 11 (names in UTF-8) for a name with bytes outside ASCII.
    private static func flags(for name: [UInt8]) -> UInt16 {
        name.contains(where: { $0 >= 0x80 }) ? 0x0800 : 0
    }

    /// Writes the local header and data of an entry whose sizes are known.
    private func addRecord(_ record: CentralRecord, data: [UInt8]) throws(StocktakeError) {
        var record = record
        if record.compressedSize >= zip64Threshold || record.uncompressedSize >= zip64Threshold {
            record.versionNeeded = 45
        }
        appendLocalHeader(record, sizesKnown: true)
        records.append(record)
        pending.append(contentsOf: data)
        try handOver()
    }

    /// A local header; with the sizes unknown they are zeros and follow in a data descriptor.
    private func appendLocalHeader(_ record: CentralRecord, sizesKnown: Bool) {
        let isZip64 =
            sizesKnown && (record.compressedSize >= zip64Threshold || record.uncompressedSize >= zip64Threshold)
        appendInteger(0x0403_4B50, 4)
        appendInteger(Int(record.versionNeeded), 2)
        appendInteger(Int(record.flags), 2)
        appendInteger(Int(record.method), 2)
        appendInteger(Int(record.time), 2)
        appendInteger(Int(record.date), 2)
        appendInteger(sizesKnown ? Int(record.crc32) : 0, 4)
        appendInteger(sizesKnown ? (isZip64 ? 0xFFFF_FFFF : record.compressedSize) : 0, 4)
        appendInteger(sizesKnown ? (isZip64 ? 0xFFFF_FFFF : record.uncompressedSize) : 0, 4)
        appendInteger(record.name.count, 2)
        appendInteger(isZip64 ? 20 : 0, 2)
        pending.append(contentsOf: record.name)
        if isZip64 {
            // The local ZIP64 field holds both sizes, uncompressed first.
            appendInteger(0x0001, 2)
            appendInteger(16, 2)
            appendInteger(record.uncompressedSize, 8)
            appendInteger(record.compressedSize, 8)
        }
    }

    /// A central directory header, with a ZIP64 field holding exactly the values too large for their own field.
    private func appendCentralHeader(_ record: CentralRecord) {
        let large = [record.uncompressedSize, record.compressedSize, record.offset].filter { $0 >= zip64Threshold }
        appendInteger(0x0201_4B50, 4)
        appendInteger(45, 2)
        appendInteger(Int(record.versionNeeded), 2)
        appendInteger(Int(record.flags), 2)
        appendInteger(Int(record.method), 2)
        appendInteger(Int(record.time), 2)
        appendInteger(Int(record.date), 2)
        appendInteger(Int(record.crc32), 4)
        appendInteger(record.compressedSize >= zip64Threshold ? 0xFFFF_FFFF : record.compressedSize, 4)
        appendInteger(record.uncompressedSize >= zip64Threshold ? 0xFFFF_FFFF : record.uncompressedSize, 4)
        appendInteger(record.name.count, 2)
        appendInteger(large.isEmpty ? 0 : 4 + 8 * large.count, 2)
        appendInteger(0, 2)
        appendInteger(0, 2)
        appendInteger(0, 2)
        appendInteger(0, 4)
        appendInteger(record.offset >= zip64Threshold ? 0xFFFF_FFFF : record.offset, 4)
        pending.append(contentsOf: record.name)
        if !large.isEmpty {
            appendInteger(0x0001, 2)
            appendInteger(8 * large.count, 2)
            for value in large { appendInteger(value, 8) }
        }
    }

    /// Appends `value` little-endian in `width` bytes.
    private func appendInteger(_ value: Int, _ width: Int) {
        let bits = UInt64(truncatingIfNeeded: value)
        for index in 0..<width { pending.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))) }
    }

    /// Hands the pending bytes to the sink once there are enough of them (or all of them).
    private func handOver(all: Bool = false) throws(StocktakeError) {
        guard pending.count >= Self.pieceSize || (all && !pending.isEmpty) else { return }
        offset += pending.count
        // Emptied after the sink is done with the bytes, so that the buffer is the only one and is reused, not
        // allocated afresh for each piece.
        defer { pending.removeAll(keepingCapacity: true) }
        try sink(pending)
    }
}
