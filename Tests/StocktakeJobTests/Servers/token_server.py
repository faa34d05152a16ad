"""A loopback HTTP server for account-isolation tests.

Serves one CSV to requests carrying the expected bearer token (401 otherwise) and records the Authorization header
of every request, one line per request, in a file. Prints its port on the first line of stdout and stops when its
standard input closes.

Usage: token_server.py EXPECTED_TOKEN CSV_FILE RECORD_FILE
"""
import http.server
import sys
import threading

expected, csv_file, record_file = sys.argv[1], sys.argv[2], sys.argv[3]
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        header = self.headers.get("Authorization", "")
        with lock, open(record_file, "a") as record:
            record.write(f"{self.path}\t{header}\n")
        if header != f"Bearer {expected}":
            body = b'{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}'
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Bearer realm="test", error="invalid_token"')
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        with open(csv_file, "rb") as sheet:
            body = sheet.read()
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", '"v1"')
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
