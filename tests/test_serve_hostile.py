"""The served table against hostile requests: links no table has (written
in any characters), pages of other sites (origins, DNS rebinding), a state
folder shared with others, and rules that run away while a table computes.
Every test drives a real server on a free port of 127.0.0.1."""
from __future__ import annotations

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .serving import new_hub, running

BAD_TOKENS = ["%C3%A9", "%F0%9F%83%8F" * 3, "%00", "%FF%FE", "A" * 300, "%E2%80%AE" + "B" * 31]


def ws(base: str, path: str) -> str:
    return base.replace("http://", "ws://") + path


def close_code(address: str, **options) -> int:
    """The code a socket at `address` is closed with (having received nothing)."""
    with connect(address, open_timeout=10, **options) as socket, pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=10)
    return closed.value.rcvd.code


def test_a_link_no_table_has_is_404_in_any_characters(tmp_path, capfd):
    hub, _ = new_hub(tmp_path, players=2, humans=(0,), bot_delay=60)
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        for token in BAD_TOKENS:
            for path in (f"/api/play/{token}", f"/play/{token}", f"/designer/{token}", f"/api/designer/{token}",
                         f"/api/play/{token}/cards?name=x", f"/api/designer/{token}/save"):
                response = client.get(path)
                assert response.status_code == 404, (path, response.text)
                assert response.json() == {"error": "no game has this link (check that it was copied whole)"}
            assert client.post(f"/api/play/{token}/act", json={"option": "x"}).status_code == 404
            for path in (f"/ws/play/{token}", f"/ws/designer/{token}"):
                assert close_code(ws(base, path)) == 4404, path
    assert "Traceback" not in capfd.readouterr().err


def test_a_state_folder_that_exists_keeps_its_mode(tmp_path):
    import os
    import socket
    import stat

    from click.testing import CliRunner

    from cli.main import cli

    from .serving import HANDS

    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o755)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:  # the port is taken, so the command stops once the game is kept
        result = CliRunner().invoke(cli, ["serve", str(HANDS), "--state-dir", str(shared),
                                          "--port", str(taken.getsockname()[1])])
    finally:
        taken.close()
    assert result.exit_code != 0 and "cannot listen" in result.output
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755
    assert f"warning: the folder {shared} may be opened by other users (mode 755); " \
           f"each saved game in it is readable by you alone" in result.output
    saves = list(shared.glob("*.json"))
    assert len(saves) == 1 and stat.S_IMODE(saves[0].stat().st_mode) == 0o600
    fresh = tmp_path / "new" / "games"
    made = CliRunner().invoke(cli, ["serve", "--state-dir", str(fresh)])
    assert made.exit_code != 0 and stat.S_IMODE(fresh.stat().st_mode) == 0o700 and "warning" not in made.output


def test_requests_naming_another_server_or_sent_by_pages_of_other_sites_are_refused(tmp_path):
    import socket

    hub, table = new_hub(tmp_path, players=2, humans=(0,), bot_delay=60)
    seat = hub.links(table)[0]
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        port = int(base.rsplit(":", 1)[1])
        act = "/api" + seat + "/act"
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LocalHost:{port}"):
            assert client.get("/api" + seat, headers={"host": host}).status_code == 200, host
        for host in (f"rebound.example:{port}", f"127.0.0.1:{port + 1}", "localhost", f"10.0.0.1:{port}",
                     f"localhost.rebound.example:{port}", "[::1", f"127.0.0.1:{port}x"):
            for response in (client.get("/api" + seat, headers={"host": host}),
                             client.get("/static/style.css", headers={"host": host}),
                             client.post(act, json={}, headers={"host": host})):
                assert response.status_code == 421, (host, response.request.url)
                assert "does not answer to the name" in response.json()["error"]
        ours = (f"http://127.0.0.1:{port}", f"http://localhost:{port}", f"http://[::1]:{port}")
        for origin in ours:
            assert client.post(act, json={}, headers={"origin": origin}).status_code == 400  # let in: no option said
        assert client.post(act, json={}, headers={"sec-fetch-site": "same-origin"}).status_code == 400
        refused = [{"origin": "http://rebound.example"}, {"origin": f"http://rebound.example:{port}"},
                   {"origin": "null"}, {"origin": f"https://127.0.0.1:{port}"}, {"origin": f"http://127.0.0.1:{port + 1}"},
                   {"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"}]
        for headers in refused:
            response = client.post(act, json={}, headers=headers)
            assert response.status_code == 403 and response.json()["error"] == "this page was not served here", headers
        with connect(ws(f"http://localhost:{port}", "/ws" + seat), origin=f"http://localhost:{port}",
                     open_timeout=10) as live:
            assert live.recv(timeout=10)
        for origin in ("http://rebound.example", f"http://localhost:{port + 1}"):
            assert close_code(ws(base, "/ws" + seat), origin=origin) == 4403, origin
        # a page of a site whose name now leads to 127.0.0.1: the same origin for the browser, another Host
        rebound = f"http://rebound.example:{port}"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            assert close_code(ws(rebound, "/ws" + seat), origin=rebound, sock=sock) == 4403
        assert close_code(ws(base, "/ws/play/not-a-secret"), origin="http://rebound.example") == 4403
