import Foundation

/// A small, independent reader of the generated files for tests: RFC 4180 quoting, any line end, BOM skipped,
/// blank lines dropped.
enum TestCSVReader {
    /// The records of a file, header first.
    static func records(atPath path: String, separator: Character = ",") throws -> [[String]] {
        var text = try String(contentsOfFile: path, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") {
            text.removeFirst()
        }
        var records: [[String]] = []
        var record: [String] = []
        var cell = ""
        var quoted = false
        var characters = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = characters.next()
        func endRecord() {
            record.append(cell)
            if !(record.count == 1 && record[0].isEmpty) {
                records.append(record)
            }
            record = []
            cell = ""
        }
        while let scalar = pending {
            pending = characters.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        cell.unicodeScalars.append("\"")
                        pending = characters.next()
                    } else {
                        quoted = false
                    }
                } else {
                    cell.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" && cell.isEmpty {
                quoted = true
            } else if Character(scalar) == separator {
                record.append(cell)
                cell = ""
            } else if scalar == "\r" {
                continue
            } else if scalar == "\n" {
                endRecord()
            } else {
                cell.unicodeScalars.append(scalar)
            }
        }
        if !cell.isEmpty || !record.isEmpty {
            endRecord()
        }
        return records
    }
}
