import Foundation
import Testing

/// `stocktake inspect` run as a user runs it.
struct InspectCommandTests {
    let runner = CommandRunner()

    @Test func helpPrintsTheUsage() throws {
        let result = try runner.run(["inspect", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Show how a spreadsheet is read: delimiter and encoding (for a"))
        #expect(
            result.standardOutput.contains(
                "\n    stocktake inspect FILE [--sheet NAME] [--columns FILE] [--rows] [--json]\n"))
        #expect(
            result.standardOutput.hasSuffix("Exit status: 0 read, 64 bad usage, 65 unreadable data, 66 missing file.\n")
        )
    }

    /// The cleaned.xlsx a run writes is a workbook a clerk may inspect: tags stay text with their zeros.
    @Test func aWorkbookIsInspectedBySheet() throws {
        runner.write("VT Tag,Serial\n000072,S1\n12976,S2\n", to: "central.csv")
        let run = try runner.run([
            "reconcile", "--central", "central.csv", "--tag-digits", "6", "--quiet", "--out", "out",
        ])
        #expect(run.status == 0)
        let result = try runner.run(["inspect", "out/cleaned.xlsx", "--sheet", "cleaned", "--rows", "--json"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.standardOutput.contains(#""rows":[["000072","","S1","#))
        #expect(result.standardOutput.contains(#"["012976","","S2","#))
        #expect(
            result.standardOutput.hasSuffix(
                #""format":"xlsx","sheet":"cleaned","sheets":["cleaned"],"hiddenSheets":[],"rowCount":2}"# + "\n"))
        let missing = try runner.run(["inspect", "out/cleaned.xlsx", "--sheet", "APs"])
        #expect(missing.status == 65)
        #expect(
            missing.standardError
                == "stocktake: out/cleaned.xlsx: the workbook has no sheet named \"APs\"; its sheets are \"cleaned\". "
                + "Check the sheet's name where it is given (the account's sources, --central-sheet or --sheet).\n")
    }

    @Test func rowsAsJSON() throws {
        runner.write(
            "\u{FEFF}Tag,Serial,Notes\r\n1,abc,\"say \"\"hi\"\"\"\r\n2,def,\"two\nlines\"\r\n", to: "small.csv")
        let result = try runner.run(["inspect", "small.csv", "--rows", "--json"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(
            result.standardOutput
                == #"{"header":["Tag","Serial","Notes"],"rows":[["1","abc","say \"hi\""],["2","def","two\nlines"]],"#
                + #""mapping":{"Tag":"vt_tag","Serial":"serial_number"},"unmapped":["Notes"],"problems":[],"#
                + #""problemsNotListed":0,"delimiter":"comma","encoding":"UTF-8 with byte-order mark","lineEnding":"CRLF","rowCount":2}"#
                + "\n")
    }

    @Test func columnsFileChangesTheMapping() throws {
        runner.write("Asset #;Notes\n1;x\n", to: "sheet.csv")
        runner.write("column,field\nAsset #,vt_tag\nNotes,ignore\n", to: "columns.csv")
        let result = try runner.run(["inspect", "sheet.csv", "--columns", "columns.csv", "--json"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput
                == #"{"header":["Asset #","Notes"],"mapping":{"Asset #":"vt_tag","Notes":"(ignored)"},"unmapped":[],"#
                + #""problems":[],"problemsNotListed":0,"delimiter":"semicolon","encoding":"UTF-8","lineEnding":"LF","rowCount":1}"#
                + "\n")
    }

    @Test func textReport() throws {
        runner.write("Serial,Notes\nabc,x\n", to: "scan.csv")
        let result = try runner.run(["inspect", "scan.csv"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == """
                File:       scan.csv
                Delimiter:  comma
                Encoding:   UTF-8
                Line ends:  LF
                Rows:       1 data rows after the header on line 1

                Column  Maps to
                Serial  serial_number
                Notes   (unmapped)

                Unmapped:   Notes
                Problems:   none

                """)
    }

    @Test func missingFile() throws {
        let result = try runner.run(["inspect", "nope.csv"])
        #expect(result.status == 66)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "stocktake: nope.csv: no such file. Check the path, or create it.\n")
    }

    @Test func missingColumnsFile() throws {
        runner.write("Tag\n1\n", to: "sheet.csv")
        let result = try runner.run(["inspect", "sheet.csv", "--columns", "nope.json"])
        #expect(result.status == 66)
        #expect(result.standardError == "stocktake: nope.json: no such column mapping. Check the path, or create it.\n")
    }

    @Test func unterminatedQuote() throws {
        runner.write("Tag\n\"1\n", to: "open.csv")
        let result = try runner.run(["inspect", "open.csv"])
        #expect(result.status == 65)
        #expect(
            result.standardError
                == "stocktake: open.csv: a quoted field opened on line 2 is never closed. "
                + "Look for a stray \" on that line and save the file again.\n")
    }

    /// Excel's "Unicode text" saved without its byte-order mark (every other byte NUL) was reported as
    /// "Encoding: UTF-8" with garbage columns; it is refused and the encoding named.
    @Test(arguments: [(false, "LE"), (true, "BE")], [[], ["--json"], ["--rows"]])
    func utf16WithoutByteOrderMark(order: (bigEndian: Bool, name: String), options: [String]) throws {
        let units = "VT Tag,Serial\r\n100001,S1\r\n100002,S2\r\n".utf16
        let bytes = units.flatMap { unit in
            order.bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        try #require(FileManager.default.createFile(atPath: runner.path("scan.csv"), contents: Data(bytes)))
        let result = try runner.run(["inspect", "scan.csv"] + options)
        #expect(result.status == 65)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: scan.csv: the file is encoded as UTF-16 \(order.name) without a byte-order mark, "
                + "which cannot be read. Open it in a spreadsheet and save it as \"CSV UTF-8\".\n")
    }

    /// A few NULs are not UTF-16, but no sheet saved as text holds one: the file is refused as binary.
    @Test func utf8WithAFewNULsIsRefusedAsBinary() throws {
        runner.write("Serial,Notes\nabc,x\u{0}y\n", to: "scan.csv")
        let result = try runner.run(["inspect", "scan.csv", "--json"])
        #expect(result.status == 65)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: scan.csv: line 2 holds a NUL byte, so the file is binary, not a sheet saved as text, "
                + "and it is not read. Check that it is the spreadsheet you meant and save it as \"CSV UTF-8\".\n")
    }

    @Test(arguments: [
        ([], "give exactly one FILE to inspect"),
        (["a.csv", "b.csv"], "give exactly one FILE to inspect"),
        (["a.csv", "--raw"], "unknown option --raw"),
    ])
    func badUsage(arguments: [String], problem: String) throws {
        let result = try runner.run(["inspect"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError == "stocktake: inspect: \(problem). See 'stocktake inspect --help'.\n")
    }

    @Test func aRepeatedFlagAndAnAttachedValueAreAccepted() throws {
        runner.write("Asset #;Notes\n1;x\n", to: "sheet.csv")
        runner.write("column,field\nAsset #,vt_tag\n", to: "columns.csv")
        let once = try runner.run(["inspect", "sheet.csv", "--columns", "columns.csv", "--json"])
        let twice = try runner.run(["inspect", "--json", "sheet.csv", "--columns=columns.csv", "--json"])
        #expect(twice.status == 0)
        #expect(twice.standardError == "")
        #expect(twice.standardOutput == once.standardOutput)
        #expect(twice.standardOutput.contains(#""mapping":{"Asset #":"vt_tag"}"#))
    }
}
