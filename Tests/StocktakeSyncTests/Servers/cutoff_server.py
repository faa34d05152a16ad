"""A loopback HTTP server whose downloads break off: the fault of audit item 3.

Answers GET with the sheet as an HTTP/1.0 body WITHOUT a Content-Length, and closes the connection after FRACTION
of its bytes for the first CUT_TIMES requests (-1: every request); later requests get the whole sheet. PUT
replaces the sheet. Every request's method and path is appended to RECORD_FILE. Prints its port on the first line
of stdout and stops when its standard input closes.

Usage: cutoff_server.py SHEET_FILE FRACTION CUT_TIMES RECORD_FILE
"""
import http.server
import sys
import threading

sheet_file, fraction, cut_times, record_file = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
lock = threading.Lock()
served = {"cut": 0}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def record(self):
        with lock, open(record_file, "a") as record:
            record.write(f"{self.command} {self.path}\n")

    def do_GET(self):
        self.record()
        with open(sheet_file, "rb") as sheet:
            body = sheet.read()
        with lock:
            cut = cut_times < 0 or served["cut"] < cut_times
            if cut:
                served["cut"] += 1
        if cut:
            body = body[: int(len(body) * fraction)]
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        self.close_connection = True

    def do_PUT(self):
        self.record()
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        with open(sheet_file, "wb") as sheet:
            sheet.write(body)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *arguments):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
