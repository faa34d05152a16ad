/// Points at one kept record: which source (in reconciliation order) and which record of it.
struct RecordReference: Hashable, Sendable {
    var source: Int32
    var record: Int32

    init(source: Int, record: Int) {
        self.source = Int32(source)
        self.record = Int32(record)
    }
}
