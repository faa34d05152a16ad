import StocktakeCore
import Testing

struct ColumnMappingFileTests {
    static let allowed =
        "vt_tag, cns_number, serial_number, mac_address, model, description, building, room, mount, custodian, "
        + "latitude, longitude, last_seen, stock_number, cost, gps or ignore"

    let folder = TemporaryFolder()

    @Test func readsAJSONObject() throws {
        let path = folder.write(
            #"{ "Asset #": "vt_tag", "Coordinates (WGS84)": "gps", "Notes": "ignore", "Where": " ROOM " }"#,
            to: "columns.json")
        let mapping = try ColumnMappingFile.load(path: path)
        #expect(
            mapping == [
                "Asset #": .field(.vtTag), "Coordinates (WGS84)": .position, "Notes": .ignored, "Where": .field(.room),
            ])
    }

    @Test func readsAJSONObjectAfterLeadingSpace() throws {
        let path = folder.write("\n  {\"Asset #\": \"vt_tag\"}\n", to: "columns.json")
        #expect(try ColumnMappingFile.load(path: path) == ["Asset #": .field(.vtTag)])
    }

    @Test func readsAJSONObjectAfterAByteOrderMark() throws {
        let path = folder.write(
            [0xEF, 0xBB, 0xBF] + Array(#"{"Asset #": "vt_tag", "Notes": "ignore"}"#.utf8), to: "columns.json")
        #expect(try ColumnMappingFile.load(path: path) == ["Asset #": .field(.vtTag), "Notes": .ignored])
    }

    @Test func readsACSVAfterAByteOrderMark() throws {
        let path = folder.write([0xEF, 0xBB, 0xBF] + Array("column,field\nAsset #,vt_tag\n".utf8), to: "c.csv")
        #expect(try ColumnMappingFile.load(path: path) == ["Asset #": .field(.vtTag)])
    }

    @Test func readsATwoColumnCSVWithAHeaderRow() throws {
        let path = folder.write("column,field\r\nAsset #,vt_tag\r\n\"Lat, Lon\",gps\r\nNotes,ignore\r\n", to: "c.csv")
        let mapping = try ColumnMappingFile.load(path: path)
        #expect(mapping == ["Asset #": .field(.vtTag), "Lat, Lon": .position, "Notes": .ignored])
    }

    @Test func readsATwoColumnCSVWithoutAHeaderRow() throws {
        let path = folder.write("Asset #,vt_tag\nWhere,room\n", to: "c.csv")
        #expect(try ColumnMappingFile.load(path: path) == ["Asset #": .field(.vtTag), "Where": .field(.room)])
    }

    @Test func csvHeaderRowIsRecognisedInAnyCase() throws {
        let path = folder.write("Column,Field\nAsset #,vt_tag\n", to: "c.csv")
        #expect(try ColumnMappingFile.load(path: path) == ["Asset #": .field(.vtTag)])
    }

    @Test func csvLinesWithOneCellAreSkipped() throws {
        let path = folder.write("Asset #,vt_tag\nlonely\n", to: "c.csv")
        #expect(try ColumnMappingFile.load(path: path) == ["Asset #": .field(.vtTag)])
    }

    @Test func unknownFieldNameInJSON() throws {
        let path = folder.write(#"{"Asset #": "tag"}"#, to: "columns.json")
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: path) }
        #expect(
            error
                == .badColumnMapping(
                    path: path, header: "Asset #", reason: "\"tag\" is not a field; use one of \(Self.allowed)"))
        #expect(
            error?.description
                == "\(path): the mapping of column \"Asset #\" is wrong: \"tag\" is not a field; use one of "
                + "\(Self.allowed).")
        #expect(error?.exitStatus == .dataError)
    }

    @Test func unknownFieldNameInCSV() throws {
        let path = folder.write("column,field\nAsset #,serial\n", to: "c.csv")
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: path) }
        #expect(
            error?.description
                == "\(path): the mapping of column \"Asset #\" is wrong: \"serial\" is not a field; use one of "
                + "\(Self.allowed).")
    }

    @Test func jsonThatIsNotAnObject() throws {
        let path = folder.write(#"["vt_tag", "serial_number"]"#, to: "columns.json")
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: path) }
        #expect(
            error?.description
                == "\(path): the column mapping cannot be used: it must be a JSON object of column → field.")
    }

    @Test func invalidJSON() throws {
        let path = folder.write(#"{"Asset #": "vt_tag",}x"#, to: "columns.json")
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: path) }
        #expect(error?.description == "\(path): the column mapping cannot be used: it is not valid JSON.")
    }

    @Test func jsonValueThatIsNotAString() throws {
        let path = folder.write(#"{"Asset #": 7}"#, to: "columns.json")
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: path) }
        #expect(
            error?.description
                == "\(path): the mapping of column \"Asset #\" is wrong: the field name must be a string.")
    }

    @Test func sameColumnMappedTwoWays() throws {
        let path = folder.write(
            #"{"Tag": "vt_tag", "T.A.G.": "ignore", "Notes": "ignore", "NOTES": "-"}"#, to: "c.json")
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: path) }
        #expect(
            error?.description
                == "\(path): the column mapping cannot be used: \"T.A.G.\" and \"Tag\" name the same column "
                + "(case, spaces and punctuation do not count) but are mapped differently; keep one.")
    }

    @Test func sameColumnMappedTheSameWayTwice() throws {
        let path = folder.write("Notes,ignore\nNOTES,-\nAsset #,vt_tag\nasset,vt_tag\n", to: "c.csv")
        #expect(
            try ColumnMappingFile.load(path: path) == [
                "Notes": .ignored, "NOTES": .ignored, "Asset #": .field(.vtTag), "asset": .field(.vtTag),
            ])
    }

    @Test func severalBadNamesGiveTheSameErrorEveryTime() throws {
        let pairs = ["b": "bad", "a": "worse", "c": "worst", "d": "awful"]
        for _ in 0..<5 {
            #expect(
                throws: StocktakeError.badColumnMapping(
                    path: "x", header: "a", reason: "\"worse\" is not a field; use one of \(Self.allowed)")
            ) {
                try ColumnMappingFile.parse(pairs, path: "x")
            }
        }
    }

    @Test func folderInsteadOfAFile() throws {
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: folder.path) }
        #expect(error?.description == "\(folder.path): it is a folder; give the column mapping file.")
        #expect(error?.exitStatus == .noInput)
    }

    @Test func missingFile() throws {
        let path = folder.path("nope.json")
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: path) }
        #expect(error == .missingInput(path: path, what: "column mapping"))
        #expect(error?.description == "\(path): no such column mapping. Check the path, or create it.")
        #expect(error?.exitStatus == .noInput)
    }

    @Test func unterminatedQuoteInCSV() throws {
        let path = folder.write("Asset #,vt_tag\n\"Notes,ignore\n", to: "c.csv")
        let error = #expect(throws: StocktakeError.self) { try ColumnMappingFile.load(path: path) }
        #expect(
            error?.description
                == "\(path): the column mapping cannot be used: a quoted field opened on line 2 is never closed. "
                + "Look for a stray \" on that line and save the file again.")
    }

    @Test func parseChecksEveryName() throws {
        #expect(
            try ColumnMappingFile.parse(["A": "model", "B": "-"], path: "x") == ["A": .field(.model), "B": .ignored])
        #expect(throws: StocktakeError.self) { try ColumnMappingFile.parse(["A": "modell"], path: "x") }
    }
}
