import Testing

@testable import StocktakeCore

@Suite("SourceLocation: file:row and its spoken forms")
struct SourceLocationTests {
    static func rows(_ count: Int) -> [StocktakeCore.SourceLocation] {
        (1...count).map { StocktakeCore.SourceLocation(file: "survey_zone2.csv", row: $0 * 10) }
    }

    @Test func descriptionIsFileColonRow() {
        let location = SourceLocation(file: "survey_zone2.csv", row: 88)
        #expect(location.description == "survey_zone2.csv:88")
        #expect("\(location)" == "survey_zone2.csv:88")
        #expect(location.spoken == "survey_zone2.csv row 88")
    }

    @Test func locationsAreOrderedByFileThenRowNumber() {
        let unsorted = [
            SourceLocation(file: "b.csv", row: 2), SourceLocation(file: "a.csv", row: 10),
            SourceLocation(file: "a.csv", row: 9),
        ]
        #expect(unsorted.sorted().map(\.description) == ["a.csv:9", "a.csv:10", "b.csv:2"])
        #expect(!(SourceLocation(file: "a.csv", row: 1) < SourceLocation(file: "a.csv", row: 1)))
    }

    @Test func spokenListsJoinWithCommasAndAnd() {
        #expect(SourceLocation.spoken([]) == "")
        #expect(SourceLocation.spoken(Self.rows(1)) == "survey_zone2.csv row 10")
        #expect(SourceLocation.spoken(Self.rows(2)) == "survey_zone2.csv row 10 and survey_zone2.csv row 20")
        #expect(
            SourceLocation.spoken([
                SourceLocation(file: "a.csv", row: 3), SourceLocation(file: "a.csv", row: 9),
                SourceLocation(file: "b.csv", row: 2),
            ]) == "a.csv row 3, a.csv row 9 and b.csv row 2")
    }

    @Test func spokenListsAreShortenedAfterTheLimit() {
        #expect(
            SourceLocation.spoken(Self.rows(6))
                == "survey_zone2.csv row 10, survey_zone2.csv row 20, survey_zone2.csv row 30, "
                + "survey_zone2.csv row 40, survey_zone2.csv row 50 and survey_zone2.csv row 60")
        #expect(
            SourceLocation.spoken(Self.rows(8))
                == "survey_zone2.csv row 10, survey_zone2.csv row 20, survey_zone2.csv row 30, "
                + "survey_zone2.csv row 40, survey_zone2.csv row 50, survey_zone2.csv row 60 and 2 more")
        #expect(SourceLocation.spoken(Self.rows(1), limit: 1) == "survey_zone2.csv row 10")
        #expect(SourceLocation.spoken(Self.rows(2), limit: 1) == "survey_zone2.csv row 10 and 1 more")
        #expect(SourceLocation.spoken(Self.rows(3), limit: 1) == "survey_zone2.csv row 10 and 2 more")
        #expect(
            SourceLocation.spoken(Self.rows(3), limit: 2)
                == "survey_zone2.csv row 10, survey_zone2.csv row 20 and 1 more")
        #expect(
            SourceLocation.spoken(Self.rows(3), limit: 3)
                == "survey_zone2.csv row 10, survey_zone2.csv row 20 and survey_zone2.csv row 30")
    }
}
