import Foundation
import StocktakeCore
import StocktakeSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A commented starting account for `stocktake init`: `Jobs/<name>/` with `account.json`, an empty `central.csv`,
/// a private `secrets/` folder and a README for the account's admin.
///
/// The account it writes loads cleanly and passes `stocktake check` as it is, so an admin starts from something
/// that works and changes one key at a time.
public enum AccountTemplate {
    /// The header of the example `central.csv`: every canonical field, in the order of `cleaned.csv`.
    public static let centralHeader = CanonicalField.allCases.map(\.rawValue).joined(separator: ",")

    /// Writes the starting account `name` under `jobs` (created if missing) and returns the account's folder.
    ///
    /// Refuses a name that is not an account name and a folder that already exists; when a file cannot be written,
    /// nothing of the new folder is left behind.
    public static func write(name: String, jobs: String) throws(AccountTemplateError) -> String {
        guard let account = AccountName(name) else {
            throw .invalidName(name: name, problem: AccountName.problem(with: name) ?? "is not allowed")
        }
        do {
            try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: jobs, reason: "the jobs folder cannot be made")
        }
        let folder = (jobs as NSString).appendingPathComponent(account.text)
        guard mkdir(folder, 0o755) == 0 else {
            let code = errno
            if code == EEXIST { throw .exists(folder: folder) }
            throw .cannotWrite(path: folder, reason: String(cString: strerror(code)).lowercased())
        }
        do throws(AccountTemplateError) {
            try writeFile(configuration(for: account), to: folder + "/account.json")
            try writeFile(centralHeader + "\n", to: folder + "/central.csv")
            try writeFile(readme(for: account), to: folder + "/README.md")
            let secrets = folder + "/secrets"
            // chmod as well: the umask may only take permissions away, but be explicit about what the folder allows.
            guard mkdir(secrets, 0o700) == 0, chmod(secrets, 0o700) == 0 else {
                throw .cannotWrite(path: secrets, reason: String(cString: strerror(errno)).lowercased())
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        return folder
    }

    private static func writeFile(_ text: String, to path: String) throws(AccountTemplateError) {
        do {
            try AtomicFile.write(text, to: path)
        } catch {
            let reason: String
            switch error {
            case .cannotWrite(_, let why): reason = why
            default: reason = error.description
            }
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// The commented `account.json` of a new account: every key with its default, central at `central.csv`.
    /// The environment variable a new account reads its token from: its own, so no two accounts share a token.
    public static func tokenVariable(for account: AccountName) -> String {
        "STOCKTAKE_TOKEN_" + String(account.text.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    public static func configuration(for account: AccountName) -> String {
        let defaults = AccountConfig(
            folder: "", account: account, name: account.text,
            central: AccountConfig.Source(provider: "file", location: "central.csv"))
        let limits = defaults.connection.limits
        let name = account.text
        return """
            {
              "_comment": [
                "Account \(name) for stocktake. Keys starting with _ are comments and are ignored.",
                "Paths are relative to this folder. README.md explains every key.",
                "After a change, run: stocktake check --account \(name)"
              ],
              "_comment_name": "The company's name, shown in reports and messages.",
              "name": "\(name)",
              "_comment_timeZone": "The IANA time zone the report states the run's time in, such as America/New_York.",
              "timeZone": "UTC",
              "_comment_central": [
                "The central asset sheet, the system of record. provider: file, https, google-sheets or google-drive;",
                "url: a path, an https:// address, or a Google Sheet's id or address."
              ],
              "central": { "provider": "file", "url": "central.csv" },
              "_comment_sightings": [
                "Paths, folders (every .csv, .tsv, .txt and .xlsx in them) or addresses of sheets that prove devices",
                "exist: installer scans, controller exports, receiving lists. A workbook whose data is not on its first",
                "sheet is written {\\"path\\": \\"scans.xlsx\\", \\"sheet\\": \\"APs\\"}, or {…, \\"sheets\\": \\"all\\"} for every sheet."
              ],
              "sightings": [],
              "_comment_registers": "Paths, folders or addresses of registers: tag and CNS lists, custodians, billing.",
              "registers": [],
              "_comment_buildings": [
                "Optional: \\"buildings\\": \\"buildings.csv\\", a code,name[,latitude,longitude] table.",
                "It is left out here because the file must exist; add the key when you have the table."
              ],
              "_comment_columns": [
                "Your column headers mapped to stocktake fields, such as {\\"Asset #\\": \\"vt_tag\\"};",
                "\\"ignore\\" skips a column. Common headers (VT Tag, Serial, MAC, Room) need no mapping."
              ],
              "columns": {},
              "_comment_precedence": [
                "Which source wins a disagreement, per field,",
                "such as {\\"room\\": [\\"survey\\", \\"central\\"]}."
              ],
              "precedence": {},
              "_comment_acknowledged": [
                "The findings the clerk has acknowledged: stocktake ack writes acknowledged.csv here; or the path or",
                "address of a sheet with the columns id,note,until,by that the clerk keeps."
              ],
              "acknowledged": "acknowledged.csv",
              "_comment_rules": [
                "tagDigits, cnsDigits: digits of a VT tag and a CNS number; staleAfterDays: unseen this long is STALE;",
                "maxShrink: a central sheet with this share fewer rows than the last good run's is refused (0.2 = 20 %);",
                "maxMissingShare: a night with more than this share of central assets unseen is refused; keepRuns:",
                "runs kept; maxMemoryMB, maxMinutes: the memory and the minutes this account's own process may use;",
                "past them it is stopped and this account alone fails. maxFieldBytes, maxRows: the most bytes a cell",
                "and rows a source (and all sources together) may hold; a file past them is refused. allowedRoots:",
                "the folders sources may lie in once links are followed (default: this folder and the paths named here).",
                "reportGroup: the group whose members (the clerks) may read the run folders and reports (default: the",
                "group of the state folder)."
              ],
              "rules": {
                "tagDigits": \(defaults.tagDigits), "cnsDigits": \(defaults.cnsDigits), \
            "staleAfterDays": \(defaults.staleAfterDays), "maxShrink": \(defaults.maxShrink),
                "maxMissingShare": \(defaults.maxMissingShare), "keepRuns": \(defaults.keepRuns), \
            "maxMemoryMB": \(defaults.maxMemoryMB),
                "maxMinutes": \(String(format: "%g", defaults.maxMinutes)), "maxFieldBytes": \(defaults.maxFieldBytes), \
            "maxRows": \(defaults.maxRows)
              },
              "_comment_auth": [
                "For remote sheets: put the token in secrets/token (chmod 600),",
                "then add \\"tokenFile\\": \\"secrets/token\\". oauthFile: an OAuth refresh-token JSON file;",
                "caFile: a private CA bundle; tokenVariable: an environment variable holding a token."
              ],
              "auth": { "tokenVariable": "\(tokenVariable(for: account))" },
              "_comment_limits": [
                "Seconds to connect, seconds for one try of a transfer, seconds for all its tries together,",
                "and the largest download in MB."
              ],
              "limits": {
                "connectTimeoutSeconds": \(limits.connectTimeoutSeconds), \
            "timeoutSeconds": \(limits.totalTimeoutSeconds), "deadlineSeconds": \(limits.deadlineSeconds),
                "maxDownloadMB": \(limits.maximumDownloadBytes >> 20)
              },
              "_comment_google": "Google API base addresses; change them only for a proxy or a test server.",
              "google": {
                "sheetsAPI": "\(defaults.connection.sheetsAPI)", "driveAPI": "\(defaults.connection.driveAPI)"
              },
              "_comment_push": [
                "cleaned: edit the central sheet after each run (true or false): only mapped cells change, the layout",
                "stays yours, and changes.csv lists every change; normalize: write canonical forms; fill: fill empty",
                "cells; overwrite: replace a value a more authoritative source contradicts; fields: only these fields",
                "(all when absent); addUnrecorded: append unrecorded assets; report: an https:// folder the outputs",
                "are uploaded to, such as \\"https://files.example.org/reports/\\"."
              ],
              "push": {
                "cleaned": false, "normalize": true, "fill": true, "overwrite": false, "addUnrecorded": false
              },
              "_comment_report": [
                "url: the address where people open this account's state folder in a browser, such as",
                "\\"https://intranet.example.org/stocktake/\(name)/\\"; the nightly mail then links each report."
              ],
              "report": {},
              "_comment_testFailureMode": [
                "Failures to rehearse on every run of this account only, such as [\\"push\\"]: pull, push, upload, token,",
                "timeout, disk-full, lock. Each fails as the real failure would, labelled, with nothing sent to a server."
              ],
              "testFailureMode": []
            }

            """
    }

    /// The README for the account's admin: what each key means, where the token goes, how to check the account.
    public static func readme(for account: AccountName) -> String {
        let name = account.text
        let defaults = AccountConfig(
            folder: "", account: account, name: name, central: AccountConfig.Source(provider: "file", location: ""))
        return """
            # Account \(name)

            This folder is one company account of stocktake's nightly run (`stocktake run`). It holds:

            - `account.json`: where this account's sheets are and how to reconcile them (explained below).
            - `central.csv`: an empty example central sheet with stocktake's own column names. Replace it, or point
              `central` at the real sheet.
            - `secrets/`: credentials, readable by the owner only (mode 0700). Never commit it.

            After every change, check the account:

                stocktake check --account \(name)

            It reads every file, tries every address with this account's credentials and prints one line per
            check. Exit status 0 means tonight's run will work; 78 a setting, secrets file or column mapping is
            wrong; 69 a server could not be reached.

            ## The keys of account.json

            Paths are relative to this folder. Keys starting with `_` are comments and are ignored.

            - `name`: the company's name, shown in reports and messages.
            - `timeZone`: the IANA time zone the report states the run's time in (`America/New_York`,
              `Europe/Paris`: a file under `/usr/share/zoneinfo`); `UTC` by default.
            - `central`: the central asset sheet, the system of record, as `{"provider": …, "url": …}`.
              `central.provider` is `file` (a path), `https` (a CSV or `.xlsx` over HTTPS or WebDAV),
              `google-sheets` (a sheet id or address) or `google-drive` (a file id or address); `central.url` says
              where the sheet is. `central.sheet` names the worksheet of an `.xlsx` central sheet when it is not
              the first. The cleaned sheet is pushed back here.
            - `sightings`: a list of paths, folders (every `.csv`, `.tsv`, `.txt` and `.xlsx` in them) or addresses
              of sheets that prove a device exists: installer scans, controller exports, receiving lists. An entry
              may be an object: `{"path": "scans.xlsx", "sheet": "APs"}` reads that worksheet of a workbook,
              `{"path": "scans/", "sheets": "all"}` every visible worksheet of each workbook (the first visible
              one is read otherwise), `{"path": "legacy.csv", "encoding": "windows-1252"}` text in that encoding
              (otherwise UTF-8, or Windows-1252 when a file is not UTF-8).
            - `registers`: a list like `sightings`, of records that are not physical evidence: tag and CNS
              registers, custodian lists, billing.
            - `buildings`: optional path to a `code,name[,latitude,longitude]` table; building codes not in it are
              reported. Add the key only once the file exists.
            - `columns`: your column headers mapped to stocktake's fields, such as `{"Asset #": "vt_tag"}`. The
              fields are vt_tag, cns_number, serial_number, mac_address, model, description, building, room,
              mount, custodian, latitude, longitude, last_seen, stock_number, plus `gps` (one "lat, lon" cell)
              and `ignore`. Common names (VT Tag, Serial, MAC, Room…) are known without a mapping.
            - `precedence`: which source wins when sources disagree, per field, such as
              `{"room": ["survey", "central"]}` (file names or roles).
            - `acknowledged`: the findings you have acknowledged (default `acknowledged.csv` here, which
              `stocktake ack ID --account \(name) --note TEXT` writes), or the path or address of a sheet you keep
              with the columns `id,note,until,by`. An acknowledged finding is listed apart and not counted until
              its evidence changes or its `until` date passes.
            - `rules.tagDigits`, `rules.cnsDigits`: the digits of a VT tag and of a CNS number.
            - `rules.staleAfterDays`: an asset not seen for this many days is reported STALE.
            - `rules.maxShrink`: a central sheet with more than this share fewer rows than the last good run's
              (0.2 = 20 %) is refused, not reconciled or pushed; so is a push that would remove that share. After
              a deliberate cleanup, run `stocktake run --accept-shrink --account NAME` once.
            - `rules.maxMissingShare`: a night where more than this share of the central assets are seen by no
              sighting (0.5 = 50 %) is refused and nothing is pushed.
            - `rules.keepRuns`: how many run folders the state folder keeps.
            - `rules.maxMemoryMB`: the memory the account's own process may use, in MB (default \(defaults.maxMemoryMB));
              an account that needs more fails alone ("ran out of its … MB memory limit") and the others still run.
            - `rules.maxMinutes`: the minutes the account's process may run (default \(String(format: "%g", defaults.maxMinutes)));
              past them it is stopped and the account fails alone ("ran out of its …-minute time limit").
            - `rules.maxFieldBytes`: the most bytes one cell may hold (default \(defaults.maxFieldBytes), 1 MiB); a file
              with a longer one is refused, naming its line and column, before the cell is held in memory.
            - `rules.maxRows`: the most data rows one source, and all the sources together, may hold (default
              \(defaults.maxRows)); raise `rules.maxMemoryMB` with it (about 160 bytes a row).
            - `rules.allowedRoots`: the folders the local sources must lie in once symbolic links are followed, such
              as `[".", "/srv/share/acme"]` (default: this folder and every local path this file names); a link
              leading elsewhere is refused and nothing is read from it.
            - `rules.reportGroup`: the group whose members (the clerks) may read this account's run folders and
              reports, such as `"inventory"` (default: the group of the state folder); they are given to it with
              modes 0750 and 0640.
            - `rules.identifierOrder`: the order rows without a VT tag are matched by, such as
              `["vt_tag", "serial_number", "mac_address", "cns_number"]` (the VT tag always comes first).
            - `auth.tokenFile`: a file holding a bearer token for this account's servers.
            - `auth.oauthFile`: a JSON file with `tokenURL`, `clientID`, `clientSecret` and `refreshToken`
              (OAuth 2.0 refresh-token grant), for Google and other OAuth servers.
            - `auth.tokenVariable`: an environment variable holding a token, used when no token file is given.
            - `auth.caFile`: a CA bundle to trust for a private certificate authority.
            - `limits.connectTimeoutSeconds`, `limits.timeoutSeconds`: seconds to connect, and for one try of a
              transfer.
            - `limits.deadlineSeconds`: seconds for a transfer with all its retries; a stalled server is given up
              after this.
            - `limits.maxDownloadMB`: the largest sheet accepted, in MB.
            - `google.sheetsAPI`, `google.driveAPI`: the Google API base addresses; change them only for a proxy
              or a test server.
            - `push.cleaned`: `true` to edit the central sheet after each run. Only mapped cells change (the
              header, column order, other columns, row order, delimiter, BOM and line ends stay yours), and
              `changes.csv` in each run lists every change, pushed or not.
            - `push.normalize`: write identifiers and fields in their canonical form (default `true`).
            - `push.fill`: an empty cell takes the merged value (default `true`).
            - `push.overwrite`: a non-empty cell takes a more authoritative source's different value (default
              `false`: the disagreement stays a FIELD_CONFLICT for you to settle).
            - `push.fields`: the only fields a push may write, such as `["room", "custodian"]` (default: all).
            - `push.addUnrecorded`: append unrecorded assets at the end of the sheet (default `false`).
            - `push.report`: an `https://` folder the outputs (report, discrepancies) are uploaded to.
            - `report.url`: the address where people open this account's state folder in a browser; the nightly
              mail then gives links (`report.url` + `runs/<run>/report.html`) instead of server paths.
            - `testFailureMode`: failures this account rehearses on every run, such as `["push"]` (pull, push,
              upload, token, timeout, disk-full, lock): each fails as the real failure would, every message labelled
              "(simulated failure: …)", with nothing sent to a server. Leave it empty for real nights.

            ## Where the token goes

            Put the token alone in `secrets/token`, readable by its owner only, then name it in `account.json`:

                umask 077
                printf '%s\\n' 'THE-TOKEN' > secrets/token
                chmod 600 secrets/token

                "auth": { "tokenFile": "secrets/token" }

            stocktake refuses a secrets file that others can read, and sends this token only to the hosts this
            account names. `stocktake check` never prints it.

            """
    }
}
