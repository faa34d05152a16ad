import Foundation
import Testing

@testable import StocktakeJob

/// `ReportLocator.open`: xdg-open found in the search path, missing, or failing.
@Suite final class ReportLocatorTests {
    /// A fresh `report-locator-…` folder in /tmp for one test (each test has an instance of its own), holding the
    /// fake xdg-open in `bin/`; removed when the test ends.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-locator-" + UUID().uuidString)
        .path

    init() throws {
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func opener(_ script: String) throws {
        let path = folder + "/bin/xdg-open"
        try Data(("#!/bin/sh\n" + script).utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    @Test func xdgOpenIsGivenThePath() throws {
        try opener("printf '%s' \"$1\" > \(folder)/opened\n")
        try ReportLocator.open("/srv/state/acme/latest/report.html", searchPath: "/nonexistent:" + folder + "/bin")
        #expect(try String(contentsOfFile: folder + "/opened", encoding: .utf8) == "/srv/state/acme/latest/report.html")
    }

    @Test func withoutXDGOpenTheSentenceSaysHowToOpenIt() {
        #expect(throws: ReportLocatorError.noOpener(path: "/r/report.html")) {
            try ReportLocator.open("/r/report.html", searchPath: folder + "/bin")
        }
        #expect(
            ReportLocatorError.noOpener(path: "/r/report.html").description
                == "xdg-open is not installed, so the report cannot be opened here; open /r/report.html in a browser "
                + "(file:///r/report.html), or install xdg-utils.")
        #expect(ReportLocatorError.noOpener(path: "/r").exitStatus.rawValue == 69)
    }

    @Test func aFailingXDGOpenIsReportedWithItsStatus() throws {
        try opener("exit 3\n")
        #expect(throws: ReportLocatorError.openFailed(path: "/r/report.html", status: 3)) {
            try ReportLocator.open("/r/report.html", searchPath: folder + "/bin")
        }
        #expect(
            ReportLocatorError.openFailed(path: "/r/report.html", status: 3).description
                == "xdg-open could not open /r/report.html (it ended with status 3); open the file in a browser "
                + "(file:///r/report.html).")
    }
}
