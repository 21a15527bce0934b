"""The web application: pages, the JSON API and the live sockets.

Every address but the static files and the front page carries a link's
secret; a seat's secret opens that seat's page, view, choices and socket,
the designer's secret the designer's. A request the server refuses gets a
4xx status and {"error": "what was wrong"}. Pages are plain HTML, CSS and
JavaScript shipped in the package; they may load nothing from elsewhere
(Content-Security-Policy), and send no Referer, so a link's secret stays
in its address bar.
"""
from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import limits
from ..errors import RulesError
from ..loader import load_game
from ..saves import session_data
from .hub import Hub
from .origins import ELSEWHERE, WRONG_HOST, from_here, served
from .tables import TableError
from .views import cards_named

STATIC = Path(__file__).parent / "static"
SMALL_BODY = 4096  # bytes of a choice, a trip back in time, a restart
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}
FRONT = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Playtest server</title>
<link rel="stylesheet" href="/static/style.css"></head><body><main class="front"><h1>Playtest server</h1>
<p>Each player opens the link printed for their seat when the server started;
the designer opens the designer's link.</p></main></body></html>"""


def make_app(hub: Hub, names=()) -> Starlette:
    """The application serving `hub`'s tables; `names` are the host names
    its links were printed with (origins.py: the addresses it answers to)."""
    routes = [
        Route("/", front),
        Route("/play/{token}", play_page),
        Route("/designer/{token}", designer_page),
        Route("/api/play/{token}", seat_state),
        Route("/api/play/{token}/act", seat_act, methods=["POST"]),
        Route("/api/play/{token}/cards", seat_cards),
        Route("/api/designer/{token}", designer_state),
        Route("/api/designer/{token}/travel", designer_travel, methods=["POST"]),
        Route("/api/designer/{token}/restart", designer_restart, methods=["POST"]),
        Route("/api/designer/{token}/save", designer_save),
        Route("/api/designer/{token}/load", designer_load, methods=["POST"]),
        WebSocketRoute("/ws/play/{token}", seat_socket),
        WebSocketRoute("/ws/designer/{token}", designer_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {HTTPException: http_error, TableError: table_error, RulesError: rules_error, Exception: server_error}

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.start()
        yield
        await hub.stop()

    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.hub = hub
    app.state.names = tuple(names)
    return SecurityHeaders(Guard(app, app.state.names))


class Guard:
    """Refuses, before any route sees it, a request naming another server
    (Host: a page of a site whose name now leads here, DNS rebinding) and a
    change sent by a page of another site (Origin, Sec-Fetch-Site) (ASGI
    middleware). Sockets are checked by _live, so their page learns why."""

    def __init__(self, app, names):
        self.app, self.names = app, names
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers, server = Headers(scope=scope), scope.get("server")
            host = headers.get("host")
            if not served(host, server, self.names):
                return await refusal(421, WRONG_HOST.format(host[:100]))(scope, receive, send)
            if scope["method"] not in ("GET", "HEAD") and not from_here(headers, server, self.names):
                return await refusal(403, ELSEWHERE)(scope, receive, send)
        return await self.app(scope, receive, send)


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP response (ASGI middleware)."""

    def __init__(self, app):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        return await self.app(scope, receive, with_headers)


# ---------------------------------------------------------------- errors
def refusal(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def http_error(request, exc: HTTPException):
    words = {404: "there is nothing at this address", 405: "this address does not take this method"}
    message = exc.detail if exc.detail and exc.detail not in ("Not Found", "Method Not Allowed") else None
    return refusal(exc.status_code, message or words.get(exc.status_code, "refused"))


async def table_error(request, exc: TableError):
    return refusal(exc.status, exc.message)


async def rules_error(request, exc: RulesError):
    return refusal(400, exc.diagnostics[0].message)


async def server_error(request, exc: Exception):
    return refusal(500, "the server failed to answer this request; the game is as it was before it")


NO_LINK = "no game has this link (check that it was copied whole)"


def _hub(request) -> Hub:
    return request.app.state.hub


def _seat(request):
    found = _hub(request).find_seat(request.path_params["token"])
    if found is None:
        raise HTTPException(404, NO_LINK)
    return found


def _designer(request):
    table = _hub(request).find_designer(request.path_params["token"])
    if table is None:
        raise HTTPException(404, NO_LINK)
    return table


async def read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise HTTPException(413, f"the request is larger than the {limit} bytes this address takes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, f"the request is larger than the {limit} bytes this address takes")
    return body


async def read_json(request: Request) -> dict:
    body = await read_body(request, SMALL_BODY)
    try:
        data = json.loads(body.decode("utf-8")) if body else {}
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HTTPException(400, "the request's body is not JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request's body must be a JSON object")
    return data


# ---------------------------------------------------------------- pages
async def front(request):
    return HTMLResponse(FRONT)


async def play_page(request):
    _seat(request)
    return FileResponse(STATIC / "play.html")


async def designer_page(request):
    _designer(request)
    return FileResponse(STATIC / "designer.html")


# ---------------------------------------------------------------- a seat
async def seat_state(request):
    table, seat = _seat(request)
    return JSONResponse(await _hub(request).view(table, seat))


async def seat_act(request):
    table, seat = _seat(request)
    data = await read_json(request)
    option, version = data.get("option"), data.get("version")
    if not isinstance(option, str):
        raise HTTPException(400, 'say which option: {"option": ID, "version": N}')
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise HTTPException(400, "the version must be a whole number")
    hub = _hub(request)
    await hub.change(table, lambda: table.act(seat, option, version))
    return JSONResponse(await hub.view(table, seat))


async def seat_cards(request):
    table, _ = _seat(request)
    name = request.query_params.get("name", "")
    if not name.strip() or len(name) > 200:
        raise HTTPException(400, "say which card: ?name=NAME (at most 200 characters)")
    found = cards_named(table.state, name)
    if not found:
        raise HTTPException(404, f"no card is called '{name}'")
    return JSONResponse({"cards": found})


# ---------------------------------------------------------------- the designer
async def designer_state(request):
    table = _designer(request)
    return JSONResponse(await _hub(request).view(table, None))


async def designer_travel(request):
    table = _designer(request)
    data = await read_json(request)
    hub = _hub(request)
    await hub.change(table, lambda: table.travel(data.get("branch"), data.get("before")))
    return JSONResponse(await hub.view(table, None))


async def designer_restart(request):
    table = _designer(request)
    data = await read_json(request)
    hub = _hub(request)
    await hub.change(table, lambda: table.restart(data.get("seed")))
    return JSONResponse(await hub.view(table, None))


async def designer_save(request):
    table = _designer(request)
    text = table.save_text(table.setup.rules, with_links=False)
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", Path(table.setup.rules).stem)  # a header's quotes stay closed
    name = f"{stem}-seed{table.setup.seed}-{len(table.decisions)}.json"
    return Response(text, media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="{name}"'})


async def designer_load(request):
    table = _designer(request)
    raw = await read_body(request, limits.SAVE_FILE_BYTES)
    try:
        data = session_data(raw, "the save sent")
    except RulesError as err:
        raise HTTPException(400, err.diagnostics[0].message) from None
    game = load_game(table.setup.rules, data["sets"])
    hub = _hub(request)
    await hub.change(table, lambda: table.load(data, game), shared=[game])
    return JSONResponse(await hub.view(table, None))


# ---------------------------------------------------------------- live pages
def _same_origin(socket: WebSocket) -> bool:
    """Whether the page opening the socket came from this server, reached by
    one of its addresses (origins.py; a browser always says where a page
    came from, other clients may say nothing)."""
    server, names = socket.scope.get("server"), socket.app.state.names
    return served(socket.headers.get("host"), server, names) and from_here(socket.headers, server, names)


async def seat_socket(socket: WebSocket):
    found = socket.app.state.hub.find_seat(socket.path_params["token"])
    await _live(socket, found)


async def designer_socket(socket: WebSocket):
    table = socket.app.state.hub.find_designer(socket.path_params["token"])
    await _live(socket, None if table is None else (table, None))


async def _live(socket: WebSocket, found) -> None:
    """Send the page its view now and after every change, until it leaves.
    A refused socket is accepted, then closed with a code and a reason: a
    browser never learns why a handshake was refused, a page must."""
    await socket.accept()
    if not _same_origin(socket):  # before the link: a page of another site learns nothing about links
        await socket.close(code=4403, reason=ELSEWHERE)
        return
    if found is None:
        await socket.close(code=4404, reason=NO_LINK)
        return
    table, seat = found
    hub: Hub = socket.app.state.hub
    watcher = hub.watch(table, socket, seat)
    try:
        await hub.send(table, watcher)
        while (await socket.receive())["type"] != "websocket.disconnect":
            pass  # pages say nothing that matters; this waits for the page to leave
    except WebSocketDisconnect:
        pass
    finally:
        hub.unwatch(table, watcher)

