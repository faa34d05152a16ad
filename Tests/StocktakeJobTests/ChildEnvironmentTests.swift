import Testing

@testable import StocktakeJob

struct ChildEnvironmentTests {
    let base = [
        "PATH": "/usr/bin:/bin", "HOME": "/var/lib/stocktake", "STOCKTAKE_TOKEN": "generic-secret",
        "STOCKTAKE_TOKEN_NORTH": "north-secret", "STOCKTAKE_TOKEN_UNNAMED": "unnamed-secret",
        "SOUTH_API_KEY": "south-secret", "STOCKTAKE_SHARDS": "4",
    ]

    @Test func everyTokenVariableIsRemovedAndOnlyTheAccountsOwnAdded() {
        let environment = ChildEnvironment(
            tokenVariables: ["STOCKTAKE_TOKEN_NORTH", "SOUTH_API_KEY"],
            fileVariables: ["WEST_TOKEN": "west-secret", "STOCKTAKE_PARALLEL": "3"])

        #expect(
            environment.environment(base: base, own: "SOUTH_API_KEY") == [
                "PATH": "/usr/bin:/bin", "HOME": "/var/lib/stocktake", "STOCKTAKE_SHARDS": "4",
                "SOUTH_API_KEY": "south-secret",
            ])
        #expect(
            environment.environment(base: base, own: "WEST_TOKEN") == [
                "PATH": "/usr/bin:/bin", "HOME": "/var/lib/stocktake", "STOCKTAKE_SHARDS": "4",
                "WEST_TOKEN": "west-secret",
            ])
        #expect(
            environment.environment(base: base, own: nil) == [
                "PATH": "/usr/bin:/bin", "HOME": "/var/lib/stocktake", "STOCKTAKE_SHARDS": "4",
            ])
        // A variable the account names but nobody set is simply absent.
        #expect(environment.environment(base: base, own: "NOBODY_SET_THIS")["NOBODY_SET_THIS"] == nil)
    }

    @Test func childrenSideBySideShareTheCoresUnlessTheAdminSaidOtherwise() {
        var environment = ChildEnvironment(tokenVariables: [], fileVariables: [:])
        #expect(environment.environment(base: base, own: nil)["STOCKTAKE_THREADS"] == nil)
        environment.threads = 1
        #expect(environment.environment(base: base, own: nil)["STOCKTAKE_THREADS"] == "1")
        #expect(
            environment.environment(base: base.merging(["STOCKTAKE_THREADS": "4"]) { $1 }, own: nil)[
                "STOCKTAKE_THREADS"] == "4")
    }

    @Test func theEnvironmentFileWinsOverTheInheritedEnvironment() {
        let environment = ChildEnvironment(
            tokenVariables: ["STOCKTAKE_TOKEN_NORTH"], fileVariables: ["STOCKTAKE_TOKEN_NORTH": "from-the-file"])
        #expect(
            environment.environment(base: base, own: "STOCKTAKE_TOKEN_NORTH")["STOCKTAKE_TOKEN_NORTH"]
                == "from-the-file")
    }

    @Test func theTokenVariablesOfEveryAccountAreFoundEvenInBrokenConfigurations() throws {
        let site = NightlyRunTests.Site()
        site.write(#"{"auth": {"tokenVariable": "NORTH_TOKEN"}}"#, to: "Jobs/north/account.json")
        site.write(#"{"colour": "red", "auth": {"tokenVariable": "BROKEN_TOKEN"}}"#, to: "Jobs/broken/account.json")
        site.write(#"{"auth": {"tokenFile": "secrets/token"}}"#, to: "Jobs/filed/account.json")
        site.write("not json", to: "Jobs/garbled/account.json")

        let environment = ChildEnvironment(jobs: site.jobs, fileVariables: ["FILE_ONLY": "x"])

        #expect(environment.tokenVariables == ["NORTH_TOKEN", "BROKEN_TOKEN", "STOCKTAKE_TOKEN", "FILE_ONLY"])
    }
}
