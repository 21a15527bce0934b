"""A small editor for tests: starts `catalyst lsp` and speaks JSON-RPC to it
over stdio with Content-Length framing, as an editor does.

Every wait has a timeout, so a server that hangs fails the test instead of
hanging it.
"""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30.0  # seconds any one answer may take


class LspError(Exception):
    """The server answered a request with an error."""

    def __init__(self, error: dict):
        super().__init__(error.get("message", ""))
        self.error = error


class LspClient:
    def __init__(self, cwd: Path = ROOT, timeout: float = TIMEOUT):
        self.timeout = timeout
        self.process = subprocess.Popen([sys.executable, "-m", "cli.main", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.incoming: queue.Queue = queue.Queue()
        self.seen: list = []  # notifications from the server not yet waited for
        self.next_id = 0
        self.versions: dict = {}
        self.stderr: list = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    # -- framing
    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.incoming.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.incoming.put(json.loads(stream.read(length)))

    def _drain_stderr(self):
        for line in self.process.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def _send(self, message: dict):
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _next(self, deadline: float) -> dict:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the language server did not answer in time\n" + "".join(self.stderr[-20:]))
        try:
            message = self.incoming.get(timeout=remaining)
        except queue.Empty:
            raise TimeoutError("the language server did not answer in time\n" + "".join(self.stderr[-20:])) from None
        if message is None:
            raise ConnectionError("the language server stopped\n" + "".join(self.stderr[-20:]))
        return message

    # -- messages
    def notify(self, method: str, params: dict):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        ident = self.next_id
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._next(deadline)
            if message.get("id") == ident and "method" not in message:
                if "error" in message:
                    raise LspError(message["error"])
                return message.get("result")
            self._take(message)

    def _take(self, message: dict):
        if "method" in message and "id" in message:  # a request from the server (e.g. registration): accept it
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif "method" in message:
            self.seen.append(message)

    def wait_for(self, method: str, match=lambda params: True) -> dict:
        """The first notification `method` whose params satisfy `match`."""
        deadline = time.monotonic() + self.timeout
        while True:
            for i, message in enumerate(self.seen):
                if message["method"] == method and match(message["params"]):
                    del self.seen[i]
                    return message["params"]
            self._take(self._next(deadline))

    # -- an editor's habits
    def initialize(self, root: Path = ROOT) -> dict:
        result = self.request("initialize", {
            "processId": None, "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": {"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]},
                                              "rename": {"prepareSupport": True},
                                              "documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}},
        })
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str | None = None) -> str:
        uri = Path(path).resolve().as_uri()
        self.versions[uri] = 1
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "card-rules" if str(path).endswith(".rules") else "yaml", "version": 1,
            "text": Path(path).read_text() if text is None else text}})
        return uri

    def change(self, uri: str, text: str) -> int:
        """Replace the whole text, as an edit; returns the new version."""
        self.versions[uri] += 1
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": self.versions[uri]},
                                               "contentChanges": [{"text": text}]})
        return self.versions[uri]

    def diagnostics(self, uri: str, version: int | None = None, match=lambda diagnostics: True) -> list:
        """The next diagnostics published for `uri` (for `version`, if given)
        that satisfy `match` (a file's diagnostics are published again
        whenever a file it reads changes)."""
        params = self.wait_for("textDocument/publishDiagnostics",
                               lambda p: p["uri"] == uri and (version is None or p.get("version") == version)
                               and match(p["diagnostics"]))
        return params["diagnostics"]

    def at(self, uri: str, line: int, character: int) -> dict:
        return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}

    def close(self):
        try:
            if self.process.poll() is None:
                self.request("shutdown", {})
                self.notify("exit", {})
                self.process.wait(timeout=10)
        except (TimeoutError, ConnectionError, OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(timeout=10)
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                try:
                    stream.close()
                except OSError:
                    pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
