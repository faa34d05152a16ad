#!/usr/bin/env python3
"""Loads one page in headless Chromium and writes a PNG screenshot and PDF prints of it.

Drives Chromium through the DevTools protocol over --remote-debugging-pipe (Chromium reads commands on file
descriptor 3 and writes answers and events on 4, each message a JSON text ended by a NUL byte). That protocol,
unlike Chromium's log (--enable-logging prints every console message at INFO, whatever its level), says the level
of each console message, reports uncaught exceptions and failed loads, takes the paper size of a print, and tells
when the page's load event fired.

Usage: render_page.py --chromium PATH --url URL [--png FILE] [--width W] [--height H]
                      [--pdf NAME=WIDTHxHEIGHT=FILE]... [--timeout SECONDS]

Prints one JSON object on standard output: loadSeconds, console (level, text, source of each message),
headings (text of each h1-h6 in order) and tableHeaders (the header cells of each table). Exits 1 with a
sentence on standard error when the page cannot be loaded or rendered in time.
"""
import argparse
import base64
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

COLLECT = r"""
JSON.stringify({
  headings: Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6'))
    .map(h => h.innerText.replace(/\s+/g, ' ').trim()).filter(t => t.length > 0),
  tableHeaders: Array.from(document.querySelectorAll('table')).map(table => {
    const row = table.querySelector('thead tr') || table.querySelector('tr');
    if (!row) return [];
    const cells = Array.from(row.children).filter(c => c.tagName === 'TH');
    return cells.map(c => c.innerText.replace(/\s+/g, ' ').trim());
  }).filter(cells => cells.length > 0)
})
"""


class Failure(Exception):
    pass


class Pipe:
    def __init__(self, write_fd, read_fd, deadline):
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.deadline = deadline
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            written = os.write(self.write_fd, data)
            data = data[written:]
        return self.next_id

    def receive(self):
        while b"\0" not in self.buffer:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise Failure("the page did not finish loading and rendering in time")
            ready, _, _ = select.select([self.read_fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise Failure("Chromium closed its DevTools pipe (it crashed or could not start)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        wanted = self.send(method, params, session)
        while True:
            message = self.receive()
            if message.get("id") == wanted:
                if "error" in message:
                    raise Failure("%s failed: %s" % (method, message["error"].get("message")))
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method, until=None):
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                del self.events[index]
                return event
        while True:
            if until is not None and time.monotonic() >= until:
                return None
            if until is not None:
                saved = self.deadline
                self.deadline = min(saved, until)
                try:
                    message = self.receive()
                except Failure:
                    self.deadline = saved
                    if time.monotonic() >= until and time.monotonic() < saved:
                        return None
                    raise
                self.deadline = saved
            else:
                message = self.receive()
            if message.get("method") == method:
                return message
            self.events.append(message)


def argument_text(argument):
    if "value" in argument:
        value = argument["value"]
        return value if isinstance(value, str) else json.dumps(value)
    return argument.get("description", argument.get("type", ""))


def console_messages(events):
    messages = []
    for event in events:
        method = event.get("method")
        params = event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            kind = params.get("type")
            level = {"error": "error", "assert": "error", "warning": "warning"}.get(kind, "info")
            text = " ".join(argument_text(a) for a in params.get("args", []))
            frames = (params.get("stackTrace") or {}).get("callFrames") or [{}]
            messages.append({"level": level, "text": text, "source": frames[0].get("url", "")})
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            exception = details.get("exception") or {}
            text = exception.get("description") or details.get("text", "")
            messages.append({"level": "error", "text": text.split("\n")[0], "source": details.get("url", "")})
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            level = {"error": "error", "warning": "warning"}.get(entry.get("level"), "info")
            messages.append({"level": level, "text": entry.get("text", ""), "source": entry.get("url", "")})
    return messages


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--png")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--pdf", action="append", default=[])
    parser.add_argument("--timeout", type=float, default=60)
    options = parser.parse_args()
    deadline = time.monotonic() + options.timeout

    to_chromium = os.pipe()
    from_chromium = os.pipe()
    profile = tempfile.mkdtemp(prefix="render-page-profile-")

    def child_setup():
        os.setsid()
        os.dup2(to_chromium[0], 3)
        os.dup2(from_chromium[1], 4)

    # The flags that work as root in a container: no sandbox, no GPU, no first-run or background work.
    chromium = subprocess.Popen(
        [options.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
         "--hide-scrollbars", "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=child_setup, pass_fds=(3, 4))
    os.close(to_chromium[0])
    os.close(from_chromium[1])

    def stop(*_):
        raise Failure("stopped")

    signal.signal(signal.SIGTERM, stop)
    try:
        pipe = Pipe(to_chromium[1], from_chromium[0], deadline)
        target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ["Page", "Runtime", "Log"]:
            pipe.call(domain + ".enable", session=session)
        pipe.call("Emulation.setDeviceMetricsOverride",
                  {"width": options.width, "height": options.height, "deviceScaleFactor": 1, "mobile": False},
                  session=session)
        pipe.events = []
        started = time.monotonic()
        navigation = pipe.call("Page.navigate", {"url": options.url}, session=session)
        if navigation.get("errorText"):
            raise Failure("%s cannot be loaded: %s" % (options.url, navigation["errorText"]))
        pipe.wait_for("Page.loadEventFired")
        # One frame painted after the load event, so that the time includes layout and the first paint.
        pipe.call("Runtime.evaluate",
                  {"expression": "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
                   "awaitPromise": True}, session=session)
        load_seconds = time.monotonic() - started
        # Messages of timers and handlers that run just after the load.
        pipe.wait_for("Never.happens", until=min(deadline, time.monotonic() + 0.5))
        collected = pipe.call("Runtime.evaluate", {"expression": COLLECT, "returnByValue": True}, session=session)
        structure = json.loads(collected["result"]["value"])
        if options.png:
            shot = pipe.call("Page.captureScreenshot", {"format": "png"}, session=session)
            with open(options.png, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
        for spec in options.pdf:
            name, size, path = spec.split("=", 2)
            width, height = (float(v) for v in size.split("x"))
            printed = pipe.call("Page.printToPDF",
                                {"paperWidth": width, "paperHeight": height, "printBackground": True,
                                 "preferCSSPageSize": False, "displayHeaderFooter": False}, session=session)
            with open(path, "wb") as file:
                file.write(base64.b64decode(printed["data"]))
        json.dump({"loadSeconds": load_seconds, "console": console_messages(pipe.events),
                   "headings": structure["headings"], "tableHeaders": structure["tableHeaders"]}, sys.stdout)
        sys.stdout.write("\n")
        return 0
    except Failure as failure:
        sys.stderr.write("%s\n" % failure)
        return 1
    finally:
        try:
            os.killpg(chromium.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        chromium.wait()
        subprocess.run(["rm", "-rf", profile])


if __name__ == "__main__":
    sys.exit(main())
