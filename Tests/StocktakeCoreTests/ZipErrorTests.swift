import Foundation
import Testing

@testable import StocktakeCore

@Suite("ZipError")
struct ZipErrorTests {
    @Test("methods are named with their number")
    func methodNames() {
        #expect(ZipError.methodName(14) == "LZMA (method 14)")
        #expect(ZipError.methodName(12) == "bzip2 (method 12)")
        #expect(ZipError.methodName(99) == "AES encryption (method 99)")
        #expect(ZipError.methodName(9) == "Deflate64 (method 9)")
        #expect(ZipError.methodName(77) == "the unknown method 77")
    }

    @Test("byte counts read as people read them")
    func byteCounts() {
        #expect(ZipError.byteCount(1 << 30) == "1 GiB")
        #expect(ZipError.byteCount(64 << 20) == "64 MiB")
        #expect(ZipError.byteCount(512 << 10) == "512 KiB")
        #expect(ZipError.byteCount(1000) == "1000 bytes")
        #expect(ZipError.byteCount(1) == "1 byte")
    }

    @Test("each message names the file (and the entry) and says what to do")
    func descriptions() {
        #expect(
            ZipError.unsupportedMethod(file: "a.xlsx", entry: "xl/styles.xml", method: 12).description
                == "a.xlsx: the entry xl/styles.xml is compressed with bzip2 (method 12), which cannot be read "
                + "(only stored and deflated entries can); it was not read. "
                + "Open the workbook in a spreadsheet and save it again as an Excel workbook (.xlsx).")
        #expect(
            ZipError.entryTooLarge(file: "a.xlsx", entry: "xl/worksheets/sheet1.xml", limit: 64 << 20).description
                == "a.xlsx: the entry xl/worksheets/sheet1.xml inflates to more than 64 MiB (a ZIP bomb?); "
                + "it was not read. Check where the file came from and export the workbook again.")
        #expect(
            ZipError.unreadable(file: "a.xlsx", errno: EACCES).description
                == "a.xlsx: the file cannot be read (Permission denied). "
                + "Check that the path is right and the file is readable.")
        #expect(
            ZipError.unreadable(file: "a.xlsx", errno: EFBIG).description
                == "a.xlsx: the file cannot be read (File too large). "
                + "Check that the path is right and the file is readable.")
    }
}
