import Foundation
import Testing

@testable import StocktakeCore

/// The expected texts are those LibreOffice 7 shows (its CSV export "as shown" of a workbook openpyxl made with each
/// number format), which are Excel's, except where a comment says otherwise; `showsWhatLibreOfficeShows` checks
/// the agreed ones again at test time.
struct ScientificFormatTests {
    static func text(_ value: Double, _ code: String) -> String? {
        ScientificFormat(code: code)?.text(value)
    }

    @Test(arguments: [
        (77200.0, "7.72E+04"), (12976, "1.30E+04"), (186472975e13, "1.86E+21"), (0.000123456, "1.23E-04"),
        (-4.5e-7, "-4.50E-07"), (0, "0.00E+00"), (1, "1.00E+00"), (-12345.678, "-1.23E+04"), (1e100, "1.00E+100"),
        (1.23456789012345678e17, "1.23E+17"), (1.797e308, "1.80E+308"), (1e-300, "1.00E-300"),
    ])
    func showsBuiltInEleven(value: Double, text: String) {
        #expect(ScientificFormat.builtIn(11)?.text(value) == text)
    }

    @Test(arguments: [
        (77200.0, "77.2E+3"), (12976, "13.0E+3"), (186472975e13, "1.9E+21"), (0.000123456, "123.5E-6"),
        (-4.5e-7, "-450.0E-9"), (0, "0.0E+0"), (9.995, "10.0E+0"), (99.95, "100.0E+0"), (999999, "1.0E+6"),
        (0.5, "500.0E-3"), (1e100, "10.0E+99"), (45.5, "45.5E+0"),
    ])
    func showsBuiltInFortyEightInEngineeringNotation(value: Double, text: String) {
        #expect(ScientificFormat.builtIn(48)?.text(value) == text)
    }

    /// Half away from zero on 15 significant digits: 1.005 and 2.675 (stored just below) round up, as in Excel;
    /// a carry past the first digit moves the exponent.
    @Test(arguments: [
        (9.995, "0.0E+0", "1.0E+1"), (99.95, "0.00E+00", "1.00E+02"), (2.5, "0E+0", "3E+0"), (12976, "0E+0", "1E+4"),
        (1.005, "0.00E+00", "1.01E+00"), (2.675, "0.00E+00", "2.68E+00"), (0.000125, "0.0E+00", "1.3E-04"),
        (0.99999, "0.00E+00", "1.00E+00"), (12976, "0.###E+0", "1.298E+4"), (999999, "00.00E+00", "01.00E+06"),
    ])
    func roundsLikeExcel(value: Double, code: String, text: String) {
        #expect(Self.text(value, code) == text)
    }

    /// More than one integer placeholder: the exponent is a multiple of their count, and their zeros are shown.
    @Test(arguments: [
        (77200.0, "00.00E+00", "07.72E+04"), (186472975e13, "00.00E+00", "18.65E+20"), (0.5, "00.00E+00", "50.00E-02"),
        (9.995, "00.00E+00", "10.00E+00"), (7.72e-5, "#0.0E+0", "77.2E-6"), (-0.5, "#0.0E+0", "-50.0E-2"),
        (-77200, "000.0E+0", "-077.2E+3"), (1.005, "000.0E+0", "001.0E+0"), (0.000125, "000.0E+0", "125.0E-6"),
        (77200, "###.00E+00", "77.20E+03"), (0.000123456, "###.00E+00", "123.46E-06"),
    ])
    func showsEngineeringNotation(value: Double, code: String, text: String) {
        #expect(Self.text(value, code) == text)
    }

    /// `E-` shows no plus sign; the exponent's zeros are its least count of digits; `e` stays lowercase; `#`
    /// fraction digits drop trailing zeros and `?` ones become spaces.
    @Test(arguments: [
        (77200.0, "0.000E-00", "7.720E04"), (0.000123456, "0.000E-00", "1.235E-04"), (1e100, "0.000E-00", "1.000E100"),
        (1.005, "0.00E+000", "1.01E+000"), (-77200, "0.00E+000", "-7.72E+004"), (77200, "0.00e+00", "7.72e+04"),
        (12976, "#.##E+00", "1.3E+04"), (77200, "#.##E+00", "7.72E+04"), (77200, "#E+0", "8E+4"),
        (12976, "?.??E+00", "1.3 E+04"), (-0.5, "?.??E+00", "-5.  E-01"), (-0.5, "0.0?E+00", "-5.0 E-01"),
        (45.5, "0.0?E+00", "4.55E+01"),
    ])
    func showsExponentsAndOptionalDigits(value: Double, code: String, text: String) {
        #expect(Self.text(value, code) == text)
    }

    /// A second section is for negative numbers, shown without a minus; a third for zero; a section without
    /// placeholders shows its text, an empty one nothing; one with another format shows the plain number (nil).
    @Test(arguments: [
        (-4.5e-7, "0.00E+00;(0.00E+00);\"zero\"", "(4.50E-07)"), (0, "0.00E+00;(0.00E+00);\"zero\"", "zero"),
        (77200, "0.00E+00;(0.00E+00);\"zero\"", "7.72E+04"), (-77200, "0.0E+0;0.0E+0", "7.7E+4"),
        (-77200, "0.00E+00;;", ""), (0, "0.00E+00;;", ""), (-0.5, "0.00E+00;\"neg\";\"zero\"", "neg"),
        (-77200, "0.00E+00;-0.00E+00;0", "-7.72E+04"), (0, "0.00E+00;-0.00E+00;0", nil),
        (0, "0.00E+00;-0.00E+00;General", nil), (-1, "0.00E+00;@", nil),
    ])
    func picksSectionsBySign(value: Double, code: String, text: String?) {
        #expect(Self.text(value, code) == text)
    }

