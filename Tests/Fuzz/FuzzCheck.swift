// What every fuzz target asserts of what it got back. A violation traps, so libFuzzer keeps the input.
@testable import StocktakeCore

enum FuzzCheck {
    /// Traps when `text`, a sentence shown to a user, is empty: every refusal must say why.
    static func sentence(_ text: String) {
        if text.isEmpty { fatalError("an empty message") }
    }

    /// Renders what a read gave, as the outputs would: each issue's reason and every field of the first records,
    /// each of which must normalize again to the same text (`cleaned.csv` is read back the next night).
    static func rendered(_ source: SourceData) {
        for issue in source.issues {
            sentence(issue.reason)
        }
        for record in source.records.prefix(64) {
            let values = record.values
            for field in CanonicalField.allCases {
                _ = values.text(field)
            }
            if let tag = values.vtTag {
                let again = VTTag.normalize(tag.description, digits: 6)
                if again != .value(tag) { fatalError("tag \(tag) reads back as \(again)") }
            }
            if let address = values.macAddress, MACAddress.normalize(address.description) != .value(address) {
                fatalError("MAC \(address) does not read back")
            }
        }
    }
}
