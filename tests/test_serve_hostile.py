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
