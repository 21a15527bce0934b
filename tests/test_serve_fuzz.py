"""Fuzzing a running server (uvicorn on a free port of 127.0.0.1) with
addresses, query strings, bodies and socket frames: every answer is a page,
a view or a refusal (never a 500), and the server's output holds no
traceback. Example counts are bounded so it runs in seconds."""
from __future__ import annotations

import json
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .serving import new_hub, running

SETTINGS = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
ODD = ["%", "%zz", "%C3", "%FF%FE", "%00", "..", "/../", "//", "./", "%2F", "%2e%2e", "\\", ";", "~", "%E2%80%AE"]
segment = st.one_of(st.sampled_from(ODD), st.binary(max_size=12).map(lambda b: quote(b, safe="")),
                    st.text(max_size=12).map(lambda t: quote(t, safe="/")))
json_value = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=4), max_leaves=12)


def fields(links: dict) -> dict:
    """Names a generated address is made of: the real links' secrets, and the routes."""
    seat, designer = links[0].rsplit("/", 1)[1], links["designer"].rsplit("/", 1)[1]
    return {"prefixes": ["/", "/play/", "/designer/", "/api/play/", "/api/designer/", "/static/", "/ws/play/",
                         f"/api/play/{seat}/", f"/api/designer/{designer}/", f"/play/{seat}", f"/api/play/{seat}"],
            "tails": ["", "act", "cards", "travel", "restart", "save", "load", seat, designer, "style.css"]}


def test_fuzzed_requests_get_no_500_and_no_traceback(tmp_path, capfd):
    hub, table = new_hub(tmp_path, players=2, humans=(0,), seed=11, bot_delay=0)
    names, tried = fields(hub.links(table)), []
    with running(hub) as base, httpx.Client(base_url=base, timeout=30) as client:
        address = st.tuples(st.sampled_from(names["prefixes"]), st.lists(segment, max_size=3),
                            st.sampled_from(names["tails"])).map(lambda p: p[0] + "/".join(p[1]) + p[2])
        query = st.one_of(st.just(""), st.dictionaries(st.text(max_size=8), st.text(max_size=30), max_size=3).map(
            lambda q: "?" + "&".join(f"{quote(k)}={quote(v)}" for k, v in q.items())),
            st.binary(max_size=20).map(lambda b: "?" + quote(b, safe="=&")))
        body = st.one_of(st.binary(max_size=64), json_value.map(lambda v: json.dumps(v).encode()))

        @settings(max_examples=250, **SETTINGS)
        @given(method=st.sampled_from(["GET", "POST", "HEAD", "PUT", "DELETE"]), path=address, query=query, body=body)
        def request(method, path, query, body):
            tried.append(path)
            response = client.request(method, path + query, content=body if method in ("POST", "PUT") else None)
            assert response.status_code < 500, (method, path + query, body, response.text)

        request()
    assert len(tried) >= 200 and "Traceback" not in capfd.readouterr().err


def test_fuzzed_socket_frames_and_addresses_get_no_traceback(tmp_path, capfd):
    hub, table = new_hub(tmp_path, players=2, humans=(0,), seed=12, bot_delay=60)
    names, tried = fields(hub.links(table)), []
    with running(hub) as base:
        ws = base.replace("http://", "ws://")
        seat = ws + hub.links(table)[0].replace("/play/", "/ws/play/")

        @settings(max_examples=60, **SETTINGS)
        @given(frames=st.lists(st.one_of(st.binary(max_size=300), st.text(max_size=300)), max_size=4),
               path=st.tuples(st.sampled_from(["/ws/play/", "/ws/designer/", "/ws/"]), segment))
        def frames_sent(frames, path):
            tried.append(path)
            with connect(seat, open_timeout=10) as socket:
                assert json.loads(socket.recv(timeout=10))["kind"] == "seat"
                for frame in frames:
                    socket.send(frame)
                socket.ping().wait(10)  # the server still reads the socket
            try:
                with connect(ws + "".join(path), open_timeout=10) as socket:
                    socket.recv(timeout=10)
            except ConnectionClosed as closed:
                assert closed.rcvd.code in (4404, 4403), closed.rcvd
            except Exception as refused:  # a handshake refused (no such route) is an HTTP answer, not a 500
                assert "500" not in str(refused), refused

        frames_sent()
    assert len(tried) >= 50 and "Traceback" not in capfd.readouterr().err
