"""A small Language Server Protocol client over a subprocess's stdio, for the
tests of `gisa lsp` (tests/lsp/test_protocol.py) and its benchmark
(bench/lsp_latency.py). Standard library only."""
import json
import os
import select
import subprocess
import time


class Client:
    def __init__(self, argv, cwd=None, env=None):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd, env=env)
        self.buf = b""
        self.next_id = 1
        self.notes = []  # notifications received, in order

    # ---------------------------------------------------------------- wire
    def write(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    @staticmethod
    def frame(obj):
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, obj):
        self.write(self.frame(obj))

    def _fill(self, deadline):
        fd = self.p.stdout.fileno()
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no message from the server in time")
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            raise TimeoutError("no message from the server in time")
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            raise EOFError("the server closed its output")
        self.buf += chunk

    def read_message(self, timeout=20):
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buf:
            self._fill(deadline)
        head, rest = self.buf.split(b"\r\n\r\n", 1)
        length = None
        for line in head.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        assert length is not None, "no Content-Length in %r" % head
        self.buf = rest
        while len(self.buf) < length:
            self._fill(deadline)
        body, self.buf = self.buf[:length], self.buf[length:]
        return json.loads(body)

    # ---------------------------------------------------------------- rpc
    def request(self, method, params=None, timeout=20):
        rid = self.send_request(method, params)
        return self.response(rid, timeout)

    def send_request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return rid

    def response(self, rid, timeout=20):
        while True:
            m = self.read_message(timeout)
            if "method" in m and "id" not in m:
                self.notes.append(m)
                continue
            assert m.get("id") == rid, "expected the response to %r, got %r" % (rid, m)
            return m

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def notification(self, method, timeout=20, where=None):
        """The next notification of `method` (for which where(params) holds)."""
        for i, m in enumerate(self.notes):
            if m["method"] == method and (where is None or where(m["params"])):
                del self.notes[i]
                return m["params"]
        while True:
            m = self.read_message(timeout)
            if m.get("method") == method and "id" not in m and (where is None or where(m["params"])):
                return m["params"]
            self.notes.append(m)

    def diagnostics(self, uri, timeout=20):
        return self.notification("textDocument/publishDiagnostics", timeout, lambda p: p["uri"] == uri)["diagnostics"]

    def initialize(self, encodings=None, options=None):
        caps = {"textDocument": {"hover": {"contentFormat": ["markdown"]}}}
        if encodings:
            caps["general"] = {"positionEncodings": encodings}
        params = {"processId": os.getpid(), "rootUri": None, "capabilities": caps}
        if options is not None:
            params["initializationOptions"] = options
        r = self.request("initialize", params)
        self.notify("initialized", {})
        return r["result"]

    def close(self, timeout=10):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        return self.p.wait(timeout)
