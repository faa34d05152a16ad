/// Reads the structure of a ZIP file: the end of central directory record (found by scanning back from the end),
/// the ZIP64 end record when there is one, the central directory, and each entry's local header.
///
/// Every size and offset read from the file is checked against the file's length (and against the other
/// structures) before it is used; a value that does not fit gives a `ZipError`.
struct ZipDirectoryParser {
    /// The whole file.
    let bytes: [UInt8]
    /// The file's name for messages.
    let name: String

    private static let localHeaderSignature: UInt32 = 0x0403_4b50
    private static let centralHeaderSignature: UInt32 = 0x0201_4b50
    private static let endSignature: UInt32 = 0x0605_4b50
    private static let zip64EndSignature: UInt32 = 0x0606_4b50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    private static let descriptorSignature: UInt32 = 0x0807_4b50
    /// The first bytes of an OLE2 compound document (an encrypted .xlsx or an .xls).
    private static let compoundDocumentSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    /// Code page 437's characters for the bytes 0x80 to 0xFF.
    private static let codePage437: [Character] = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀"
            + "αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{00A0}")

    /// Where the central directory lies and how many entries it declares.
    private struct Directory {
        var offset: Int
        var size: Int
        var count: Int
    }

    /// The entries of the central directory, in its order, with their local headers checked.
    func entries() throws(ZipError) -> [ZipEntry] {
        if bytes.isEmpty { throw .notZip(file: name, kind: .empty) }
        if bytes.starts(with: ZipDirectoryParser.compoundDocumentSignature) {
            throw .notZip(file: name, kind: .compoundDocument)
        }
        guard let end = endRecordOffset() else {
            if bytes.starts(with: [0x50, 0x4B]) { throw .truncated(file: name) }
            throw .notZip(file: name, kind: looksLikeText() ? .text : .other)
        }
        let directory = try self.directory(endRecord: end)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(min(directory.count, directory.size / 46))
        var position = directory.offset
        let directoryEnd = directory.offset + directory.size
        for _ in 0..<directory.count {
            let (entry, next) = try centralEntry(at: position, directoryEnd: directoryEnd, dataEnd: directory.offset)
            entries.append(entry)
            position = next
        }
        try checkNoOverlap(entries)
        return entries
    }

    /// The offset of the end of central directory record: the last signature, scanning back over a comment of up to
    /// 65,535 bytes, whose comment length reaches exactly to the end of the file (or, failing that, fits in it).
    private func endRecordOffset() -> Int? {
        guard bytes.count >= 22 else { return nil }
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        var fitting: Int?
        var offset = bytes.count - 22
        while offset >= lowest {
            if uint32(at: offset) == ZipDirectoryParser.endSignature {
                let commentEnd = offset + 22 + Int(uint16(at: offset + 20))
                if commentEnd == bytes.count { return offset }
                if commentEnd < bytes.count && fitting == nil { fitting = offset }
            }
            offset -= 1
        }
        return fitting
    }

    /// The central directory's place and entry count, from the end record or the ZIP64 end record it points to.
    private func directory(endRecord end: Int) throws(ZipError) -> Directory {
        var directory = Directory(
            offset: Int(uint32(at: end + 16)), size: Int(uint32(at: end + 12)), count: Int(uint16(at: end + 10)))
        var directoryLimit = end
        let locator = end - 20
        if locator >= 0 && uint32(at: locator) == ZipDirectoryParser.zip64LocatorSignature {
            guard let record = Int(exactly: uint64(at: locator + 8)), fits(record, 56), record <= locator - 56,
                uint32(at: record) == ZipDirectoryParser.zip64EndSignature,
                let count = Int(exactly: uint64(at: record + 32)), let size = Int(exactly: uint64(at: record + 40)),
                let offset = Int(exactly: uint64(at: record + 48))
            else { throw .damagedDirectory(file: name) }
            directory = Directory(offset: offset, size: size, count: count)
            directoryLimit = record
        }
        guard directory.offset <= directoryLimit, directory.size <= directoryLimit - directory.offset else {
            throw .damagedDirectory(file: name)
        }
        // Each central record takes at least 46 bytes: a larger count cannot be true.
        guard directory.count <= directory.size / 46 else { throw .damagedDirectory(file: name) }
        return directory
    }

    /// The central directory record at `position` (ending by `directoryEnd`) as an entry whose local header (which
    /// must end, with its data, by `dataEnd`) is checked; and the position of the next record.
    private func centralEntry(
        at position: Int, directoryEnd: Int, dataEnd: Int
    ) throws(ZipError) -> (ZipEntry, Int) {
        guard position <= directoryEnd - 46, uint32(at: position) == ZipDirectoryParser.centralHeaderSignature else {
            throw .damagedDirectory(file: name)
        }
        let flags = uint16(at: position + 8)
        let nameLength = Int(uint16(at: position + 28))
        let extraLength = Int(uint16(at: position + 30))
        let commentLength = Int(uint16(at: position + 32))
        let next = position + 46 + nameLength + extraLength + commentLength
        guard next <= directoryEnd else { throw .damagedDirectory(file: name) }
        let nameBytes = Array(bytes[(position + 46)..<(position + 46 + nameLength)])
        let entryName = ZipDirectoryParser.decodeName(nameBytes, utf8: flags & 0x0800 != 0)
        var uncompressed = UInt64(uint32(at: position + 24))
        var compressed = UInt64(uint32(at: position + 20))
        var localOffset = UInt64(uint32(at: position + 42))
        let extraStart = position + 46 + nameLength
        if let zip64 = field(0x0001, in: extraStart..<(extraStart + extraLength)) {
            // Only the values whose header field is 0xFFFFFFFF are present, in this order.
            var reader = zip64.lowerBound
            func widened(_ value: UInt64) throws(ZipError) -> UInt64 {
                guard value == 0xFFFF_FFFF else { return value }
                guard reader + 8 <= zip64.upperBound else { throw .damagedDirectory(file: name) }
                defer { reader += 8 }
                return uint64(at: reader)
            }
            uncompressed = try widened(uncompressed)
            compressed = try widened(compressed)
            localOffset = try widened(localOffset)
        }
        guard let uncompressedSize = Int(exactly: uncompressed), let compressedSize = Int(exactly: compressed),
            let localHeaderOffset = Int(exactly: localOffset)
        else { throw .damagedDirectory(file: name) }
        let (dataOffset, recordEnd) = try localRecord(
            at: localHeaderOffset, compressedSize: compressedSize, flags: flags, dataEnd: dataEnd, entry: entryName)
        let entry = ZipEntry(
            name: entryName, nameBytes: nameBytes, method: uint16(at: position + 10), flags: flags,
            crc32: uint32(at: position + 16), compressedSize: compressedSize, uncompressedSize: uncompressedSize,
            localHeaderOffset: localHeaderOffset, dataOffset: dataOffset, recordEnd: recordEnd,
            modificationTime: uint16(at: position + 12), modificationDate: uint16(at: position + 14),
            externalAttributes: uint32(at: position + 38))
        return (entry, next)
    }

    /// Where the data of the local record at `offset` starts (after the local header's own name and extra field,
    /// whose lengths may differ from the central ones) and where the record ends (after the data descriptor, if
    /// any); the whole record must end by `dataEnd`.
    private func localRecord(
        at offset: Int, compressedSize: Int, flags: UInt16, dataEnd: Int, entry: String
    ) throws(ZipError) -> (Int, Int) {
        guard offset <= dataEnd - 30, uint32(at: offset) == ZipDirectoryParser.localHeaderSignature else {
            throw .damagedEntry(file: name, entry: entry)
        }
        let nameLength = Int(uint16(at: offset + 26))
        let extraLength = Int(uint16(at: offset + 28))
        let dataOffset = offset + 30 + nameLength + extraLength
        guard dataOffset <= dataEnd, compressedSize <= dataEnd - dataOffset else {
            throw .damagedEntry(file: name, entry: entry)
        }
        var recordEnd = dataOffset + compressedSize
        if flags & 0x0008 != 0 {
            // CRC-32 and the two sizes, 4 or 8 bytes each (8 when the local header has a ZIP64 field), after an
            // optional signature.
            let extraStart = offset + 30 + nameLength
            let isZip64 = field(0x0001, in: extraStart..<(extraStart + extraLength)) != nil
            var length = isZip64 ? 20 : 12
            if recordEnd <= dataEnd - 4 && uint32(at: recordEnd) == ZipDirectoryParser.descriptorSignature {
                length += 4
            }
            guard length <= dataEnd - recordEnd else { throw .damagedEntry(file: name, entry: entry) }
            recordEnd += length
        }
        return (dataOffset, recordEnd)
    }

    /// The data range of the extra-field record `identifier` among the records in `range`, or `nil`.
    private func field(_ identifier: UInt16, in range: Range<Int>) -> Range<Int>? {
        var position = range.lowerBound
        while position + 4 <= range.upperBound {
            let size = Int(uint16(at: position + 2))
            let start = position + 4
            guard start + size <= range.upperBound else { return nil }
            if uint16(at: position) == identifier { return start..<(start + size) }
            position = start + size
        }
        return nil
    }

    /// Refuses entries whose stored records overlap (as in a ZIP bomb that reuses one stream for many entries).
    private func checkNoOverlap(_ entries: [ZipEntry]) throws(ZipError) {
        let ordered = entries.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (earlier, later) in zip(ordered, ordered.dropFirst()) where earlier.recordEnd > later.localHeaderOffset {
            throw .damagedEntry(file: name, entry: later.name)
        }
    }

    /// Whether the first bytes look like text: no control characters but tab, line feed, form feed and carriage
    /// return, or a UTF-16 byte-order mark.
    private func looksLikeText() -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        return bytes.prefix(512).allSatisfy { byte in
            (byte >= 0x20 && byte != 0x7F) || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }
    }

    /// An entry name's text: UTF-8 when flag bit 11 says so or the bytes are valid UTF-8, otherwise code page 437.
    static func decodeName(_ bytes: [UInt8], utf8: Bool) -> String {
        if utf8 || bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = ""
        for byte in bytes {
            text.append(byte < 0x80 ? Character(Unicode.Scalar(byte)) : codePage437[Int(byte) - 0x80])
        }
        return text
    }

    /// Whether `length` bytes from `offset` lie inside the file.
    private func fits(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    // The readers below are only called on offsets already checked to lie inside the file.

    private func uint16(at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private func uint32(at offset: Int) -> UInt32 {
        UInt32(uint16(at: offset)) | UInt32(uint16(at: offset + 2)) << 16
    }

    private func uint64(at offset: Int) -> UInt64 {
        UInt64(uint32(at: offset)) | UInt64(uint32(at: offset + 4)) << 32
    }
}
