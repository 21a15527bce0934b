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
                   {"origin": "null"}, {"origin": f"https://127.0.0.1:{port}"},
                   {"origin": f"http://127.0.0.1:{port + 1}"},
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


def answers_quickly(client, paths, seconds: float) -> float:
    """The slowest of the answers to `paths`, asked again and again for `seconds`."""
    import time

    slowest, end = 0.0, time.monotonic() + seconds
    while time.monotonic() < end:
        for path in paths:
            start = time.monotonic()
            assert client.get(path).status_code == 200, path
            slowest = max(slowest, time.monotonic() - start)
    return slowest


STOPPED = "; the game is as it was before it (the designer may go back or restart)"


# Each case waits for a budget to run out while the machine is busy (13 to
# 19 s of a loaded 2-core machine): the fast lane keeps the time budget's
# case, the README's `pytest` runs all three.
@pytest.mark.parametrize("loop, error", [
    (0, "a step of the rules took longer than 2 s and was stopped" + STOPPED),  # the time budget stops it
    pytest.param(1, "rule 'turn' ran 1000000 steps without a decision: it never ends (active rules: game -> turn)"
                 + STOPPED, marks=pytest.mark.slow),
    pytest.param(2, "a step of the rules took longer than 2 s and was stopped" + STOPPED,  # drawing the card played runs away
                 marks=pytest.mark.slow),
])
def test_a_runaway_rule_stops_its_table_only(tmp_path, loop, error):
    import threading

    from .serving import FIXTURES

    hub, calm = new_hub(tmp_path, players=2, humans=(0,), bot_delay=60)
    hub.step_seconds = 2
    wild = hub.new_table(str(FIXTURES / "runaway.rules"), {"loop": str(loop)}, 3, 2, [0, 1], None)
    seats, designer = hub.links(wild), "/api" + hub.links(wild)["designer"]
    with running(hub) as base, httpx.Client(base_url=base, timeout=30) as client:
        before = client.get(designer).json()
        decider = before["decision"]["player"]
        act = "/api" + seats[decider] + "/act"
        answer: list = []
        option = before["decision"]["options"][0]["id"]
        acting = threading.Thread(target=lambda: answer.append(client.post(act, json={"option": option})))
        acting.start()
        assert answers_quickly(client, ["/api" + hub.links(calm)[0], "/static/style.css", designer], 0.5) < 1
        acting.join(30)
        view = answer[0].json()
        assert answer[0].status_code == 200 and view["decision"] is None
        assert view["error"] == error
        after = client.get(designer).json()
        assert after["decisions"] == before["decisions"] and after["table"] == before["table"]
        again = client.post(act, json={"option": option})
        assert again.status_code == 409 and again.json()["error"] == "the game is stopped: " + error
        back = client.post(designer + "/travel", json={"before": 0}).json()
        assert back["error"] is None and back["decision"] == before["decision"]


def serve(*args, cwd):
    """`catalyst serve ARGS` in a subprocess: (process, lines it prints, read in a thread)."""
    import subprocess
    import sys
    import threading
    import time

    process = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, cwd=cwd)
    printed: list = []
    threading.Thread(target=lambda: [printed.append(line) for line in process.stdout], daemon=True).start()
    deadline = time.monotonic() + 60
    while not any("designer:" in line for line in printed):
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise AssertionError("the server printed no designer's link:\n" + "".join(printed))
        time.sleep(0.05)
    return process, printed


# A server process started and stopped in each case (about 38 s of a loaded
# 2-core machine): SIGINT is Ctrl+C's, which the fast lane leaves to `pytest`.
@pytest.mark.parametrize("stop", ["SIGTERM", pytest.param("SIGINT", marks=pytest.mark.slow)])
def test_the_server_stops_promptly_while_a_rule_runs_away(tmp_path, stop):
    import os
    import signal
    import threading
    import time
    from pathlib import Path

    from .serving import FIXTURES

    folder = tmp_path / "games"
    hub, calm = new_hub(folder, players=2, humans=(0,), bot_delay=60)  # kept, so served again beside the new one
    process, printed = serve(str(FIXTURES / "runaway.rules"), "--human", "1", "--human", "2", "--port", "0",
                             "--bot-delay", "0", "--step-time", "120", "--state-dir", str(folder), cwd=tmp_path)
    try:
        links = {line.split(": ", 1)[0].strip(): line.split(": ", 1)[1].strip() for line in printed if ": http" in line}
        base = links["designer"].split("/designer/")[0]
        with httpx.Client(base_url=base, timeout=30) as client:
            designer = "/api/designer/" + links["designer"].split("/designer/")[1]
            decision = client.get(designer).json()["decision"]
            act = links[f"player {decision['player'] + 1}"].replace(base, "").replace("/play/", "/api/play/") + "/act"

            def waits():  # for an answer that never comes: the server stops first
                try:
                    httpx.post(base + act, json={"option": decision["options"][0]["id"]}, timeout=60)
                except httpx.HTTPError:
                    pass
            threading.Thread(target=waits, daemon=True).start()
            time.sleep(0.5)
            assert answers_quickly(client, ["/api" + hub.links(calm)[0], "/static/style.css"], 1) < 1
        start = time.monotonic()
        process.send_signal(getattr(signal, stop))  # SIGINT: Ctrl+C
        process.wait(10)
        took = time.monotonic() - start
        assert took < 5, took
    finally:
        process.kill()
        process.wait(5)
    time.sleep(0.2)
    output = "".join(printed)
    assert "Traceback" not in output and "Error" not in output, output
    strays = []  # a step's process is a copy of the server: its command line names the state folder
    for entry in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(folder).encode() in entry.read_bytes():
                strays.append(entry.parent.name)
        except OSError:
            pass
    assert strays == [], (strays, os.getpid())


