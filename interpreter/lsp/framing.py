"""The editor's stream, checked as pygls reads it: each message is headers
(`Content-Length: N`, perhaps `Content-Type`), an empty line, and N bytes
of JSON.

pygls reads whatever length a message announces (a 10^12-byte one is a
MemoryError that kills the server) and skips lines it does not understand,
so a message whose length is announced short leaves the rest of its body
read as headers, and every later message is lost with it. Nothing in the
stream says where the next message starts, so the server does not guess:
a message longer than the limit, a header that is not one, or a body that
is not JSON of the announced length ends the server with a message
(BrokenStream), and the editor starts it again.
"""
from __future__ import annotations

import json

from .. import limits

HEADER_BYTES = 1024  # one header line, its CRLF included
HEADERS = (b"content-length", b"content-type")  # the headers of the protocol


class BrokenStream(Exception):
    """The editor's stream cannot be read as messages any more."""


class CheckedInput:
    """A binary stream as pygls reads it (readline for headers, read for a
    body) that raises BrokenStream where the framing is broken."""

    def __init__(self, stream, limit: int = limits.LSP_MESSAGE_BYTES):
        self.stream, self.limit = stream, limit
        self.length: int | None = None  # announced by the headers being read
        self.in_headers = False

    def readline(self) -> bytes:
        line = self.stream.readline(HEADER_BYTES + 1)
        if not line:
            if self.in_headers:
                raise BrokenStream("the input ended inside a message's headers")
            return line  # the editor closed the stream between messages: the server ends
        self.in_headers = True
        if len(line) > HEADER_BYTES or not line.endswith(b"\r\n"):
            raise BrokenStream(f"expected a header line of at most {HEADER_BYTES} bytes ending in CRLF, "
                               f"got {_shown(line)}")
        if line == b"\r\n":
            if self.length is None:
                raise BrokenStream("a message has no Content-Length header")
            return line
        name, colon, value = line[:-2].partition(b":")
        if not colon or name.strip().lower() not in HEADERS:
            raise BrokenStream(f"expected a Content-Length or Content-Type header, got {_shown(line)}")
        if name.strip().lower() == b"content-type":
            return line
        return self._length(value.strip(), line)

    def _length(self, value: bytes, line: bytes) -> bytes:
        if not value.isdigit() or len(value) > 20 or int(value) == 0:
            raise BrokenStream(f"expected a Content-Length of 1 byte or more, got {_shown(line)}")
        length = int(value)
        if length > self.limit:
            raise BrokenStream(f"a message announces {length} bytes; the language server takes at most "
                               f"{self.limit} bytes ({self.limit >> 20} MB) a message")
        self.length = length
        return b"Content-Length: %d\r\n" % length  # as pygls expects it, whatever the case and spaces

    def read(self, size: int) -> bytes:
        body = self.stream.read(size)
        self.length, self.in_headers = None, False
        if len(body) < size:
            raise BrokenStream(f"the input ended inside a message ({len(body)} of its {size} bytes came)")
        try:
            json.loads(body)
        except (ValueError, RecursionError):
            raise BrokenStream(f"a message's {size} bytes are not JSON (is its Content-Length right?): "
                               f"{_shown(body)}") from None
        return body


def _shown(data: bytes) -> str:
    return repr(data[:60]) + ("..." if len(data) > 60 else "")
