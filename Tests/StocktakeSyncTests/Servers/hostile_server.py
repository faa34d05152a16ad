#!/usr/bin/env python3
"""A hostile sheet server on 127.0.0.1 for tests: it serves a CSV sheet, then misbehaves as MODE says.

Usage: hostile_server.py MODE SHEET RECORD

Two listeners start on free loopback ports, printed one per line on standard output: the sheet server, then the
recorder (another origin that answers 200 to anything). Every request either receives is appended to RECORD as one
JSON line: {"listener", "method", "path", "authorization", "bodyLength"}. The server exits when its standard
input closes.

MODE:
  redirect-301, redirect-302, redirect-303, redirect-307
            GET serves SHEET; PUT, POST and PATCH are answered with that status and
            Location: http://127.0.0.1:<recorder port>/stolen.csv. SHEET is never written.
  echo-400  GET is answered 400 text/plain holding the bearer token it received.
  echo-401  GET is answered 401 with a Google error body whose message holds the token.
  echo-409  GET serves SHEET; PUT is answered 409 text/plain holding the token, raw and percent-encoded.
  stall     GET starts a 100000-byte answer, sends its first line, then sends nothing for a minute.
  honest    Not hostile at all: GET serves SHEET; PUT of /c.csv replaces SHEET with its body (204), a PUT of any
            other path is answered 201 and kept nowhere. For tests that need a push or an upload to succeed.
"""

import http.server
import json
import sys
import threading
import time
import urllib.parse

MODE, SHEET, RECORD = sys.argv[1], sys.argv[2], sys.argv[3]
LOCK = threading.Lock()
PORTS = {}


def record(listener, handler, length):
    line = {
        "listener": listener,
        "method": handler.command,
        "path": handler.path,
        "authorization": handler.headers.get("Authorization", ""),
        "bodyLength": length,
    }
    with LOCK, open(RECORD, "a", encoding="utf-8") as file:
        file.write(json.dumps(line) + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    listener = "sheet"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def answer(self, status, body=b"", content_type="text/plain; charset=utf-8", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def stall(self, seconds):
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        try:
            self.wfile.write(b"VT Tag,Serial\r\n")
            self.wfile.flush()
            time.sleep(seconds)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def token(self):
        value = self.headers.get("Authorization", "")
        return value[len("Bearer "):] if value.startswith("Bearer ") else value

    def handle_any(self):
        body = self.read_body()
        record(self.listener, self, len(body))
        if self.listener == "recorder":
            self.answer(200, b"recorded\n")
            return
        token = self.token()
        if self.command == "GET":
            if MODE == "echo-400":
                self.answer(400, ("Bad request: the token %s is not valid for this sheet.\n" % token).encode())
            elif MODE == "stall":
                self.stall(60)
            elif MODE == "echo-401":
                error = {"error": {"code": 401, "message": "Request had invalid credentials %s." % token,
                                   "status": "UNAUTHENTICATED"}}
                self.answer(401, json.dumps(error).encode(), "application/json; charset=UTF-8")
            else:
                with open(SHEET, "rb") as file:
                    self.answer(200, file.read(), "text/csv; charset=utf-8")
            return
        if MODE == "honest" and self.command == "PUT":
            if self.path == "/c.csv":
                with open(SHEET, "wb") as file:
                    file.write(body)
                self.answer(204)
            else:
                self.answer(201)
        elif MODE.startswith("redirect-"):
            location = "http://127.0.0.1:%d/stolen.csv" % PORTS["recorder"]
            self.answer(int(MODE[len("redirect-"):]), b"", headers=[("Location", location)])
        elif MODE == "echo-409":
            text = "Conflict: Bearer %s may not replace this sheet (token=%s).\n" % (
                token, urllib.parse.quote(token, safe=""))
            self.answer(409, text.encode())
        else:
            self.answer(405, b"method not allowed\n")

    do_GET = do_PUT = do_POST = do_PATCH = do_DELETE = do_HEAD = handle_any


class RecorderHandler(Handler):
    listener = "recorder"


def serve(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    sheet = serve(Handler)
    recorder = serve(RecorderHandler)
    PORTS["sheet"] = sheet.server_address[1]
    PORTS["recorder"] = recorder.server_address[1]
    print(PORTS["sheet"], flush=True)
    print(PORTS["recorder"], flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
