import StocktakeCore
import Testing

struct StocktakeErrorTests {
    @Test func usage() {
        let error = StocktakeError.usage("stocktake inspect: give exactly one FILE to inspect.")
        #expect(error.description == "stocktake inspect: give exactly one FILE to inspect.")
        #expect(error.exitStatus == .usage)
        #expect(error.exitStatus.rawValue == 64)
    }

    @Test func missingInput() {
        let error = StocktakeError.missingInput(path: "in/central.csv", what: "file")
        #expect(error.description == "in/central.csv: no such file. Check the path, or create it.")
        #expect(error.exitStatus == .noInput)
        #expect(error.exitStatus.rawValue == 66)
    }

    @Test func unreadableInput() {
        let error = StocktakeError.unreadableInput(path: "in/scans", reason: "the folder cannot be listed")
        #expect(error.description == "in/scans: the folder cannot be listed.")
        #expect(error.exitStatus.rawValue == 66)
    }

    @Test func badData() {
        let error = StocktakeError.badData(path: "in/a.csv", reason: "the central sheet is empty.")
        #expect(error.description == "in/a.csv: the central sheet is empty.")
        #expect(error.exitStatus == .dataError)
        #expect(error.exitStatus.rawValue == 65)
    }

    @Test func badColumnMapping() {
        let withHeader = StocktakeError.badColumnMapping(path: "c.json", header: "Asset #", reason: "it is odd")
        #expect(withHeader.description == "c.json: the mapping of column \"Asset #\" is wrong: it is odd.")
        #expect(withHeader.exitStatus.rawValue == 65)
        let whole = StocktakeError.badColumnMapping(path: "c.json", header: nil, reason: "it is not valid JSON")
        #expect(whole.description == "c.json: the column mapping cannot be used: it is not valid JSON.")
        #expect(whole.exitStatus.rawValue == 65)
    }

    @Test func cannotWrite() {
        let error = StocktakeError.cannotWrite(path: "out/run.json", reason: "the disk is full")
        #expect(
            error.description
                == "out/run.json: cannot write it: the disk is full. "
                + "Check that the folder exists, is writable and the disk is not full.")
        #expect(error.exitStatus == .cannotCreate)
        #expect(error.exitStatus.rawValue == 73)
    }

    @Test func exitStatusValuesFollowSysexits() {
        #expect(ExitStatus.success.rawValue == 0)
        #expect(ExitStatus.ioError.rawValue == 74)
    }
}