    /// Quoted and escaped text is kept around the number with a minus sign before it; `[...]` and `*x` are left
    /// out, `_x` is a space. (For `0.00E+00_)`, LibreOffice shows the exponent `E+0 ` with one digit; Excel two.)
    @Test(arguments: [
        (77200.0, "\"Tag \"0.0E+00\" u\"", "Tag 7.7E+04 u"), (-4.5e-7, "\"Tag \"0.0E+00\" u\"", "-Tag 4.5E-07 u"),
        (1.005, "\\#0.0E+00\\%", "#1.0E+00%"), (-77200, "\\#0.0E+00\\%", "-#7.7E+04%"),
        (77200, "[Red]0.00E+00", "7.72E+04"), (-77200, "0.00E+00_);(0.00E+00)", "(7.72E+04)"),
        (77200, "0.00E+00_);(0.00E+00)", "7.72E+04 "), (77200, "[Blue]0.00E+00;[Red]-0.00E+00", "7.72E+04"),
        (77200, "**0.00E+00", "7.72E+04"),
    ])
    func keepsLiteralText(value: Double, code: String, text: String) {
        #expect(Self.text(value, code) == text)
    }

    @Test(arguments: [
        "General", "0.00", "#,##0", "000000", "0%", "@", "yyyy-mm-dd", "dd/mm/yyyy;@", "\"E+\"0", "0\\E+0",
        "0.00;0.00E+00", "0E", "0.0E+", "[$-409]mmmm d, yyyy",
    ])
    func isNotScientific(code: String) {
        #expect(ScientificFormat(code: code) == nil)
    }

    @Test func hasOnlyTheScientificBuiltIns() {
        #expect((0..<200).filter { ScientificFormat.builtIn($0) != nil } == [11, 48])
        #expect(ScientificFormat.builtIn(11) == ScientificFormat(code: "0.00E+00"))
    }

    @Test func showsNoNonFiniteNumber() {
        #expect(ScientificFormat.builtIn(11)?.text(.infinity) == nil)
        #expect(ScientificFormat.builtIn(11)?.text(.nan) == nil)
    }

    @Test func takesFifteenSignificantDigits() {
        #expect(ScientificFormat.significantDigits(1.005).digits == [1, 0, 0, 5] + Array(repeating: 0, count: 11))
        #expect(ScientificFormat.significantDigits(77200).magnitude == 4)
        #expect(ScientificFormat.significantDigits(0.000123).magnitude == -4)
        #expect(ScientificFormat.significantDigits(0) == ([0], 0))
        #expect(ScientificFormat.round([9, 9, 9], to: 2) == ([0, 0], true))
        #expect(ScientificFormat.round([1, 2], to: 4) == ([1, 2, 0, 0], false))
    }

    /// Writes a workbook with openpyxl whose cells hold numbers in scientific formats, converts it to CSV with
    /// LibreOffice showing cells as formatted, and checks that the project reads every cell as that CSV holds it.
    @Test(.enabled(if: WorkbookTools.hasOpenpyxl && WorkbookTools.hasLibreOffice, "needs openpyxl and soffice"))
    func showsWhatLibreOfficeShows() throws {
        let folder = TemporaryFolder()
        let codes = [
            "0.00E+00", "##0.0E+0", "0.0E+0", "0E+0", "0.000E-00", "00.00E+00", "###.00E+00", "0.00e+00",
            "0.00E+00;(0.00E+00);\\\"zero\\\"", "\\\"Tag \\\"0.0E+00", "0.0?E+00", "0.00E+000",
        ]
        let values = [
            "77200", "12976", "186472975e13", "0.000123456", "-4.5e-7", "0", "9.995", "99.95", "999999", "0.5",
            "-12345.678", "1e100", "123456789012345678", "2.5", "1.005", "2.675",
        ]
        let script = """
            import sys, openpyxl
            book = openpyxl.Workbook()
            sheet = book.active
            codes = [\(codes.map { "\"\($0)\"" }.joined(separator: ", "))]
            values = [\(values.joined(separator: ", "))]
            for r, v in enumerate(values, 1):
                for c, code in enumerate(codes, 1):
                    sheet.cell(row=r, column=c, value=v).number_format = code
            book.save(sys.argv[1])
            """
        let path = folder.path + "/scientific.xlsx"
        let made = WorkbookTools.python(script, [path])
        try #require(made.status == 0, "\(made.output)")
        let profile = folder.path + "/profile"
        let converted = WorkbookTools.run(
            "/usr/bin/env",
            [
                "soffice", "-env:UserInstallation=file://" + profile, "--headless", "--convert-to",
                "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true", "--outdir", folder.path, path,
            ])
        let csv = try #require(
            FileManager.default.contents(atPath: folder.path + "/scientific.csv"), "\(converted.output)")
        let shown = String(decoding: csv, as: UTF8.self).split(separator: "\n").map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        var read: [[String]] = []
        try Workbook(path: path).forEachRecord { record in read.append(record.strings) }
        #expect(read == shown)
        #expect(read.count == values.count && read.allSatisfy { $0.count == codes.count })
    }
}
