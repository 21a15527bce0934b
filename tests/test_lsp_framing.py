"""The language server against a broken stream of messages: a message
announcing more bytes than it takes, a length announced short, headers that
are not headers. Each ends the real `catalyst lsp` at once, with one line
on stderr saying why and a non-zero exit (no traceback), after answering
what came before intact."""
from __future__ import annotations

import json

import pytest

from interpreter import limits

from .lsp_client import ROOT, LspClient


def framed(message: dict, short: int = 0) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % (len(body) - short) + body


SHUTDOWN = {"jsonrpc": "2.0", "id": 99, "method": "shutdown"}
STOPS = "Error: the editor's messages cannot be read: "


@pytest.mark.parametrize("sent, why", [
    (b"Content-Length: 1000000000000\r\n\r\n{}",
     f"a message announces 1000000000000 bytes; the language server takes at most {limits.LSP_MESSAGE_BYTES} "
     f"bytes ({limits.LSP_MESSAGE_BYTES >> 20} MB) a message"),
    (framed({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {"settings": {}}}, short=3)
     + framed(SHUTDOWN),
     "a message's 89 bytes are not JSON (is its Content-Length right?): "
     "b'{\"jsonrpc\": \"2.0\", \"method\": \"workspace/didChangeConfigurati'..."),
    (b"Content-Lenght: 12\r\n\r\n",
     "expected a Content-Length or Content-Type header, got b'Content-Lenght: 12\\r\\n'"),
    (b"Content-Length: 2\r\n" + b"X" * 2000, "expected a header line of at most 1024 bytes ending in CRLF, got b'"
     + "X" * 60 + "'..."),
    (b"Content-Length: -5\r\n\r\n", "expected a Content-Length of 1 byte or more, got b'Content-Length: -5\\r\\n'"),
    (b"\r\n{}", "a message has no Content-Length header"),
    (b"Content-Length: 10\r\n\r\n{}", "the input ended inside a message (2 of its 10 bytes came)"),
])
def test_a_broken_stream_ends_the_server_with_a_message(sent, why):
    from .serving import wait_until

    with LspClient() as client:
        client.initialize()
        client.process.stdin.write(sent)
        client.process.stdin.close()  # all the server needs to see is there (or the stream ends)
        assert client.process.wait(timeout=30) == 1
        line = STOPS + why + "; the language server stops\n"
        wait_until(lambda: line in client.stderr, 10, f"the server's last words: {line!r} in {client.stderr}")
    assert "Traceback" not in "".join(client.stderr)


def test_headers_in_any_case_and_spacing_are_read():
    with LspClient() as client:
        client.initialize()
        body = json.dumps({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
                           "params": {"settings": {}}}).encode()
        client.process.stdin.write(b"content-length:%d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8"
                                   b"\r\n\r\n" % len(body) + body)
        nowhere = {"textDocument": {"uri": (ROOT / "none.rules").as_uri()}}
        symbols = client.request("textDocument/documentSymbol", nowhere)
        assert not symbols  # answered: the stream is still read message by message
