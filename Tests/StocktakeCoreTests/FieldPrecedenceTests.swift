import Testing

@testable import StocktakeCore

@Suite("FieldPrecedence: an account's source order for one field")
struct FieldPrecedenceTests {
    static let central = SourceFile(path: "/data/vt-nis/arubawaps.csv", role: .central)
    static let survey = SourceFile(path: "/data/vt-nis/sightings/Survey_Zone2.csv", role: .sighting)
    static let controller = SourceFile(path: "/data/vt-nis/sightings/controller.csv", role: .sighting)
    static let register = SourceFile(path: "/data/vt-nis/registers/cns_register.csv", role: .register)

    @Test(
        arguments: [
            ("central", 0, nil, nil, nil),
            ("Central", 0, nil, nil, nil),
            ("centrals", 0, nil, nil, nil),
            ("sighting", nil, 0, 0, nil),
            ("SIGHTINGS", nil, 0, 0, nil),
            ("register", nil, nil, nil, 0),
            ("registers", nil, nil, nil, 0),
        ] as [(String, Int?, Int?, Int?, Int?)])
    func aRoleNameSingularOrPluralNamesEveryFileOfTheRole(
        selector: String, central: Int?, survey: Int?, controller: Int?, register: Int?
    ) {
        let precedence = FieldPrecedence([selector])
        #expect(precedence.rank(of: Self.central) == central)
        #expect(precedence.rank(of: Self.survey) == survey)
        #expect(precedence.rank(of: Self.controller) == controller)
        #expect(precedence.rank(of: Self.register) == register)
    }

    @Test func aFileNamePrefixNamesMatchingFilesInAnyCase() {
        let precedence = FieldPrecedence(["survey", "CNS_", "central"])
        #expect(precedence.rank(of: Self.survey) == 0)
        #expect(precedence.rank(of: Self.register) == 1)
        #expect(precedence.rank(of: Self.central) == 2)
        #expect(precedence.rank(of: Self.controller) == nil)
        #expect(FieldPrecedence(["arubawaps.csv"]).rank(of: Self.central) == 0)
    }

    @Test func theDisplayNameIsMatchedNotTheFolder() {
        #expect(FieldPrecedence(["data"]).rank(of: Self.survey) == nil)
        #expect(FieldPrecedence(["zone2"]).rank(of: Self.survey) == nil)
        let renamed = SourceFile(path: "/tmp/x.csv", role: .sighting, displayName: "survey_zone9.csv")
        #expect(FieldPrecedence(["survey"]).rank(of: renamed) == 0)
    }

    @Test func aDisplayNameWithFoldersIsMatchedByItsFileNameOrItsFolders() {
        let zone1 = SourceFile(path: "/data/zone1/survey.csv", role: .sighting, displayName: "zone1/survey.csv")
        let zone2 = SourceFile(path: "/data/zone2/survey.csv", role: .sighting, displayName: "zone2/survey.csv")
        #expect(FieldPrecedence(["survey"]).rank(of: zone1) == 0)
        #expect(FieldPrecedence(["billing", "survey.csv"]).rank(of: zone2) == 1)
        #expect(FieldPrecedence(["zone2/", "zone1/"]).rank(of: zone1) == 1)
        #expect(FieldPrecedence(["zone2/"]).rank(of: zone1) == nil)
        #expect(FieldPrecedence(["data"]).rank(of: zone1) == nil)
    }

    @Test func theFirstSelectorThatNamesAFileGivesItsRank() {
        let precedence = FieldPrecedence(["survey", "sightings", "survey_zone2"])
        #expect(precedence.rank(of: Self.survey) == 0)
        #expect(precedence.rank(of: Self.controller) == 1)
    }

    @Test func unnamedSourcesHaveNoRank() {
        #expect(FieldPrecedence([]).rank(of: Self.central) == nil)
        #expect(FieldPrecedence(["billing", "sight"]).rank(of: Self.controller) == nil)
        #expect(FieldPrecedence(["billing", "sight"]).rank(of: Self.register) == nil)
    }

    @Test func anEmptySelectorNamesNoFile() {
        let precedence = FieldPrecedence(["", "register"])
        #expect(precedence.rank(of: Self.central) == nil)
        #expect(precedence.rank(of: Self.survey) == nil)
        #expect(precedence.rank(of: Self.register) == 1)
    }
}
