/// The CSV form of each text of a `SharedStringTable` (neutralized and quoted as `CSVWriter.appendField` writes it),
/// made once, so that a table whose cells repeat a few texts copies each cell's bytes instead of looking at them again.
struct CSVFieldTable: Sendable {
    /// The fields, one after the other.
    private let bytes: [UInt8]
    /// Where each field starts in `bytes`, by index, and where the last one ends.
    private let starts: [Int]

    init(_ table: SharedStringTable) {
        var bytes: [UInt8] = []
        var starts = [0]
        starts.reserveCapacity(table.count + 1)
        for index in 0..<table.count {
            table.bytes(at: index).withUnsafeBufferPointer { CSVWriter.appendField($0, to: &bytes) }
            starts.append(bytes.count)
        }
        self.bytes = bytes
        self.starts = starts
    }

    /// Appends the field of the text at `index`; nothing for -1, an empty cell.
    @inline(__always)
    func append<Output: ByteSink & ~Copyable>(_ index: Int32, to output: inout Output) {
        guard index >= 0 else { return }
        let start = starts[Int(index)]
        let end = starts[Int(index) + 1]
        bytes.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }
}
