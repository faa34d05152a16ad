import StocktakeSync
import Testing

@Suite struct SheetLocationTests {
    @Test func pathsAndFileURLsAreLocal() throws {
        #expect(try SheetLocation("samples/vt-nis/central.csv") == .file(path: "samples/vt-nis/central.csv"))
        #expect(try SheetLocation("file:///srv/central.csv") == .file(path: "/srv/central.csv"))
        #expect(try SheetLocation("/srv/central.csv", provider: "file").isLocal)
    }

    @Test func httpsURLs() throws {
        #expect(
            try SheetLocation("https://dav.example.org/a/central.csv")
                == .https(try EndpointURL("https://dav.example.org/a/central.csv")))
        // With the https provider, no scheme means https.
        #expect(
            try SheetLocation("dav.example.org/a.csv", provider: "https")
                == .https(try EndpointURL("https://dav.example.org/a.csv")))
        #expect(throws: HTTPError.insecureURL("http://dav.example.org/a.csv")) {
            try SheetLocation("http://dav.example.org/a.csv")
        }
    }

    @Test func googleSheets() throws {
        #expect(try SheetLocation("gsheets:1AbC") == .googleSheet(id: "1AbC", range: nil))
        #expect(try SheetLocation("gsheets:1AbC/Sheet1!A:P") == .googleSheet(id: "1AbC", range: "Sheet1!A:P"))
        #expect(
            try SheetLocation("https://docs.google.com/spreadsheets/d/1AbC-x_9/edit#gid=0")
                == .googleSheet(id: "1AbC-x_9", range: nil))
        #expect(try SheetLocation("1AbC", provider: "google-sheets") == .googleSheet(id: "1AbC", range: nil))
    }

    @Test func googleDrive() throws {
        #expect(try SheetLocation("gdrive:0Bx") == .googleDrive(id: "0Bx"))
        #expect(try SheetLocation("https://drive.google.com/file/d/0Bx/view") == .googleDrive(id: "0Bx"))
        #expect(try SheetLocation("https://drive.google.com/open?id=0Bx") == .googleDrive(id: "0Bx"))
        #expect(try SheetLocation("0Bx", provider: "google-drive") == .googleDrive(id: "0Bx"))
    }

    @Test func unknownProvider() {
        #expect(throws: HTTPError.invalidURL("provider ftp (use one of file, https, google-sheets, google-drive)")) {
            try SheetLocation("x", provider: "ftp")
        }
    }

    @Test func descriptionsHideSecrets() throws {
        #expect(
            try SheetLocation("https://b.example.org/c.csv?sig=s3cret").description == "https://b.example.org/c.csv")
    }
}
