import StocktakeCore
import Testing

struct BuildingTableFileTests {
    let folder = TemporaryFolder()

    @Test func readsATableWithAHeaderRow() throws {
        let path = folder.write(
            "Code,Name,Latitude,Longitude\r\ntorg, Torgersen Hall ,37.2297,-80.4200\r\nNEW,Newman Library\r\n",
            to: "buildings.csv")
        let table = try BuildingTableFile.load(path: path)
        #expect(
            table.buildings == [
                Building(code: "TORG", name: "Torgersen Hall", latitude: 37.2297, longitude: -80.42),
                Building(code: "NEW", name: "Newman Library"),
            ])
    }

    @Test func readsATableWithoutAHeaderRow() throws {
        let path = folder.write("TORG,Torgersen Hall\n\n,\nMCB,McBryde Hall,37.23\n", to: "buildings.csv")
        let table = try BuildingTableFile.load(path: path)
        #expect(
            table.buildings == [
                Building(code: "TORG", name: "Torgersen Hall"),
                Building(code: "MCB", name: "McBryde Hall", latitude: 37.23),
            ])
        #expect(table.normalize("mcbryde hall") == .value("MCB"))
    }

    @Test func headerRowAfterEmptyRowsIsRecognised() throws {
        let path = folder.write(",,\n\nCode,Name\nTORG,Torgersen Hall\n", to: "buildings.csv")
        #expect(try BuildingTableFile.load(path: path).buildings == [Building(code: "TORG", name: "Torgersen Hall")])
    }

    @Test func unusableCoordinatesAreLeftOut() throws {
        let path = folder.write("TORG,Torgersen Hall,north,-500\n", to: "buildings.csv")
        #expect(try BuildingTableFile.load(path: path).buildings == [Building(code: "TORG", name: "Torgersen Hall")])
    }

    @Test func missingNameIsAnError() throws {
        let path = folder.write("code,name\nTORG,Torgersen Hall\nNEW, \n", to: "buildings.csv")
        let error = #expect(throws: StocktakeError.self) { try BuildingTableFile.load(path: path) }
        #expect(
            error?.description
                == "\(path): line 3 needs a building code and a name (code,name[,latitude,longitude]).")
        #expect(error?.exitStatus == .dataError)
    }

    @Test func missingCodeIsAnError() throws {
        let path = folder.write("TORG,Torgersen Hall\n,Newman Library\nX\n", to: "buildings.csv")
        let error = #expect(throws: StocktakeError.self) { try BuildingTableFile.load(path: path) }
        #expect(
            error
                == .badData(
                    path: path, reason: "line 2 needs a building code and a name (code,name[,latitude,longitude])."))
    }

    @Test func oneCellLineIsAnError() throws {
        let path = folder.write("TORG\n", to: "buildings.csv")
        let error = #expect(throws: StocktakeError.self) { try BuildingTableFile.load(path: path) }
        #expect(
            error
                == .badData(
                    path: path, reason: "line 1 needs a building code and a name (code,name[,latitude,longitude])."))
    }

    @Test(arguments: ["", "\n\n", "code,name\n", "code,name,latitude,longitude\n,,,\n"])
    func emptyTableIsAnError(text: String) throws {
        let path = folder.write(text, to: "buildings.csv")
        let error = #expect(throws: StocktakeError.self) { try BuildingTableFile.load(path: path) }
        #expect(
            error?.description
                == "\(path): the buildings table is empty; list one building per line as code,name.")
    }

    @Test func missingFile() throws {
        let path = folder.path("buildings.csv")
        let error = #expect(throws: StocktakeError.self) { try BuildingTableFile.load(path: path) }
        #expect(error == .missingInput(path: path, what: "file"))
    }

    @Test func unterminatedQuote() throws {
        let path = folder.write("TORG,\"Torgersen Hall\n", to: "buildings.csv")
        let error = #expect(throws: StocktakeError.self) { try BuildingTableFile.load(path: path) }
        #expect(
            error?.description
                == "\(path): a quoted field opened on line 1 is never closed. "
                + "Look for a stray \" on that line and save the file again.")
    }
}
