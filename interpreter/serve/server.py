"""Running the application with uvicorn on a socket bound beforehand, so the
links can be printed with the real port (`--port 0` takes a free one)."""
from __future__ import annotations

import socket

STOP_SECONDS = 2  # how long a stopping server lets requests in progress finish (a step waited for is then killed)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); an address already in use is an
    OSError the caller words."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(hub, sock: socket.socket, quiet: bool = True, names=()) -> None:
    """Serve `hub` on `sock` until interrupted (Ctrl+C, SIGTERM); `names`
    are the host names its links were printed with."""
    import uvicorn

    from .app import make_app
    from .steps import end_all

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None):
            end_all()  # first: the requests waiting for a step are answered now, not cancelled later
            await super().shutdown(sockets)

    config = uvicorn.Config(make_app(hub, names), log_level="warning" if quiet else "info", ws_max_size=64 * 1024,
                            lifespan="on", access_log=not quiet, timeout_graceful_shutdown=STOP_SECONDS)
    Server(config).run(sockets=[sock])
