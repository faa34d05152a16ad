import Foundation
import StocktakeCore
import Testing

struct GeoPositionTests {
    @Test(arguments: [
        ("37.2296", 37.2296),
        ("  -37.2296 ", -37.2296),
        ("+45", 45.0),
        ("90", 90.0),
        ("-90.0", -90.0),
        (".5", 0.5),
        ("7.", 7.0),
        ("0", 0.0),
        ("-0", 0.0),
    ])
    func acceptsLatitudes(input: String, expected: Double) {
        #expect(GeoPosition.normalizeLatitude(input) == .value(expected))
    }

    @Test(arguments: [("-80.4139", -80.4139), ("180", 180.0), ("-180", -180.0), ("179.999999", 179.999999)])
    func acceptsLongitudes(input: String, expected: Double) {
        #expect(GeoPosition.normalizeLongitude(input) == .value(expected))
    }

    @Test(arguments: ["", " ", "N/A", "none", "-", "TBD"])
    func placeholdersAreEmpty(input: String) {
        #expect(GeoPosition.normalizeLatitude(input) == .empty)
        #expect(GeoPosition.normalizeLongitude(input) == .empty)
        #expect(GeoPosition.normalizePair(input) == .empty)
    }

    @Test(arguments: [
        ("95.2", "latitude 95.2 is out of range (-90 to 90)"),
        ("-90.0001", "latitude -90.0001 is out of range (-90 to 90)"),
        ("nan", "is not a latitude in decimal degrees, such as 37.2296"),
        ("inf", "is not a latitude in decimal degrees, such as 37.2296"),
        ("1e2", "is not a latitude in decimal degrees, such as 37.2296"),
        ("0x10", "is not a latitude in decimal degrees, such as 37.2296"),
        ("37.2.1", "is not a latitude in decimal degrees, such as 37.2296"),
        ("37,2296", "is not a latitude in decimal degrees, such as 37.2296"),
        ("N 37.2296", "is not a latitude in decimal degrees, such as 37.2296"),
        ("+", "is not a latitude in decimal degrees, such as 37.2296"),
        (".", "is not a latitude in decimal degrees, such as 37.2296"),
    ])
    func rejectsLatitudes(input: String, reason: String) {
        #expect(GeoPosition.normalizeLatitude(input) == .invalid(reason: reason))
    }

    @Test(arguments: [
        ("180.5", "longitude 180.5 is out of range (-180 to 180)"),
        ("-181", "longitude -181 is out of range (-180 to 180)"),
        ("west", "is not a longitude in decimal degrees, such as -80.4139"),
    ])
    func rejectsLongitudes(input: String, reason: String) {
        #expect(GeoPosition.normalizeLongitude(input) == .invalid(reason: reason))
    }

    @Test func overlongNumbersAreRejected() {
        let digits = "1." + String(repeating: "1", count: 60)
        #expect(
            GeoPosition.normalizeLatitude(digits)
                == .invalid(reason: "is not a latitude in decimal degrees, such as 37.2296"))
    }

    @Test(arguments: [
        "37.2296,-80.4139", "37.2296, -80.4139", "37.2296 -80.4139", "37.2296;-80.4139", "(37.2296, -80.4139)",
        " ( 37.2296 ,\t-80.4139 ) ", "37.2296   -80.4139",
    ])
    func acceptsPairs(input: String) {
        #expect(GeoPosition.normalizePair(input) == .value(GeoPosition(latitude: 37.2296, longitude: -80.4139)))
    }

    @Test(arguments: [
        ("95,10", "has latitude 95, which is out of range (-90 to 90)"),
        ("10, 190", "has longitude 190, which is out of range (-180 to 180)"),
        ("10, east", "has longitude \"east\", which is not a number in decimal degrees"),
        ("ten, 20", "has latitude \"ten\", which is not a number in decimal degrees"),
        ("37.2296", "is not a latitude,longitude pair such as \"37.2296,-80.4139\""),
        ("37.2296,", "has no longitude; write the position as latitude,longitude"),
        (",-80.4139", "has no latitude; write the position as latitude,longitude"),
        ("(37.2296,-80.4139", "has an unmatched parenthesis; write the position as latitude,longitude"),
        ("()", "has no numbers; write the position as latitude,longitude"),
        ("1,2,3", "has longitude \"2,3\", which is not a number in decimal degrees"),
    ])
    func rejectsPairs(input: String, reason: String) {
        #expect(GeoPosition.normalizePair(input) == .invalid(reason: reason))
    }

    @Test(arguments: ["N/A, N/A", "(-,-)", "none none"])
    func placeholderPairsAreEmpty(input: String) {
        #expect(GeoPosition.normalizePair(input) == .empty)
    }

    @Test(arguments: [
        "37.22961234567891", "-80.413912345678912345", "0.00000000000000000000001", "12345678901234567.5",
        "000000000000000037.25", "37.250000000000000000000000",
    ])
    func longNumbersParseLikeTheStandardLibrary(input: String) {
        let expected = Double(input)!
        #expect(
            GeoPosition.normalizeLongitude(input)
                == (abs(expected) <= 180
                    ? .value(expected)
                    : .invalid(
                        reason: "longitude \(input) is out of range (-180 to 180)")))
    }

    @Test(arguments: [
        (-80.4139, "-80.4139"),
        (37.2296, "37.2296"),
        (0.00001, "0.00001"),
        (-0.000012345, "-0.000012345"),
        (37.0, "37"),
        (-180.0, "-180"),
        (0.0, "0"),
        (-0.0, "0"),
        (0.1, "0.1"),
        (1e-10, "0.0000000001"),
        (123456789012345680000.0, "123456789012345680000"),
        (1.5e20, "150000000000000000000"),
    ])
    func writesShortestPlainDecimal(degrees: Double, expected: String) {
        #expect(GeoPosition.text(degrees) == expected)
    }

    @Test func decimalsParseLikeTheStandardLibrary() {
        for step in 0..<2_000 {
            let degrees = -180 + Double(step) * 0.179_912_345_678_9
            for decimals in [1, 4, 7, 12] {
                let text = String(format: "%.\(decimals)f", degrees)
                #expect(GeoPosition.normalizeLongitude(text) == .value(Double(text)! == 0 ? 0 : Double(text)!))
            }
        }
    }

    @Test func textReadsBackAsTheSameValue() {
        for degrees in [37.229_612_345_678_9, -80.413_9, 1.0 / 3.0, 0.000_123_456_789, 89.999_999_999_999_99] {
            #expect(GeoPosition.normalizeLatitude(GeoPosition.text(degrees)) == .value(degrees))
        }
    }
}
