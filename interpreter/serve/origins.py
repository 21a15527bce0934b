"""Which requests come from the server's own pages: the names a request may
give the server (Host), and the pages it may come from (Origin,
Sec-Fetch-Site).

A page of another site may send requests to the server (a form, a script,
a socket); the browser then says where the page came from in Origin, and
Sec-Fetch-Site says whether it is another site. A page whose site's name
was pointed at this machine afterwards (DNS rebinding) is of the same origin
as the server in the browser's eyes, but names that site in Host. So a
request is answered only if its Host is an address the server serves: the
address the connection reached with the server's port, the loopback forms
(127.0.0.1, localhost, [::1]) when it was reached on loopback, and the names
the server printed its links with. A state-changing request or a socket
from a page must also come from such an address.
"""
from __future__ import annotations

import ipaddress

CROSS_SITE = ("cross-site", "same-site")  # Sec-Fetch-Site values of a page served elsewhere
WRONG_HOST = "this server does not answer to the name '{}': open the link the server printed"
ELSEWHERE = "this page was not served here"


def _split(authority: str):
    """(host, port) of `host[:port]` or `[v6][:port]` (port None when not
    written), or None when it is not an address."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        host, _, rest = authority[1:].partition("]")
        if rest and not rest.startswith(":"):
            return None
        port = rest[1:] if rest else None
    else:
        host, _, port = authority.partition(":")
        port = port if ":" in authority else None
    if port is not None and not (port.isascii() and port.isdigit() and len(port) <= 5):
        return None
    return host, None if port is None else int(port)


def _ip(text: str):
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    mapped = getattr(ip, "ipv4_mapped", None)
    return mapped or ip


def served(authority: str | None, server, names=()) -> bool:
    """Whether `authority` (a Host header, or an Origin without its scheme)
    names this server: `server` is (address, port) the connection reached,
    `names` the names the server printed its links with. No Host at all
    (a client that is not a browser, HTTP/1.0) is let in."""
    if authority is None or server is None:
        return authority is None
    split = _split(authority)
    if split is None:
        return False
    host, port = split
    if (80 if port is None else port) != server[1]:
        return False
    reached, ip = _ip(str(server[0])), _ip(host)
    if reached is not None and reached.is_loopback and (host == "localhost" or (ip is not None and ip.is_loopback)):
        return True
    if ip is not None:
        return ip == reached
    return host in {name.lower() for name in names}


def from_here(headers, server, names=()) -> bool:
    """Whether the page that sent a request (its Origin and Sec-Fetch-Site
    headers) is one of this server's; a request no page sent says neither."""
    if headers.get("sec-fetch-site") in CROSS_SITE:
        return False
    origin = headers.get("origin")
    if origin is None:
        return True
    scheme, _, authority = origin.partition("://")
    return scheme.lower() == "http" and "/" not in authority and served(authority, server, names)
