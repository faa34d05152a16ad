#!/usr/bin/env python3
"""A small emulator of Google Sheets API v4, Drive API v3 and the OAuth 2.0 token endpoint, for tests.

Standard library only. It listens on 127.0.0.1 on ports the system picks and prints them on stdout:
line 1 is the API port, line 2 the port of a recorder that only records what it receives (the target of
redirects that must not carry a token). It exits when its standard input is closed, so a test process that
dies never leaves it behind.

Served on the API port (all on one origin, so every base URL of a client can point at it):
  GET    /v4/spreadsheets/{id}                            spreadsheets.get (sheet properties only)
  GET    /v4/spreadsheets/{id}/values/{range}             spreadsheets.values.get
  PUT    /v4/spreadsheets/{id}/values/{range}             spreadsheets.values.update (valueInputOption required)
  POST   /v4/spreadsheets/{id}/values/{range}:clear       spreadsheets.values.clear
  POST   /v4/spreadsheets/{id}/values:batchUpdate         spreadsheets.values.batchUpdate
  GET    /drive/v3/files/{id}?fields=...                  files.get (metadata)
  GET    /drive/v3/files/{id}?alt=media                   files.get (content of a binary file)
  GET    /drive/v3/files/{id}/export?mimeType=text/csv    files.export (Google Sheets only)
  PATCH  /upload/drive/v3/files/{id}?uploadType=media     files.update with a simple media upload
  POST   /token                                           OAuth 2.0 token endpoint, refresh_token grant

Every API call needs `Authorization: Bearer T` where T was issued by /token or seeded through the control
API and has not expired; otherwise 401 with `WWW-Authenticate: Bearer realm="https://accounts.google.com/",
error="invalid_token"` and a Google error body (without the error code when no token was sent at all).

Control API (JSON, never recorded, no token needed):
  POST   /_control/state      replace the whole state: {"client": {"id", "secret"}, "refreshTokens": [..],
                              "rotateRefreshTokens": bool, "accessTokenLifetime": seconds,
                              "tokens": [{"token", "expiresIn"}], "spreadsheets": {id: {"access",
                              "sheets": [{"title", "values", "rowCount", "columnCount", "hidden"}]}},
                              "files": {id: {"name", "mimeType", "content" (text) or "contentBase64"
                              (bytes, such as an .xlsx workbook), "version", "access", "sharedDrive"}}}
                              ("access" is "write" (default), "read" or "none"; a file on a shared drive
                              is "not found" by files.get and files.update without supportsAllDrives=true)
  GET    /_control/state      the current state, with each spreadsheet's "revision" and each file's "version"
                              (a file's content both as text and as "contentBase64")
  POST   /_control/edit       another writer changes something: {"spreadsheet", "sheet"?, "values"} or
                              {"file", "content" or "contentBase64"}; the revision or version goes up
  POST   /_control/tokens     seed an access token: {"token", "expiresIn"}
  POST   /_control/expire     expire {"token"}, or every access token when none is named
  POST   /_control/fault      add a fault: {"pathPrefix", "method", "skip", "times" (default 1, -1 forever),
                              "status", "message", "retryAfter", "headers", "body", "stallSeconds",
                              "oversizeBytes", "omitLength", "redirectTo"}
  DELETE /_control/fault      remove every fault
  GET    /_control/requests   what both listeners received: [{"listener", "method", "path", "headers", "body"}]
                              with header names in lower case (Authorization included)
  DELETE /_control/requests   forget them
  POST   /_control/recorder   what the recorder answers: {"status", "contentType", "body"}
  GET    /_control/info       {"port", "recorderPort"}
"""

import base64
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GOOGLE_SHEET_TYPE = "application/vnd.google-apps.spreadsheet"
GOOGLE_APPS_PREFIX = "application/vnd.google-apps."
CANONICAL_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ABORTED",
    412: "FAILED_PRECONDITION",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    501: "NOT_IMPLEMENTED",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
DEFAULT_MESSAGES = {
    400: "Request contains an invalid argument.",
    401: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other "
    "valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    403: "The caller does not have permission",
    404: "Requested entity was not found.",
    429: "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user'.",
    500: "Internal error encountered.",
    502: "Bad Gateway",
    503: "The service is currently unavailable.",
    504: "The request timed out.",
}
WWW_AUTHENTICATE = 'Bearer realm="https://accounts.google.com/", error="invalid_token"'
REASON_PHRASES = {412: "Precondition Failed", 429: "Too Many Requests"}


