#!/usr/bin/env python3
"""A WebDAV-style sheet server on 127.0.0.1 for the kill matrix: GET and conditional PUT of one sheet.

Usage: dav_sheet_server.py SHEET RECORD MODE [CERTIFICATE KEY]

One listener starts on a free loopback port, printed on standard output. GET (any path) serves SHEET with a strong
ETag (the SHA-256 of its bytes in quotes). PUT replaces SHEET the way mod_dav does, writing a temporary file and
renaming it over SHEET, so the sheet is always the old one or the new one; it answers 412 when If-Match names
another ETag. Every request is appended to RECORD as one JSON line {"method", "path", "bodyLength", "status"}.

MODE is a file read on each request; the sheet is served and written normally unless it holds:
  conflict      every PUT is answered 412 without writing (a sheet someone else changed);
  METHOD:reset  every GET or PUT (as METHOD says) is answered by resetting the connection (TCP RST);
  METHOD:login  every GET or PUT is answered 200 with an HTML login page, as a proxy or SSO portal does;
  METHOD:NNN    every GET or PUT is answered with status NNN and a short text body (Retry-After: 1 for 429, 503).
With CERTIFICATE and KEY (PEM files) it speaks HTTPS with that certificate. The server exits when its standard input
closes.
"""

import hashlib
import http.server
import json
import os
import socket
import ssl
import struct
import sys
import threading

SHEET, RECORD, MODE = sys.argv[1], sys.argv[2], sys.argv[3]
LOCK = threading.Lock()
LOGIN_PAGE = (b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body><form method=\"post\">"
              b"<input name=\"user\"><input name=\"password\" type=\"password\"></form></body></html>\n")


def etag(data):
    return '"%s"' % hashlib.sha256(data).hexdigest()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        with open(RECORD, "a", encoding="utf-8") as file:
            file.write(json.dumps({"method": self.command, "path": self.path, "bodyLength": self.length,
                                   "status": status}) + "\n")

    def fault(self):
        """Answers as MODE says for this method; returns whether it did."""
        with open(MODE, encoding="utf-8") as file:
            method, _, fault = file.read().strip().partition(":")
        if method != self.command or not fault:
            return False
        if fault == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            with open(RECORD, "a", encoding="utf-8") as file:
                file.write(json.dumps({"method": self.command, "path": self.path, "bodyLength": self.length,
                                       "status": "reset"}) + "\n")
            self.connection.close()
        elif fault == "login":
            self.answer(200, LOGIN_PAGE, [("Content-Type", "text/html; charset=utf-8")])
        else:
            status = int(fault)
            retry = [("Retry-After", "1")] if status in (429, 503) else []
            self.answer(status, b"the server says no (%d)\n" % status, [("Content-Type", "text/plain")] + retry)
        return True

    def do_GET(self):  # noqa: N802 - the base class's name
        self.length = 0
        if self.fault():
            return
        with LOCK, open(SHEET, "rb") as file:
            data = file.read()
        self.answer(200, data, [("Content-Type", "text/csv; charset=utf-8"), ("ETag", etag(data))])

    def do_PUT(self):  # noqa: N802 - the base class's name
        self.length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(self.length) if self.length else b""
        if self.fault():
            return
        with open(MODE, encoding="utf-8") as file:
            mode = file.read().strip()
        with LOCK:
            with open(SHEET, "rb") as file:
                current = etag(file.read())
            wanted = self.headers.get("If-Match")
            if mode == "conflict" or (wanted is not None and wanted != current):
                self.answer(412, b"precondition failed\n")
                return
            temporary = SHEET + ".dav-upload"
            with open(temporary, "wb") as file:
                file.write(body)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, SHEET)
        self.answer(204)


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if len(sys.argv) > 5:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[4], sys.argv[5])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
