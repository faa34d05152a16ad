import Foundation
import StocktakeCore
import Testing

struct UnitCostTests {
    @Test(arguments: [
        ("$1,234.50", 123_450),
        ("1234.5", 123_450),
        ("1234.50", 123_450),
        ("$895.00", 89_500),
        ("  $ 895 ", 89_500),
        ("1,195", 119_500),
        ("12,345,678.09", 1_234_567_809),
        (".99", 99),
        ("7.", 700),
        ("0", 0),
        ("$0.05", 5),
    ])
    func acceptsAmounts(input: String, cents: Int64) {
        #expect(UnitCost.normalize(input) == .value(UnitCost(cents: cents)))
    }

    @Test(arguments: ["", " ", "N/A", "none", "-", "TBD"])
    func placeholdersAreEmpty(input: String) {
        #expect(UnitCost.normalize(input) == .empty)
    }

    @Test(arguments: [
        (
            "1.234,50",
            "has a comma that does not separate thousands; write the cost with a dot before the cents, such as 1234.50"
        ),
        (
            "12,50",
            "has a comma that does not separate thousands; write the cost with a dot before the cents, such as 1234.50"
        ),
        (
            "1,2345",
            "has a comma that does not separate thousands; write the cost with a dot before the cents, such as 1234.50"
        ),
        (
            "1234,567.00",
            "has a comma that does not separate thousands; write the cost with a dot before the cents, such as 1234.50"
        ),
        (
            ",500",
            "has a comma that does not separate thousands; write the cost with a dot before the cents, such as 1234.50"
        ),
        ("1.234", "has more than two decimal places; write the cost in dollars and cents, such as 1234.50"),
        ("895.005", "has more than two decimal places; write the cost in dollars and cents, such as 1234.50"),
        ("-5.00", "is negative; a unit cost is zero or more"),
        ("$-5.00", "is negative; a unit cost is zero or more"),
        ("(5.00)", "is negative; a unit cost is zero or more"),
        ("€5.00", "is not an amount of money such as $1,234.50"),
        ("5.00 USD", "is not an amount of money such as $1,234.50"),
        ("1.2E+03", "is not an amount of money such as $1,234.50"),
        ("1 234.50", "is not an amount of money such as $1,234.50"),
        ("$", "is not an amount of money such as $1,234.50"),
        (".", "is not an amount of money such as $1,234.50"),
        ("about 900", "is not an amount of money such as $1,234.50"),
        ("92233720368547758.08", "is too large for a unit cost"),
        ("99999999999999999999", "is too large for a unit cost"),
    ])
    func rejectsWhatIsNotOneAmount(input: String, reason: String) {
        #expect(UnitCost.normalize(input) == .invalid(reason: reason))
    }

    @Test func theLargestCostStillFits() {
        #expect(UnitCost.normalize("92233720368547758.07") == .value(UnitCost(cents: Int64.max)))
    }

    @Test(arguments: [
        (0, "0.00"), (5, "0.05"), (123_450, "1234.50"), (89_500, "895.00"), (Int64.max, "92233720368547758.07"),
    ])
    func describesDollarsAndTwoDecimals(cents: Int64, text: String) {
        #expect(UnitCost(cents: cents).description == text)
        // The canonical text reads back as the same cost.
        #expect(UnitCost.normalize(text) == .value(UnitCost(cents: cents)))
    }

    @Test func costsOrderByCents() {
        #expect(UnitCost(cents: 99) < UnitCost(cents: 100))
        #expect(!(UnitCost(cents: 100) < UnitCost(cents: 100)))
    }
}