class ApiError(Exception):
    """An error answer: status, JSON body and extra headers."""

    def __init__(self, status, body, headers=None):
        super().__init__(status)
        self.status = status
        self.body = body
        self.headers = headers or []


def google_error(status, message=None):
    """The error body of Google's JSON APIs (Sheets and most others)."""
    return ApiError(
        status,
        {
            "error": {
                "code": status,
                "message": message or DEFAULT_MESSAGES.get(status, "Error"),
                "status": CANONICAL_STATUS.get(status, "UNKNOWN"),
            }
        },
        [("WWW-Authenticate", WWW_AUTHENTICATE)] if status == 401 else [],
    )


def drive_error(status, reason, message, location=None):
    """The error body of Drive API v3: code, message and an `errors` list, without `status`."""
    item = {"domain": "global", "reason": reason, "message": message}
    if location:
        item["locationType"] = "parameter"
        item["location"] = location
    headers = [("WWW-Authenticate", WWW_AUTHENTICATE)] if status == 401 else []
    return ApiError(status, {"error": {"code": status, "message": message, "errors": [item]}}, headers)


def oauth_error(status, error, description):
    """An RFC 6749 §5.2 error answer of the token endpoint."""
    return ApiError(status, {"error": error, "error_description": description})


# ---------------------------------------------------------------------------------------------------------------
# A1 notation


def column_number(letters):
    """`A` → 1, `Z` → 26, `AA` → 27."""
    number = 0
    for letter in letters:
        number = number * 26 + (ord(letter) - ord("A") + 1)
    return number


