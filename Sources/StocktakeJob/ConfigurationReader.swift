import Foundation
import StocktakeCore
import StocktakeSync

/// Reads `account.json`, collecting every problem instead of stopping at the first.
struct ConfigurationReader {
    let folder: String
    let accountText: String
    let object: [String: Any]
    private(set) var problems: [ConfigurationProblem] = []

    init(folder: String) throws(ConfigurationProblem) {
        self.folder = folder
        accountText = (folder as NSString).lastPathComponent
        let path = (folder as NSString).appendingPathComponent("account.json")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationProblem(
                account: accountText, key: "", problem: "is missing from \(folder)",
                fix: "Create it (stocktake init \(accountText) writes a commented start).")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ConfigurationProblem(
                account: accountText, key: "", problem: "is not valid JSON",
                fix: "Check its commas, quotes and braces (a JSON validator shows the line).")
        }
        guard let object = parsed as? [String: Any] else {
            throw ConfigurationProblem(
                account: accountText, key: "", problem: "must be a JSON object",
                fix: "Start it with { and end it with }.")
        }
        self.object = object
    }

    mutating func read() -> AccountConfig? {
        guard let account = AccountName(accountText) else {
            note(
                "", "is in a folder whose name \(AccountName.problem(with: accountText) ?? "is not allowed")",
                "Rename the folder under Jobs/.")
            return nil
        }
        checkKeys()
        let name = string("name") ?? accountText
        guard let central = source() else { return nil }
        var config = AccountConfig(folder: folder, account: account, name: name, central: central)
        if let zone = string("timeZone") {
            if let timeZone = ReportTimeZone(named: zone) {
                config.timeZone = timeZone
            } else {
                note(
                    "timeZone", "names no time zone this machine knows (\"\(zone)\")",
                    "Write an IANA name such as \"America/New_York\" or \"Europe/Paris\" (the names of the files "
                        + "under \(ReportTimeZone.zoneInfoFolder)), or leave the key out for UTC.")
            }
        }
        config.sightings = locations("sightings")
        config.registers = locations("registers")
        if let buildings = string("buildings") { config.buildings = localFile(buildings, key: "buildings") }
        config.columns = columns()
        if let acknowledged = string("acknowledged") {
            config.acknowledgedSheet = checkedLocation(
                acknowledged, provider: nil, key: "acknowledged", mustExist: false)
        }
        config.precedence = precedence()
        config.tagDigits = integer("rules.tagDigits", in: 1...18) ?? config.tagDigits
        config.cnsDigits = integer("rules.cnsDigits", in: 1...18) ?? config.cnsDigits
        config.staleAfterDays = integer("rules.staleAfterDays", in: 0...36_500) ?? config.staleAfterDays
        config.keepRuns = integer("rules.keepRuns", in: 1...10_000) ?? config.keepRuns
        if let order = identifierOrder() { config.identifierOrder = order }
        if let group = string("rules.reportGroup") {
            if ReportAccess.groupID(named: group) != nil {
                config.reportGroup = group
            } else {
                note(
                    "rules.reportGroup", "names the group \(group), which this machine does not have",
                    "Name an existing group (getent group lists them), such as the group of the clerks who read the "
                        + "reports, or create it with groupadd \(group).")
            }
        }
        if let shrink = number("rules.maxShrink") {
            if (0...1).contains(shrink) {
                config.maxShrink = shrink
            } else {
                note("rules.maxShrink", "must be a fraction from 0 to 1, not \(shrink)", "Write 0.2 for 20 %.")
            }
        }
        if let share = number("rules.maxMissingShare") {
            if (0...1).contains(share) {
                config.maxMissingShare = share
            } else {
                note("rules.maxMissingShare", "must be a fraction from 0 to 1, not \(share)", "Write 0.5 for 50 %.")
            }
        }
        config.maxMemoryMB = integer("rules.maxMemoryMB", in: 256...1_048_576) ?? config.maxMemoryMB
        config.maxFieldBytes = integer("rules.maxFieldBytes", in: 1024...(1 << 30)) ?? config.maxFieldBytes
        config.maxRows = integer("rules.maxRows", in: 1...1_000_000_000) ?? config.maxRows
        config.allowedRoots = allowedRoots()
        if let minutes = number("rules.maxMinutes") {
            if minutes > 0, minutes <= 10_080 {
                config.maxMinutes = minutes
            } else {
                note(
                    "rules.maxMinutes",
                    "must be a number of minutes above 0 and at most 10080 (a week), not \(minutes)",
                    "Write 60 for an hour; 0.5 is 30 seconds.")
            }
        }
        if let tokenFile = string("auth.tokenFile") {
            config.connection.tokenFile = localFile(tokenFile, key: "auth.tokenFile")
        }
        // In a run over many accounts an environment token applies only to the account that names it.
        config.connection.tokenVariable = string("auth.tokenVariable")
        if let oauthFile = string("auth.oauthFile") {
            config.connection.oauthFile = localFile(oauthFile, key: "auth.oauthFile")
        }
        if let caFile = string("auth.caFile") {
            config.connection.limits.caFile = localFile(caFile, key: "auth.caFile")
        }
        if let seconds = integer("limits.connectTimeoutSeconds", in: 1...3600) {
            config.connection.limits.connectTimeoutSeconds = seconds
        }
        if let seconds = integer("limits.timeoutSeconds", in: 1...86_400) {
            config.connection.limits.totalTimeoutSeconds = seconds
        }
        if let seconds = integer("limits.deadlineSeconds", in: 1...86_400) {
            config.connection.limits.deadlineSeconds = seconds
        }
        if let megabytes = integer("limits.maxDownloadMB", in: 1...65_536) {
            config.connection.limits.maximumDownloadBytes = megabytes << 20
        }
        if let url = endpoint("google.sheetsAPI") { config.connection.sheetsAPI = url }
        if let url = endpoint("google.driveAPI") { config.connection.driveAPI = url }
        config.pushCleaned = boolean("push.cleaned") ?? false
        config.writeBack.normalize = boolean("push.normalize") ?? config.writeBack.normalize
        config.writeBack.fill = boolean("push.fill") ?? config.writeBack.fill
        config.writeBack.overwrite = boolean("push.overwrite") ?? config.writeBack.overwrite
        config.writeBack.addUnrecorded = boolean("push.addUnrecorded") ?? config.writeBack.addUnrecorded
        config.writeBack.fields = pushFields()
        if let report = string("push.report"), endpoint("push.report") != nil { config.reportTo = report }
        if let url = string("report.url"), endpoint("report.url") != nil {
            config.reportURL = url.hasSuffix("/") ? url : url + "/"
        }
        config.testFailureMode = failureModes()
        return config
    }

    /// `testFailureMode`: the failures the account rehearses, a list of kinds of `SimulatedFailure`.
    private mutating func failureModes() -> [SimulatedFailure] {
        guard let raw = value("testFailureMode") else { return [] }
        guard let names = raw as? [String] else {
            note(
                "testFailureMode", "must be a list of failures to simulate, not \(Self.show(raw))",
                "Write for example [\"push\"], or remove the key.")
            return []
        }
        var kinds: Set<SimulatedFailure> = []
        for name in names {
            guard let kind = SimulatedFailure(rawValue: name) else {
                note(
                    "testFailureMode", "names \"\(name)\", which is not a failure stocktake can simulate",
                    "Use some of \(SimulatedFailure.accepted), or remove the key.")
                return []
            }
            kinds.insert(kind)
        }
        return kinds.sorted()
    }

    // MARK: - Keys and types

    private mutating func checkKeys() {
        let known = AccountConfig.keys.keys.sorted()
        for key in object.keys.sorted() where !Self.isComment(key) {
            guard let inner = AccountConfig.keys[key] else {
                note(
                    key, "is not a key stocktake knows",
                    "Remove it or check its spelling; the keys are \(known.joined(separator: ", ")).")
                continue
            }
            guard !inner.isEmpty, let nested = object[key] as? [String: Any] else { continue }
            for child in nested.keys.sorted() where !inner.contains(child) && !Self.isComment(child) {
                note(
                    "\(key).\(child)", "is not a key stocktake knows",
                    "Remove it or check its spelling; \(key) takes \(inner.joined(separator: ", ")).")
            }
        }
    }

    /// Whether `key` is a comment: keys starting with `_` explain the file to people and are ignored.
    static func isComment(_ key: String) -> Bool {
        key.hasPrefix("_")
    }

    private func value(_ path: String) -> Any? {
        var current: Any? = object
        for part in path.split(separator: ".") {
            current = (current as? [String: Any])?[String(part)]
        }
        return current
    }

    private mutating func string(_ path: String) -> String? {
        guard let raw = value(path) else { return nil }
        guard let text = raw as? String else {
            note(path, "must be a string", "Put the value in double quotes.")
            return nil
        }
        return text
    }

    private mutating func integer(_ path: String, in range: ClosedRange<Int>) -> Int? {
        guard let raw = value(path) else { return nil }
        guard let number = raw as? NSNumber, !Self.isBoolean(raw), number.doubleValue == number.doubleValue.rounded(),
            range.contains(number.intValue)
        else {
            note(
                path, "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(Self.show(raw))",
                "Fix the value.")
            return nil
        }
        return number.intValue
    }

    private mutating func number(_ path: String) -> Double? {
        guard let raw = value(path) else { return nil }
        guard let number = raw as? NSNumber, !Self.isBoolean(raw) else {
            note(path, "must be a number, not \(Self.show(raw))", "Fix the value.")
            return nil
        }
        return number.doubleValue
    }

    private mutating func boolean(_ path: String) -> Bool? {
        guard let raw = value(path) else { return nil }
        guard Self.isBoolean(raw), let flag = raw as? Bool else {
            note(path, "must be true or false, not \(Self.show(raw))", "Write true or false without quotes.")
            return nil
        }
        return flag
    }

    private mutating func endpoint(_ path: String) -> EndpointURL? {
        guard let text = string(path) else { return nil }
        do {
            return try EndpointURL(text)
        } catch {
            note(path, "cannot be used: \(error)", "Give an https:// URL.")
            return nil
        }
    }

    /// Whether a parsed JSON value is `true` or `false`. On Linux the numbers 0 and 1 also cast to `Bool`, so the
    /// number's own type tells them apart: JSON booleans are stored as `char`.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func show(_ value: Any) -> String {
        if isBoolean(value), let flag = value as? Bool { return flag ? "true" : "false" }
        if let text = value as? String { return "\"\(text)\"" }
        if value is [Any] { return "a list" }
        if value is [String: Any] { return "an object" }
        return "\(value)"
    }

    // MARK: - Sources

    private mutating func source() -> AccountConfig.Source? {
        guard let raw = value("central") else {
            note("central", "is missing", "Name the central sheet: {\"provider\": \"file\", \"url\": \"central.csv\"}.")
            return nil
        }
        let provider: String?
        let url: String
        if let text = raw as? String {
            provider = nil
            url = text
        } else if raw is [String: Any] {
            provider = string("central.provider")
            guard let text = string("central.url") else {
                if value("central.url") == nil {
                    note("central.url", "is missing", "Give the central sheet's path or address.")
                }
                return nil
            }
            url = text
        } else {
            note(
                "central", "must be an object or a string", "Write {\"provider\": \"file\", \"url\": \"central.csv\"}.")
            return nil
        }
        if let provider, !SheetLocation.providers.contains(provider) {
            note(
                "central.provider", "is \"\(provider)\", which stocktake does not know",
                "Use one of \(SheetLocation.providers.joined(separator: ", ")).")
            return nil
        }
        var sheet: String?
        if raw is [String: Any], value("central.sheet") != nil {
            guard let name = string("central.sheet"), !name.isEmpty else {
                note("central.sheet", "must be a sheet's name in double quotes", "Write \"sheet\": \"Assets\".")
                return nil
            }
            sheet = name
        }
        let location = checkedLocation(url, provider: provider, key: "central")
        return location.map { AccountConfig.Source(provider: provider, location: $0, sheet: sheet) }
    }

    private mutating func locations(_ key: String) -> [SourceEntry] {
        guard let raw = value(key) else { return [] }
        guard let list = raw as? [Any] else {
            note(key, "must be a list", "Write [\"folder/\", \"https://…/sheet.csv\"].")
            return []
        }
        var result: [SourceEntry] = []
        for (index, entry) in list.enumerated() {
            let entryKey = "\(key)[\(index)]"
            if let text = entry as? String {
                if let location = checkedLocation(text, provider: nil, key: entryKey) {
                    result.append(SourceEntry(location))
                }
            } else if let object = entry as? [String: Any] {
                if let source = sourceEntry(object, key: entryKey) { result.append(source) }
            } else {
                note(
                    entryKey, "must be a string or an object",
                    "Give a path or an address in double quotes, or {\"path\": \"assets.xlsx\", \"sheet\": \"APs\"}.")
            }
        }
        return result
    }

    /// The keys a source given as an object may have.
    static let sourceEntryKeys = ["path", "url", "sheet", "sheets", "encoding"]

    /// A source given as an object: `{"path": "assets.xlsx", "sheet": "APs"}` or `{"url": "…", "sheets": "all"}`.
    private mutating func sourceEntry(_ object: [String: Any], key: String) -> SourceEntry? {
        for child in object.keys.sorted() where !Self.sourceEntryKeys.contains(child) && !Self.isComment(child) {
            note(
                "\(key).\(child)", "is not a key stocktake knows",
                "Remove it or check its spelling; a source takes \(Self.sourceEntryKeys.joined(separator: ", ")).")
        }
        guard let text = (object["path"] ?? object["url"]) as? String else {
            note(key, "needs a \"path\" (or \"url\") string", "Write {\"path\": \"assets.xlsx\", \"sheet\": \"APs\"}.")
            return nil
        }
        var sheets = SheetSelection.first
        if object["sheet"] != nil && object["sheets"] != nil {
            note(key, "has both \"sheet\" and \"sheets\"", "Keep \"sheet\" for one sheet, or \"sheets\": \"all\".")
            return nil
        }
        if let sheet = object["sheet"] {
            guard let name = sheet as? String, !name.isEmpty else {
                note("\(key).sheet", "must be a sheet's name in double quotes", "Write \"sheet\": \"APs\".")
                return nil
            }
            sheets = .named(name)
        }
        if let all = object["sheets"] {
            guard all as? String == "all" else {
                note(
                    "\(key).sheets", "can only be \"all\"",
                    "Write \"sheets\": \"all\" to read every visible sheet, or \"sheet\": \"APs\" for one.")
                return nil
            }
            sheets = .all
        }
        var encoding: TextEncoding?
        if let setting = object["encoding"] {
            guard let name = setting as? String, let named = TextEncoding(name: name) else {
                note(
                    "\(key).encoding", "is not an encoding stocktake reads",
                    "Write one of \(TextEncoding.acceptedNames), or leave it out to decide from each file.")
                return nil
            }
            encoding = named
        }
        return checkedLocation(text, provider: nil, key: key).map {
            SourceEntry($0, sheets: sheets, encoding: encoding)
        }
    }

    /// A location with local paths resolved against the account folder and (unless `mustExist` is false) checked to
    /// exist.
    private mutating func checkedLocation(_ text: String, provider: String?, key: String, mustExist: Bool = true)
        -> String?
    {
        let location: SheetLocation
        do {
            location = try SheetLocation(text, provider: provider)
        } catch {
            note(key, "cannot be used: \(error)", "Give a path, an https:// URL or a Google address.")
            return nil
        }
        guard case .file(let path) = location else { return text }
        return mustExist ? localFile(path, key: key) : AccountConfig.resolve(path, in: folder)
    }

    private mutating func localFile(_ path: String, key: String) -> String? {
        let resolved = AccountConfig.resolve(path, in: folder)
        guard FileManager.default.fileExists(atPath: resolved) else {
            note(
                key, "names \(resolved), which does not exist",
                "Fix the path (relative to \(folder)) or create the file.")
            return nil
        }
        return resolved
    }

    /// `rules.allowedRoots`: a list of folders (or files), resolved against the account folder; `nil` when not set.
    private mutating func allowedRoots() -> [String]? {
        guard let raw = value("rules.allowedRoots") else { return nil }
        guard let paths = raw as? [String], !paths.isEmpty, !paths.contains(where: \.isEmpty) else {
            note(
                "rules.allowedRoots", "must be a list of folder paths in double quotes",
                "Write [\".\", \"/srv/share/acme\"]; \".\" is the account's folder.")
            return nil
        }
        return paths.map { AccountConfig.resolve($0, in: folder) }
    }

    /// `rules.identifierOrder`: serial_number, mac_address and cns_number in the account's order, optionally after
    /// vt_tag (which always comes first).
    private mutating func identifierOrder() -> [CanonicalField]? {
        guard let raw = value("rules.identifierOrder") else { return nil }
        let fix = "Write for example [\"vt_tag\", \"mac_address\", \"serial_number\", \"cns_number\"]."
        guard let names = raw as? [String] else {
            note("rules.identifierOrder", "must be a list of identifier names", fix)
            return nil
        }
        var order = names.compactMap(CanonicalField.init(rawValue:))
        if order.first == .vtTag { order.removeFirst() }
        guard order.count == names.count - (names.first == "vt_tag" ? 1 : 0),
            Set(order) == [.serialNumber, .macAddress, .cnsNumber], order.count == 3
        else {
            note(
                "rules.identifierOrder",
                "must name serial_number, mac_address and cns_number once each, optionally after vt_tag (which always "
                    + "comes first), not \(names)", fix)
            return nil
        }
        return order
    }

    /// `push.fields`: the canonical fields a push may ever write, or `nil` for every mapped field.
    private mutating func pushFields() -> Set<CanonicalField>? {
        guard let raw = value("push.fields") else { return nil }
        let fix = "Write for example [\"room\", \"building\", \"custodian\"]."
        guard let names = raw as? [String] else {
            note("push.fields", "must be a list of field names", fix)
            return nil
        }
        var fields = Set<CanonicalField>()
        for name in names {
            guard let field = CanonicalField(rawValue: name) else {
                note(
                    "push.fields", "names \"\(name)\", which is not a field",
                    "Use some of \(CanonicalField.allCases.map(\.rawValue).joined(separator: ", ")).")
                continue
            }
            fields.insert(field)
        }
        return fields
    }

    // MARK: - Mappings

    private mutating func columns() -> [String: ColumnTarget] {
        guard let raw = value("columns") else { return [:] }
        guard let pairs = raw as? [String: Any] else {
            note("columns", "must be an object of column → field", "Write {\"Asset #\": \"vt_tag\"}.")
            return [:]
        }
        var result: [String: ColumnTarget] = [:]
        for (header, target) in pairs.sorted(by: { $0.key < $1.key }) where !Self.isComment(header) {
            guard let name = target as? String, let mapped = ColumnTarget(mappingName: name) else {
                note(
                    "columns.\(header)", "maps to \(Self.show(target)), which is not a field",
                    "Use one of \(CanonicalField.allCases.map(\.rawValue).joined(separator: ", ")), gps or ignore.")
                continue
            }
            result[header] = mapped
        }
        return result
    }

    private mutating func precedence() -> [CanonicalField: FieldPrecedence] {
        guard let raw = value("precedence") else { return [:] }
        guard let pairs = raw as? [String: Any] else {
            note(
                "precedence", "must be an object of field → list of sources",
                "Write {\"room\": [\"survey\", \"central\"]}.")
            return [:]
        }
        var result: [CanonicalField: FieldPrecedence] = [:]
        for (key, order) in pairs.sorted(by: { $0.key < $1.key }) where !Self.isComment(key) {
            guard let field = CanonicalField(rawValue: key) else {
                note("precedence.\(key)", "is not a field", "Use a field name such as room or custodian.")
                continue
            }
            guard let selectors = order as? [String] else {
                note("precedence.\(key)", "must be a list of sources", "Write [\"survey\", \"central\"].")
                continue
            }
            result[field] = FieldPrecedence(selectors)
        }
        return result
    }

    private mutating func note(_ key: String, _ problem: String, _ fix: String) {
        problems.append(ConfigurationProblem(account: accountText, key: key, problem: problem, fix: fix))
    }
}
