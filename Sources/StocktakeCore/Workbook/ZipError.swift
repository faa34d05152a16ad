#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A problem that stops reading a ZIP file (an .xlsx workbook) or one of its entries.
///
/// The cases are typed causes, so that the workbook layer can tell them apart without reading the text; each
/// description is a sentence naming the file (and the entry) and saying what to do.
public enum ZipError: Error, Equatable, CustomStringConvertible {
    /// What a file that is not a ZIP file looks like, judged by its first bytes.
    public enum FileKind: Sendable, Equatable {
        /// The file has no bytes at all.
        case empty
        /// An OLE2 compound document (`D0 CF 11 E0 A1 B1 1A E1`): an .xlsx saved with a password (Office encrypts the
        /// whole workbook into one) or an old Excel 97-2003 .xls workbook.
        case compoundDocument
        /// Text (a CSV, HTML or XML file given a workbook's name).
        case text
        /// Anything else.
        case other
    }

    /// The file is not a ZIP file, so not an .xlsx workbook.
    case notZip(file: String, kind: FileKind)
    /// The file ends before its ZIP structure does (cut off while being copied, downloaded or saved).
    case truncated(file: String)
    /// The ZIP directory (end record or central directory) is malformed.
    case damagedDirectory(file: String)
    /// The entry's local header does not match the ZIP directory, or its data overlaps another entry's.
    case damagedEntry(file: String, entry: String)
    /// The entry is encrypted (flag bit 0 or 6).
    case encryptedEntry(file: String, entry: String)
    /// The entry is compressed with a method other than stored (0) or deflated (8).
    case unsupportedMethod(file: String, entry: String, method: UInt16)
    /// The entry declares, or inflates to, more than `limit` bytes.
    case entryTooLarge(file: String, entry: String, limit: Int)
    /// The entry declares, or inflates to, more than `limit` bytes per compressed byte.
    case ratioTooHigh(file: String, entry: String, limit: Int)
    /// The entry inflates to a different size than its ZIP directory declares.
    case sizeMismatch(file: String, entry: String, declared: Int)
    /// The entry's deflate data is malformed or ends early.
    case corruptData(file: String, entry: String)
    /// The entry's CRC-32 does not match its inflated contents.
    case checksumMismatch(file: String, entry: String)
    /// The file could not be read; `errno` is the system's error code (ENOENT, EACCES, EISDIR, EFBIG ...).
    case unreadable(file: String, errno: Int32)

    /// One sentence naming the file (and the entry), what is wrong and what to do about it.
    public var description: String {
        let again = "Copy the file again from where it came from, or open it in a spreadsheet and save it again."
        let source = "Check where the file came from and export the workbook again."
        switch self {
        case .notZip(let file, .empty):
            return "\(file): the file is empty (0 bytes), so it is not an .xlsx workbook. "
                + "Copy or export the workbook again."
        case .notZip(let file, .compoundDocument):
            return "\(file): the file is not an .xlsx workbook but an Office compound document: "
                + "either a workbook saved with a password or an old Excel 97-2003 .xls workbook. "
                + "Open it in a spreadsheet, remove the password, and save it as an Excel workbook (.xlsx)."
        case .notZip(let file, .text):
            return "\(file): the file is text (perhaps a CSV or HTML file with a workbook's name), "
                + "not an .xlsx workbook. Give it its right extension, or open it in a spreadsheet "
                + "and save it as an Excel workbook (.xlsx)."
        case .notZip(let file, .other):
            return "\(file): the file is not an .xlsx workbook (it is not a ZIP file). "
                + "Open it in a spreadsheet and save it as an Excel workbook (.xlsx)."
        case .truncated(let file):
            return "\(file): the workbook file is cut off (it ends before its ZIP directory does); it was not read. "
                + again
        case .damagedDirectory(let file):
            return "\(file): the workbook's ZIP directory is damaged; it was not read. " + again
        case .damagedEntry(let file, let entry):
            return "\(file): the entry \(entry) is damaged (its header does not match the ZIP directory); "
                + "it was not read. " + again
        case .encryptedEntry(let file, let entry):
            return "\(file): the entry \(entry) is encrypted; it was not read. "
                + "Open the workbook in a spreadsheet, remove the password, and save it again."
        case .unsupportedMethod(let file, let entry, let method):
            return "\(file): the entry \(entry) is compressed with \(ZipError.methodName(method)), "
                + "which cannot be read (only stored and deflated entries can); it was not read. "
                + "Open the workbook in a spreadsheet and save it again as an Excel workbook (.xlsx)."
        case .entryTooLarge(let file, let entry, let limit):
            return "\(file): the entry \(entry) inflates to more than \(ZipError.byteCount(limit)) "
                + "(a ZIP bomb?); it was not read. " + source
        case .ratioTooHigh(let file, let entry, let limit):
            return "\(file): the entry \(entry) inflates to more than \(limit) times its compressed size "
                + "(a ZIP bomb?); it was not read. " + source
        case .sizeMismatch(let file, let entry, let declared):
            return "\(file): the entry \(entry) does not inflate to the \(declared) bytes its ZIP directory "
                + "declares (a damaged file or a ZIP bomb?); it was not read. " + again
        case .corruptData(let file, let entry):
            return "\(file): the entry \(entry) is damaged (its compressed data cannot be inflated); "
                + "it was not read. " + again
        case .checksumMismatch(let file, let entry):
            return "\(file): the entry \(entry) is damaged (its CRC-32 checksum does not match its contents); "
                + "it was not read. " + again
        case .unreadable(let file, let code):
            return "\(file): the file cannot be read (\(ZipError.systemReason(code))). "
                + "Check that the path is right and the file is readable."
        }
    }

    /// The name of a ZIP compression method, e.g. "LZMA (method 14)".
    static func methodName(_ method: UInt16) -> String {
        let names: [UInt16: String] = [
            1: "Shrink", 2: "Reduce", 3: "Reduce", 4: "Reduce", 5: "Reduce", 6: "Implode", 9: "Deflate64",
            10: "PKWARE DCL Implode", 12: "bzip2", 14: "LZMA", 18: "IBM TERSE", 19: "IBM LZ77", 93: "Zstandard",
            94: "MP3", 95: "XZ", 96: "JPEG", 97: "WavPack", 98: "PPMd", 99: "AES encryption",
        ]
        guard let name = names[method] else { return "the unknown method \(method)" }
        return "\(name) (method \(method))"
    }

    /// A byte count as a person reads it: "1 GiB", "64 MiB", "512 KiB" or "1000 bytes".
    static func byteCount(_ count: Int) -> String {
        for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where count >= size && count % size == 0 {
            return "\(count / size) \(unit)"
        }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// The system's text for an `errno` value, such as "No such file or directory".
    static func systemReason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