def column_letters(number):
    """1 → `A`, 27 → `AA`."""
    letters = ""
    while number > 0:
        number, remainder = divmod(number - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    return letters


CELL = re.compile(r"^([A-Za-z]*)([0-9]*)$")


def quoted_title(title):
    """A sheet title as Google writes it in a range: quoted when it holds anything but letters and digits."""
    if re.match(r"^[A-Za-z0-9_]+$", title):
        return title
    return "'" + title.replace("'", "''") + "'"


class Sheet:
    """One tab: a grid of cells (strings, numbers, booleans; "" is empty) and its declared size."""

    def __init__(self, spec):
        self.title = spec.get("title", "Sheet1")
        self.hidden = bool(spec.get("hidden", False))
        self.cells = [list(row) for row in spec.get("values", [])]
        self.row_count = max(spec.get("rowCount", 1000), len(self.cells))
        self.column_count = max(spec.get("columnCount", 26), max((len(row) for row in self.cells), default=0))

    def dump(self):
        return {
            "title": self.title,
            "hidden": self.hidden,
            "values": trimmed(self.cells),
            "rowCount": self.row_count,
            "columnCount": self.column_count,
        }

    def ensure(self, rows, columns):
        self.row_count = max(self.row_count, rows)
        self.column_count = max(self.column_count, columns)
        while len(self.cells) < rows:
            self.cells.append([])

    def cell(self, row, column):
        if row < len(self.cells) and column < len(self.cells[row]):
            value = self.cells[row][column]
            return "" if value is None else value
        return ""

    def set(self, row, column, value):
        self.ensure(row + 1, column + 1)
        line = self.cells[row]
        while len(line) <= column:
            line.append("")
        line[column] = value


class Bounds:
    """A rectangle of a sheet: 0-based first row and column, exclusive ends; `open_*` when not given."""

    def __init__(self, sheet, text):
        self.sheet = sheet
        self.row0, self.column0 = 0, 0
        self.row1, self.column1 = sheet.row_count, sheet.column_count
        self.whole = text is None
        if text is None:
            return
        start, _, end = text.partition(":")
        first = CELL.match(start)
        last = CELL.match(end or start)
        if not first or not last or (not start):
            raise ValueError(text)
        if first.group(1):
            self.column0 = column_number(first.group(1).upper()) - 1
        if first.group(2):
            self.row0 = int(first.group(2)) - 1
        if last.group(1):
            self.column1 = column_number(last.group(1).upper())
        elif end == "" and first.group(1):
            self.column1 = self.column0 + 1
        if last.group(2):
            self.row1 = int(last.group(2))
        elif end == "" and first.group(2):
            self.row1 = self.row0 + 1
        if self.row0 < 0 or self.column0 < 0 or self.row1 <= self.row0 or self.column1 <= self.column0:
            raise ValueError(text)

    def a1(self, rows=None, columns=None):
        """The range in A1 notation, bounded by the sheet (or by `rows` × `columns` from its start)."""
        row1 = min(self.row1, self.sheet.row_count) if rows is None else self.row0 + rows
        column1 = min(self.column1, self.sheet.column_count) if columns is None else self.column0 + columns
        return "%s!%s%d:%s%d" % (
            quoted_title(self.sheet.title),
            column_letters(self.column0 + 1),
            self.row0 + 1,
            column_letters(column1),
            row1,
        )


def trimmed(rows):
    """Rows without trailing empty cells, and without trailing empty rows, as values.get answers."""
    result = []
    for row in rows:
        line = list(row)
        while line and (line[-1] is None or line[-1] == ""):
            line.pop()
        result.append(line)
    while result and not result[-1]:
        result.pop()
    return result


def formatted(value):
    """A cell as FORMATTED_VALUE shows it."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# ---------------------------------------------------------------------------------------------------------------
# State


class State:
    """Everything the emulator knows, behind one lock."""

    def __init__(self):
        self.lock = threading.RLock()
        self.requests = []
        self.faults = []
        self.recorder_answer = {"status": 200, "contentType": "application/json", "body": "{}"}
        self.counter = 0
        self.reset({})

    def reset(self, spec):
        client = spec.get("client", {})
        self.client_id = client.get("id", "emulator-client")
        self.client_secret = client.get("secret", "emulator-secret")
        self.refresh_tokens = set(spec.get("refreshTokens", []))
        self.rotate = bool(spec.get("rotateRefreshTokens", False))
        self.lifetime = int(spec.get("accessTokenLifetime", 3599))
        self.scope = spec.get(
            "scope", "https://www.googleapis.com/auth/drive https://www.googleapis.com/auth/spreadsheets")
        self.tokens = {}
        for token in spec.get("tokens", []):
            self.tokens[token["token"]] = time.time() + float(token.get("expiresIn", 3600))
        self.spreadsheets = {}
        for identifier, book in spec.get("spreadsheets", {}).items():
            self.spreadsheets[identifier] = {
                "access": book.get("access", "write"),
                "revision": int(book.get("revision", 1)),
                "sheets": [Sheet(sheet) for sheet in book.get("sheets", [{"title": "Sheet1"}])],
            }
        self.files = {}
        for identifier, file in spec.get("files", {}).items():
            self.files[identifier] = {
                "name": file.get("name", identifier),
                "mimeType": file.get("mimeType", "text/csv"),
                "content": (base64.b64decode(file["contentBase64"]) if "contentBase64" in file
                            else file.get("content", "").encode("utf-8")),
                "version": int(file.get("version", 1)),
                "access": file.get("access", "write"),
                "sharedDrive": bool(file.get("sharedDrive", False)),
            }

    def dump(self):
        return {
            "spreadsheets": {
                identifier: {
                    "access": book["access"],
                    "revision": book["revision"],
                    "sheets": [sheet.dump() for sheet in book["sheets"]],
                }
                for identifier, book in self.spreadsheets.items()
            },
            "files": {
                identifier: {
                    "name": file["name"],
                    "mimeType": file["mimeType"],
                    "content": file["content"].decode("utf-8", "replace"),
                    "contentBase64": base64.b64encode(file["content"]).decode("ascii"),
                    "version": file["version"],
                    "access": file["access"],
                }
                for identifier, file in self.files.items()
            },
            "refreshTokens": sorted(self.refresh_tokens),
        }

    def next_number(self):
        self.counter += 1
        return self.counter


STATE = State()


# ---------------------------------------------------------------------------------------------------------------
# HTTP


class Handler(BaseHTTPRequestHandler):
    """Shared plumbing: reading the body, recording, answering."""

    protocol_version = "HTTP/1.1"
    listener = "api"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def record(self, body):
        with STATE.lock:
            STATE.requests.append(
                {
                    "listener": self.listener,
                    "method": self.command,
                    "path": self.path,
                    "headers": {name.lower(): value for name, value in self.headers.items()},
                    "body": body[:65536].decode("utf-8", "replace"),
                }
            )

    def answer(self, status, body=b"", content_type="application/json; charset=UTF-8", headers=(), length=True):
        if isinstance(body, (dict, list)):
            body = json.dumps(body, indent=2).encode("utf-8") + b"\n"
        self.send_response(status, REASON_PHRASES.get(status))
        if body or status not in (204, 304):
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        if length:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        try:
            self.wfile.write(body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def handle_any(self):
        raise NotImplementedError

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = lambda self: self.handle_any()


class RecorderHandler(Handler):
    """The other origin: records every request and answers what it was told to."""

    listener = "recorder"

    def handle_any(self):
        self.record(self.read_body())
        with STATE.lock:
            answer = dict(STATE.recorder_answer)
        self.answer(answer["status"], answer["body"].encode("utf-8"), answer["contentType"])


class ApiHandler(Handler):
    """The Google APIs, the token endpoint and the control API."""

    def handle_any(self):
        body = self.read_body()
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        if path.startswith("/_control/"):
            try:
                self.control(path, body)
            except (ValueError, KeyError, TypeError) as problem:
                self.answer(400, {"error": "bad control request: %r" % (problem,)})
            return
        self.record(body)
        if self.fault(path):
            return
        try:
            status, payload, content_type = self.route(path, query, body)
            self.answer(status, payload, content_type)
        except ApiError as error:
            self.answer(error.status, error.body, headers=error.headers)

    # -- faults ---------------------------------------------------------------------------------------------

    def fault(self, path):
        """Applies the first matching fault; returns whether it answered."""
        with STATE.lock:
            chosen = None
            for fault in STATE.faults:
                if not path.startswith(fault.get("pathPrefix", "/")):
                    continue
                if fault.get("method") and fault["method"].upper() != self.command:
                    continue
                if fault.get("skip", 0) > 0:
                    fault["skip"] -= 1
                    continue
                chosen = dict(fault)
                if fault.get("times", 1) > 0:
                    fault["times"] = fault.get("times", 1) - 1
                    if fault["times"] == 0:
                        STATE.faults.remove(fault)
                break
        if chosen is None:
            return False
        headers = [tuple(pair) for pair in chosen.get("headers", [])]
        if "retryAfter" in chosen:
            headers.append(("Retry-After", str(chosen["retryAfter"])))
        if "redirectTo" in chosen:
            self.answer(chosen.get("status", 307), b"", "text/plain", headers + [("Location", chosen["redirectTo"])])
        elif "stallSeconds" in chosen:
            self.stall(float(chosen["stallSeconds"]))
        elif "oversizeBytes" in chosen:
            self.answer(200, b"x" * int(chosen["oversizeBytes"]), "text/csv", headers, not chosen.get("omitLength"))
        else:
            status = int(chosen.get("status", 500))
            if "body" in chosen:
                self.answer(status, chosen["body"].encode("utf-8"), chosen.get("contentType", "application/json"),
                            headers)
            else:
                error = google_error(status, chosen.get("message"))
                self.answer(status, error.body, headers=headers + error.headers)
        return True

    def stall(self, seconds):
        """Starts a body, then sends nothing more for `seconds` and hangs up."""
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        try:
            self.wfile.write(b"vt_tag,status\r\n")
            self.wfile.flush()
            deadline = time.time() + seconds
            while time.time() < deadline:
                time.sleep(0.05)
        except (BrokenPipeError, ConnectionResetError):
            pass

    # -- control --------------------------------------------------------------------------------------------

    def control(self, path, body):
        data = json.loads(body.decode("utf-8")) if body else {}
        name = path[len("/_control/"):]
        with STATE.lock:
            if name == "state" and self.command == "POST":
                STATE.reset(data)
                result = STATE.dump()
            elif name == "state":
                result = STATE.dump()
            elif name == "edit":
                result = self.edit(data)
            elif name == "tokens":
                STATE.tokens[data["token"]] = time.time() + float(data.get("expiresIn", 3600))
                result = {"token": data["token"]}
            elif name == "expire":
                for token in [data["token"]] if "token" in data else list(STATE.tokens):
                    STATE.tokens[token] = time.time() - 1
                result = {}
            elif name == "fault" and self.command == "DELETE":
                STATE.faults = []
                result = {}
            elif name == "fault":
                STATE.faults.append(data)
                result = {"faults": len(STATE.faults)}
            elif name == "requests" and self.command == "DELETE":
                STATE.requests = []
                result = {}
            elif name == "requests":
                result = list(STATE.requests)
            elif name == "recorder":
                STATE.recorder_answer = {
                    "status": int(data.get("status", 200)),
                    "contentType": data.get("contentType", "application/json"),
                    "body": data.get("body", "{}"),
                }
                result = STATE.recorder_answer
            elif name == "info":
                result = {"port": SERVERS[0].server_address[1], "recorderPort": SERVERS[1].server_address[1]}
            else:
                self.answer(404, {"error": "no control endpoint %s %s" % (self.command, path)})
                return
        self.answer(200, result)

    def edit(self, data):
        if "spreadsheet" in data:
            book = STATE.spreadsheets[data["spreadsheet"]]
            title = data.get("sheet", book["sheets"][0].title)
            sheet = next(sheet for sheet in book["sheets"] if sheet.title == title)
            sheet.cells = [list(row) for row in data["values"]]
            sheet.ensure(len(sheet.cells), max((len(row) for row in sheet.cells), default=0))
            book["revision"] += 1
            return {"revision": book["revision"]}
        file = STATE.files[data["file"]]
        file["content"] = (base64.b64decode(data["contentBase64"]) if "contentBase64" in data
                           else data["content"].encode("utf-8"))
        file["version"] += 1
        return {"version": file["version"]}

    # -- routing --------------------------------------------------------------------------------------------

    def route(self, path, query, body):
        if path == "/token":
            if self.command != "POST":
                raise oauth_error(405, "invalid_request", "The token endpoint only accepts POST.")
            return self.token(body)
        self.authenticate()
        parts = path.split("/")
        if path.startswith("/v4/spreadsheets/") and len(parts) == 4 and self.command == "GET":
            return self.spreadsheet_get(urllib.parse.unquote(parts[3]), query)
        if path.startswith("/v4/spreadsheets/") and len(parts) == 5 and parts[4] == "values:batchUpdate":
            if self.command != "POST":
                raise google_error(404, "Method not found.")
            return self.values_batch_update(urllib.parse.unquote(parts[3]), body)
        if path.startswith("/v4/spreadsheets/") and len(parts) >= 6 and parts[4] == "values":
            identifier = urllib.parse.unquote(parts[3])
            target = "/".join(parts[5:])
            return self.sheets(identifier, target, query, body)
        if path.startswith("/drive/v3/files/") and len(parts) in (5, 6):
            identifier = urllib.parse.unquote(parts[4])
            if len(parts) == 6 and parts[5] == "export" and self.command == "GET":
                return self.drive_export(identifier, query)
            if len(parts) == 5 and self.command == "GET":
                return self.drive_get(identifier, query)
        if path.startswith("/upload/drive/v3/files/") and len(parts) == 6 and self.command in ("PATCH", "PUT"):
            return self.drive_upload(urllib.parse.unquote(parts[5]), query, body)
        raise google_error(404, "Method not found.")

    def authenticate(self):
        header = self.headers.get("Authorization", "")
        token = header[len("Bearer "):] if header.startswith("Bearer ") else None
        with STATE.lock:
            expiry = STATE.tokens.get(token) if token else None
        if token is None:
            # RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
            error = google_error(
                401, "Request is missing required authentication credential. Expected OAuth 2 access token, login "
                "cookie or other valid authentication credential. See "
                "https://developers.google.com/identity/sign-in/web/devconsole-project.")
            error.headers = [("WWW-Authenticate", 'Bearer realm="https://accounts.google.com/"')]
            raise error
        if expiry is None or expiry <= time.time():
            raise google_error(401)

    # -- OAuth ----------------------------------------------------------------------------------------------

    def token(self, body):
        content_type = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if content_type != "application/x-www-form-urlencoded":
            raise oauth_error(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded.")
        form = dict(urllib.parse.parse_qsl(body.decode("utf-8"), keep_blank_values=True))
        client_id, client_secret = form.get("client_id"), form.get("client_secret")
        basic = self.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            decoded = base64.b64decode(basic[6:]).decode("utf-8")
            client_id, _, client_secret = (urllib.parse.unquote_plus(part) for part in decoded.partition(":"))
        grant = form.get("grant_type")
        with STATE.lock:
            if grant is None:
                raise oauth_error(400, "invalid_request", "Missing required parameter: grant_type")
            if grant != "refresh_token":
                raise oauth_error(400, "unsupported_grant_type", "Invalid grant_type: " + grant)
            if client_id != STATE.client_id or client_secret != STATE.client_secret:
                raise oauth_error(401, "invalid_client", "The OAuth client was not found.")
            if "refresh_token" not in form:
                raise oauth_error(400, "invalid_request", "Missing required parameter: refresh_token")
            if form["refresh_token"] not in STATE.refresh_tokens:
                raise oauth_error(400, "invalid_grant", "Token has been expired or revoked.")
            number = STATE.next_number()
            access = "ya29.emulated-access-%d" % number
            STATE.tokens[access] = time.time() + STATE.lifetime
            answer = {
                "access_token": access,
                "expires_in": STATE.lifetime,
                "scope": STATE.scope,
                "token_type": "Bearer",
            }
            if STATE.rotate:
                rotated = "1//emulated-refresh-%d" % number
                STATE.refresh_tokens.discard(form["refresh_token"])
                STATE.refresh_tokens.add(rotated)
                answer["refresh_token"] = rotated
        return 200, answer, "application/json; charset=utf-8"

    # -- Sheets ---------------------------------------------------------------------------------------------

    def sheets(self, identifier, target, query, body):
        action = None
        if target.endswith(":clear"):
            target, action = target[: -len(":clear")], "clear"
        text = urllib.parse.unquote(target)
        with STATE.lock:
            book = STATE.spreadsheets.get(identifier)
            if book is None:
                raise google_error(404)
            if book["access"] == "none":
                raise google_error(403)
            bounds = self.bounds(book, text)
            if action == "clear" and self.command == "POST":
                self.writable(book)
                return self.clear(identifier, book, bounds, body)
            if action is None and self.command == "GET":
                return self.values_get(bounds, query)
            if action is None and self.command == "PUT":
                self.writable(book)
                return self.values_update(identifier, book, bounds, text, query, body)
        raise google_error(404, "Method not found.")

    @staticmethod
    def spreadsheet_get(identifier, query):
        with STATE.lock:
            book = STATE.spreadsheets.get(identifier)
            if book is None:
                raise google_error(404)
            if book["access"] == "none":
                raise google_error(403)
            sheets = []
            for index, sheet in enumerate(book["sheets"]):
                properties = {
                    "sheetId": index,
                    "title": sheet.title,
                    "index": index,
                    "sheetType": "GRID",
                    "gridProperties": {"rowCount": sheet.row_count, "columnCount": sheet.column_count},
                }
                if sheet.hidden:
                    properties["hidden"] = True
                sheets.append({"properties": properties})
            answer = {"sheets": sheets}
            if "fields" not in query:
                answer = {"spreadsheetId": identifier, "properties": {"title": identifier}, "sheets": sheets}
            return 200, answer, "application/json; charset=UTF-8"

    @staticmethod
    def writable(book):
        if book["access"] != "write":
            raise google_error(403)

    @staticmethod
    def bounds(book, text):
        sheet_name, cells = None, None
        if "!" in text:
            sheet_name, _, cells = text.rpartition("!")
        elif re.match(r"^[A-Za-z]{0,3}[0-9]*(:[A-Za-z]{0,3}[0-9]*)?$", text) and text and text != ":":
            cells = text
        else:
            sheet_name = text
        if sheet_name is not None and len(sheet_name) >= 2 and sheet_name[0] == sheet_name[-1] == "'":
            sheet_name = sheet_name[1:-1].replace("''", "'")
        if sheet_name is None:
            sheet = book["sheets"][0]
        else:
            sheet = next((sheet for sheet in book["sheets"] if sheet.title == sheet_name), None)
        if sheet is None:
            raise google_error(400, "Unable to parse range: " + text)
        try:
            return Bounds(sheet, cells)
        except ValueError:
            raise google_error(400, "Unable to parse range: " + text)

    @staticmethod
    def values_get(bounds, query):
        sheet = bounds.sheet
        dimension = query.get("majorDimension", "ROWS")
        if dimension not in ("ROWS", "COLUMNS"):
            raise google_error(400, "Invalid value at 'major_dimension' (type.googleapis.com/"
                                    "google.apps.sheets.v4.DimensionRange.Dimension), \"%s\"" % dimension)
        render = query.get("valueRenderOption", "FORMATTED_VALUE")
        row1 = min(bounds.row1, sheet.row_count)
        column1 = min(bounds.column1, sheet.column_count)
        rows = [[sheet.cell(row, column) for column in range(bounds.column0, column1)]
                for row in range(bounds.row0, row1)]
        if render == "FORMATTED_VALUE":
            rows = [[formatted(value) for value in row] for row in rows]
        if dimension == "COLUMNS":
            rows = [list(column) for column in zip(*rows)] if rows else []
        answer = {"range": bounds.a1(), "majorDimension": dimension}
        values = trimmed(rows)
        if values:
            answer["values"] = values
        return 200, answer, "application/json; charset=UTF-8"

    @staticmethod
    def clear(identifier, book, bounds, body):
        if body.strip() not in (b"", b"{}"):
            raise google_error(400, "Invalid JSON payload received. Unknown name: the request body must be empty.")
        sheet = bounds.sheet
        for row in range(bounds.row0, min(bounds.row1, len(sheet.cells))):
            line = sheet.cells[row]
            for column in range(bounds.column0, min(bounds.column1, len(line))):
                line[column] = ""
        book["revision"] += 1
        return 200, {"spreadsheetId": identifier, "clearedRange": bounds.a1()}, "application/json; charset=UTF-8"

    @staticmethod
    def values_update(identifier, book, bounds, text, query, body):
        option = query.get("valueInputOption")
        if option is None:
            raise google_error(400, "'valueInputOption' is required but not specified")
        if option not in ("RAW", "USER_ENTERED"):
            raise google_error(400, "Invalid value at 'value_input_option', \"%s\"" % option)
        try:
            data = json.loads(body.decode("utf-8"))
        except ValueError:
            raise google_error(400, "Invalid JSON payload received.")
        if data.get("range") is not None and data["range"] != text:
            raise google_error(
                400, "Requested writing within range [%s], but tried writing to [%s]" % (text, data["range"]))
        dimension = data.get("majorDimension", "ROWS")
        values = data.get("values", [])
        if not isinstance(values, list) or not all(isinstance(row, list) for row in values):
            raise google_error(400, "Invalid values: expected a list of lists.")
        if dimension == "COLUMNS":
            width = max((len(column) for column in values), default=0)
            values = [[column[row] if row < len(column) else None for column in values] for row in range(width)]
        rows = len(values)
        columns = max((len(row) for row in values), default=0)
        if not bounds.whole and (bounds.row0 + rows > bounds.row1 or bounds.column0 + columns > bounds.column1):
            raise google_error(
                400, "Requested writing within range [%s], but tried writing %d rows and %d columns"
                % (text, rows, columns))
        sheet = bounds.sheet
        cells = 0
        for row_index, row in enumerate(values):
            for column_index, value in enumerate(row):
                if value is None:
                    continue
                if not isinstance(value, (str, int, float, bool)):
                    raise google_error(400, "Invalid value at 'data.values[%d]'" % row_index)
                sheet.set(bounds.row0 + row_index, bounds.column0 + column_index, value)
                cells += 1
        book["revision"] += 1
        answer = {"spreadsheetId": identifier}
        if rows:
            answer.update({
                "updatedRange": bounds.a1(rows, columns),
                "updatedRows": rows,
                "updatedColumns": columns,
                "updatedCells": cells,
            })
        return 200, answer, "application/json; charset=UTF-8"

    def values_batch_update(self, identifier, body):
        """spreadsheets.values.batchUpdate: every entry of `data` written as values.update writes its range."""
        try:
            request = json.loads(body.decode("utf-8"))
        except ValueError:
            raise google_error(400, "Invalid JSON payload received.")
        option = request.get("valueInputOption")
        if option is None:
            raise google_error(400, "'valueInputOption' is required but not specified")
        data = request.get("data", [])
        if not isinstance(data, list):
            raise google_error(400, "Invalid value at 'data'")
        responses, rows, columns, cells, sheets = [], 0, 0, 0, set()
        with STATE.lock:
            book = STATE.spreadsheets.get(identifier)
            if book is None:
                raise google_error(404)
            if book["access"] == "none":
                raise google_error(403)
            self.writable(book)
            for entry in data:
                text = entry.get("range")
                if not isinstance(text, str):
                    raise google_error(400, "Invalid data[].range: a range is required")
                bounds = self.bounds(book, text)
                _, answer, _ = self.values_update(
                    identifier, book, bounds, text, {"valueInputOption": option}, json.dumps(entry).encode("utf-8"))
                book["revision"] -= 1  # one batch is one revision
                responses.append(answer)
                rows += answer.get("updatedRows", 0)
                columns += answer.get("updatedColumns", 0)
                cells += answer.get("updatedCells", 0)
                sheets.add(bounds.sheet.title if hasattr(bounds.sheet, "title") else id(bounds.sheet))
            book["revision"] += 1
        return 200, {
            "spreadsheetId": identifier, "totalUpdatedRows": rows, "totalUpdatedColumns": columns,
            "totalUpdatedCells": cells, "totalUpdatedSheets": len(sheets), "responses": responses,
        }, "application/json; charset=UTF-8"

    # -- Drive ----------------------------------------------------------------------------------------------

    @staticmethod
    def drive_file(identifier, query=None):
        file = STATE.files.get(identifier)
        if file is None:
            raise drive_error(404, "notFound", "File not found: %s." % identifier, "fileId")
        if query is not None and file["sharedDrive"] and query.get("supportsAllDrives") != "true":
            raise drive_error(404, "notFound", "File not found: %s." % identifier, "fileId")
        if file["access"] == "none":
            raise drive_error(404, "notFound", "File not found: %s." % identifier, "fileId")
        return file

    @staticmethod
    def metadata(identifier, file, fields):
        every = {
            "kind": "drive#file",
            "id": identifier,
            "name": file["name"],
            "mimeType": file["mimeType"],
            "version": str(file["version"]),
            "size": str(len(file["content"])),
        }
        if file["mimeType"].startswith(GOOGLE_APPS_PREFIX):
            del every["size"]
        wanted = [name.strip() for name in (fields or "kind,id,name,mimeType").split(",") if name.strip()]
        if "*" in wanted:
            return every
        for name in wanted:
            if name not in every and name != "size":
                raise drive_error(400, "invalidParameter", "Invalid field selection %s" % name, "fields")
        return {name: every[name] for name in wanted if name in every}

    def drive_get(self, identifier, query):
        with STATE.lock:
            file = self.drive_file(identifier, query)
            if query.get("alt") == "media":
                if file["mimeType"].startswith(GOOGLE_APPS_PREFIX):
                    raise drive_error(
                        403, "fileNotDownloadable",
                        "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
                        "alt")
                return 200, bytes(file["content"]), file["mimeType"]
            return 200, self.metadata(identifier, file, query.get("fields")), "application/json; charset=UTF-8"

    def drive_export(self, identifier, query):
        with STATE.lock:
            file = self.drive_file(identifier)
            if not file["mimeType"].startswith(GOOGLE_APPS_PREFIX):
                raise drive_error(403, "fileNotExportable", "Export only supports Docs Editors files.")
            wanted = query.get("mimeType")
            if wanted is None:
                raise drive_error(400, "required", "Required parameter: mimeType", "mimeType")
            if file["mimeType"] != GOOGLE_SHEET_TYPE or wanted not in ("text/csv", "text/tab-separated-values"):
                raise drive_error(400, "badRequest", "The requested conversion is not supported.", "convertTo")
            return 200, bytes(file["content"]), wanted

    def drive_upload(self, identifier, query, body):
        if query.get("uploadType") != "media":
            raise drive_error(400, "badRequest", "Unsupported upload type: %s" % query.get("uploadType"),
                              "uploadType")
        with STATE.lock:
            file = self.drive_file(identifier, query)
            if file["access"] != "write":
                raise drive_error(
                    403, "insufficientFilePermissions",
                    "The user does not have sufficient permissions for file %s." % identifier)
            file["content"] = bytes(body)
            file["version"] += 1
            return 200, self.metadata(identifier, file, query.get("fields")), "application/json; charset=UTF-8"


SERVERS = []


class Server(ThreadingHTTPServer):
    """A threading server that does not print a traceback when a client hangs up early (tests do that on purpose)."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def watch_standard_input():
    """Ends the process when the parent closes our standard input (or dies)."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def main():
    api = Server(("127.0.0.1", 0), ApiHandler)
    recorder = Server(("127.0.0.1", 0), RecorderHandler)
    SERVERS.extend([api, recorder])
    threading.Thread(target=recorder.serve_forever, daemon=True).start()
    threading.Thread(target=api.serve_forever, daemon=True).start()
    sys.stdout.write("%d\n%d\n" % (api.server_address[1], recorder.server_address[1]))
    sys.stdout.flush()
    if "--no-stdin-watch" in sys.argv:
        threading.Event().wait()
    else:
        watch_standard_input()


if __name__ == "__main__":
    main()
