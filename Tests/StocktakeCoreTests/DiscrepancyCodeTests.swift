import Foundation
import Testing

@testable import StocktakeCore

@Suite("DiscrepancyCode: the public codes and their severities")
struct DiscrepancyCodeTests {
    /// The code and severity columns of DOMAIN.md's "Discrepancies" table, copied literally.
    static let domainTable = """
        | `MISSING` | error |
        | `UNRECORDED` | error |
        | `NO_TAG` | warning |
        | `DUPLICATE_TAG` | error |
        | `SHARED_SERIAL` | error |
        | `SHARED_MAC` | error |
        | `TAG_CNS_MISMATCH` | error |
        | `CNS_REUSED` | error |
        | `NO_CNS` | warning |
        | `POSSIBLE_TYPO` | warning |
        | `FIELD_CONFLICT` | warning |
        | `INVALID_VALUE` | warning |
        | `UNKNOWN_BUILDING` | warning |
        | `STALE` | warning |
        | `DUPLICATE_ROW` | info |
        """

    /// `domainTable` as (code, severity) pairs, in table order.
    static let documented: [(code: String, severity: String)] = domainTable.split(separator: "\n").map { line in
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: [" ", "`"]) }
        return (cells[0], cells[1])
    }

    @Test func theTableHasFifteenCodes() {
        #expect(Self.documented.count == 15)
        #expect(Self.documented.first?.code == "MISSING")
        #expect(Self.documented.last?.severity == "info")
    }

    @Test func everyDocumentedCodeExistsWithItsSeverity() throws {
        for (name, severity) in Self.documented {
            let code = try #require(DiscrepancyCode(rawValue: name), "\(name) is not a code")
            #expect(code.severity.rawValue == severity, "\(name)")
        }
    }

    @Test func everyCodeIsDocumentedInTableOrder() {
        #expect(DiscrepancyCode.allCases.map(\.rawValue) == Self.documented.map(\.code))
    }

    @Test func codesAreOrderedAsInTheTable() {
        #expect(DiscrepancyCode.missing < .unrecorded)
        #expect(DiscrepancyCode.noTag < .duplicateTag)
        #expect(DiscrepancyCode.stale < .duplicateRow)
        #expect(!(DiscrepancyCode.duplicateRow < .duplicateRow))
        #expect(!(DiscrepancyCode.cnsReused < .sharedMAC))
        #expect(DiscrepancyCode.allCases.shuffled().sorted() == DiscrepancyCode.allCases)
    }

    @Test func everyMeaningIsOneSentence() {
        for code in DiscrepancyCode.allCases {
            #expect(code.meaning.hasSuffix("."), "\(code)")
            #expect(code.meaning.first?.isUppercase == true, "\(code)")
            #expect(code.meaning.dropLast().contains(".") == false, "\(code): \(code.meaning)")
        }
        #expect(DiscrepancyCode.missing.meaning == "A central asset that no sighting row matches.")
        #expect(DiscrepancyCode.duplicateRow.meaning == "The same row repeated in one file; it counts once.")
    }
}
