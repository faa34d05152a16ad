import StocktakeCore
import Testing

struct ByteTrimTests {
    @Test func trimsBlankBytesAtBothEnds() {
        let bytes: [UInt8] = [0x20, 0xC2, 0xA0, 0x09, 0x41, 0x20, 0x42, 0x0D, 0x0A, 0xC2, 0xA0]
        let trimmed = bytes.withUnsafeBufferPointer { Array(ByteTrim.trimmed($0)) }
        #expect(trimmed == [0x41, 0x20, 0x42])
    }

    @Test func trimsToNothing() {
        let bytes: [UInt8] = [0x20, 0xC2, 0xA0, 0x0A]
        #expect(bytes.withUnsafeBufferPointer { ByteTrim.trimmed($0).count } == 0)
        #expect([UInt8]().withUnsafeBufferPointer { ByteTrim.trimmed($0).count } == 0)
    }

    @Test func keepsALoneLeadByteOfANoBreakSpace() {
        let bytes: [UInt8] = [0xC2, 0x41, 0xA0]
        #expect(bytes.withUnsafeBufferPointer { Array(ByteTrim.trimmed($0)) } == bytes)
    }

    /// The trim as DOMAIN.md states it, one end at a time, on a `String`-free byte array.
    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var text = bytes[...]
        while true {
            if let first = text.first, [0x20, 0x09, 0x0D, 0x0A].contains(first) {
                text = text.dropFirst()
            } else if text.starts(with: [0xC2, 0xA0]) {
                text = text.dropFirst(2)
            } else {
                break
            }
        }
        while true {
            if let last = text.last, [0x20, 0x09, 0x0D, 0x0A].contains(last) {
                text = text.dropLast()
            } else if text.count >= 2 && Array(text.suffix(2)) == [0xC2, 0xA0] {
                text = text.dropLast(2)
            } else {
                break
            }
        }
        return Array(text)
    }

    @Test func everyShortCellOfBlanksAndLettersIsTrimmedLikeTheReference() {
        let alphabet: [UInt8] = [0x20, 0x09, 0x0A, 0xC2, 0xA0, 0x41, 0x1F]
        var cells: [[UInt8]] = [[]]
        for _ in 0..<4 {
            cells += cells.filter { $0.count == cells.last!.count }.flatMap { cell in alphabet.map { cell + [$0] } }
        }
        #expect(cells.count == 1 + 7 + 49 + 343 + 2401)
        for cell in cells {
            let trimmed = cell.withUnsafeBufferPointer { Array(ByteTrim.trimmed($0)) }
            #expect(trimmed == Self.reference(cell), "\(cell)")
        }
    }

    @Test func aCellWithNothingToTrimIsItself() {
        let bytes: [UInt8] = [0x41, 0x20, 0x42]
        bytes.withUnsafeBufferPointer { cell in
            let trimmed = ByteTrim.trimmed(cell)
            #expect(trimmed.baseAddress == cell.baseAddress && trimmed.count == 3)
        }
    }
}