def test_where_processes_cannot_fork_steps_run_in_a_thread(tmp_path, monkeypatch):
    import os

    monkeypatch.delattr(os, "fork")
    hub, table = new_hub(tmp_path, players=2, humans=(0, 1), bot_delay=60)
    seat = "/api" + hub.links(table)[table.state.current_player()]
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        view = client.get(seat).json()
        after = client.post(seat + "/act", json={"option": view["decision"]["options"][0]["id"]})
        assert after.status_code == 200 and after.json()["version"] > view["version"]
        assert len(client.get("/api" + hub.links(table)["designer"]).json()["decisions"]) == 1


def test_the_addresses_a_server_answers_to_off_loopback():
    from interpreter.serve.origins import from_here, served

    lan = ("192.168.1.5", 8765)  # a server listening on 0.0.0.0, reached from another machine
    names = ("studio", "0.0.0.0")  # the name its links were printed with, and --host
    assert served("192.168.1.5:8765", lan, names) and served("STUDIO:8765", lan, names)
    for host in ("rebound.example:8765", "127.0.0.1:8765", "localhost:8765", "studio:8766", "192.168.1.6:8765",
                 "0.0.0.0:8765", "studio", "[::1]:8765", ":8765", "studio:+8765", "studio:８７６５"):
        assert not served(host, lan, names), host
    assert served("[::ffff:127.0.0.1]:80", ("::ffff:127.0.0.1", 80)) and served("localhost", ("127.0.0.1", 80))
    assert from_here({"origin": "http://studio:8765"}, lan, names)
    assert not from_here({"origin": "http://studio:8765", "sec-fetch-site": "cross-site"}, lan, names)
    assert not from_here({"origin": "http://studio:8765/x"}, lan, names) and from_here({}, lan, names)


def test_setting_up_a_table_that_runs_away_is_stopped_too(tmp_path):
    from click.testing import CliRunner

    from cli.main import cli
    from interpreter.serve import Hub, Store

    from .serving import FIXTURES

    result = CliRunner().invoke(cli, ["serve", str(FIXTURES / "runaway.rules"), "--set", "loop=3", "--step-time", "1",
                                      "--state-dir", str(tmp_path / "a")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output == (f"Error: {FIXTURES / 'runaway.rules'}: setting up the game: a step of the rules took "
                             f"longer than 1 s and was stopped (--step-time)\n")
    new_hub(tmp_path / "b", players=2, humans=(0,))
    slow = Hub(Store(tmp_path / "b"), step_seconds=1e-6)  # too short to replay even this game
    assert slow.resume() == [] and len(slow.problems) == 1
    assert "not resumed: " in slow.problems[0] and "replaying the game: a step of the rules took longer than 1e-06 s" \
        in slow.problems[0]


@pytest.mark.parametrize("named, said", [
    ("/etc/hostname", "which is not a rules file (the name of a rules file ends in .rules)"),
    ("secret.rules", "which cannot be loaded as rules (checking that file says why)"),
])
def test_a_kept_game_naming_another_file_as_its_rules_is_not_resumed_and_not_quoted(tmp_path, named, said):
    """A served game's save may name only a rules file as its rules, and the
    message never quotes a file it names (as `run --load` and `replay`)."""
    import json

    from interpreter.serve.store import Store

    hub, table = new_hub(tmp_path / "kept", players=2, humans=(0,))
    hub.store.save(table)
    [path] = (tmp_path / "kept").glob("*.json")
    (tmp_path / "kept" / "secret.rules").write_text("TOPSECRET words of another file\n")
    data = json.loads(path.read_text())
    data["rules"] = named
    path.write_text(json.dumps(data))
    tables, problems = Store(tmp_path / "kept").load_all()
    assert tables == [] and len(problems) == 1
    assert said in problems[0] and "TOPSECRET" not in problems[0], problems[0]
