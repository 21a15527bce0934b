"""The playtest server through its HTTP and WebSocket API, as a browser or
anything else may call it: each seat's secret shows that seat only what
visibility.py lets it see, refusals are 4xx with a message, a page that
reconnects gets its seat back, the designer travels in time, and the
games survive a restart of the server."""
from __future__ import annotations

import json
import os
import stat
import threading

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from interpreter.loader import load_game
from interpreter.serve import Hub, Store
from interpreter.serve.views import boards_json
from interpreter.view import table_view
from interpreter.visibility import EVERYTHING, card_visible

from .conftest import RULES
from .serving import HANDS, new_hub, running, wait_until


def hidden_names(st, seat) -> set:
    """The names of the cards `seat` may not see now (every name in the
    fixture is a card's own)."""
    names = {st.program.card_names[c] for c in range(len(st.loc)) if not card_visible(st, c, seat)}
    assert not any(name in json.dumps(table_view(st, seat)) for name in names)  # view.py agrees
    return names


def leaked(text: str, names: set) -> list:
    return sorted(name for name in names if name in text)


def ws_address(base: str, page: str) -> str:
    return base.replace("http://", "ws://") + page.replace("/play/", "/ws/play/").replace("/designer/", "/ws/designer/")


def api(page: str) -> str:
    return "/api" + page


def person_to_decide(client, hub, table) -> dict:
    """The designer's view once a person decides or the game is over (bots play meanwhile)."""
    designer = api(hub.links(table)["designer"])

    def settled():
        view = client.get(designer).json()
        deciding = view["decision"] and table.is_person(view["decision"]["player"])
        return view if deciding or view["end"] or view["error"] else None
    return wait_until(settled, what="a person's decision")


class Listener:
    """A page's socket read in a thread: every message it was sent."""

    def __init__(self, address: str):
        self.socket = connect(address, open_timeout=10).__enter__()
        self.messages: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for message in self.socket:
                self.messages.append(message)
        except ConnectionClosed:
            pass

    def close(self):
        self.socket.__exit__(None, None, None)
        self.thread.join(10)


def test_each_seat_sees_only_its_own_cards_over_http_and_websocket(tmp_path):
    hub, table = new_hub(tmp_path, players=3, humans=(0, 1), seed=11)
    links = hub.links(table)
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        listeners = {seat: Listener(ws_address(base, links[seat])) for seat in (0, 1)}
        last_hidden = {}
        checked = 0
        while True:
            view = person_to_decide(client, hub, table)
            if view["end"]:
                break
            for seat in (0, 1):
                hidden = last_hidden[seat] = hidden_names(table.state, seat)
                mine = client.get(api(links[seat]))
                assert mine.status_code == 200
                assert leaked(mine.text, hidden) == []
                assert mine.json()["you"] == seat
                checked += 1
            decider = view["decision"]["player"]
            other = 1 - decider
            choice = view["decision"]["options"][-1]["id"]
            refused = client.post(api(links[other]) + "/act", json={"option": choice})
            assert refused.status_code == 409 and "not yours" in refused.json()["error"]
            done = client.post(api(links[decider]) + "/act", json={"option": choice, "version": view["version"]})
            assert done.status_code == 200
            if not done.json()["end"]:  # the end shows every card
                assert leaked(done.text, last_hidden[decider]) == []
        for seat, listener in listeners.items():
            wait_until(lambda: any(json.loads(m)["end"] for m in listener.messages), what="the end on the socket")
            listener.close()
            before_end = [m for m in listener.messages if not json.loads(m)["end"]]
            assert before_end and all(leaked(m, last_hidden[seat]) == [] for m in before_end)
            assert all(json.loads(m)["you"] == seat for m in listener.messages)
        end = client.get(api(links[0])).json()["end"]
    assert checked >= 6
    assert len(end["breakdown"]) == 3 and end["labels"] == ["Played", "Kept"]
    revealed = json.dumps(end["reveal"])
    assert all(name in revealed for name in last_hidden[0] if name not in _deck_names(table.state))


def _deck_names(st) -> set:
    deck = st.program.zones["deck"].base
    return {st.program.card_names[c] for c in st.z[deck]}


def test_hidden_cards_stay_hidden_in_history_and_lookups(tmp_path):
    hub, table = new_hub(tmp_path, players=2, humans=(0,), seed=3)
    links = hub.links(table)
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        for _ in range(3):
            view = person_to_decide(client, hub, table)
            options = view["decision"]["options"]
            client.post(api(links[0]) + "/act", json={"option": options[-1]["id"]})
        person_to_decide(client, hub, table)
        hidden = hidden_names(table.state, 0)
        seat = client.get(api(links[0])).json()
        assert leaked(json.dumps(seat["history"]), hidden) == []
        assert leaked(json.dumps(seat), hidden) == []
        # The designer sees everything: the same names are in its view.
        designer = client.get(api(links["designer"])).text
        assert hidden and all(name in designer for name in hidden)
        # A card's printed data is public, as its card file is, but where it lies is not said.
        name = sorted(hidden)[0]
        looked = client.get(api(links[0]) + "/cards", params={"name": name})
        assert looked.status_code == 200
        assert looked.json()["cards"][0]["name"] == name
        assert set(looked.json()["cards"][0]) == {"name", "kind", "fields"}


@pytest.mark.slow
def test_bad_requests_get_a_4xx_and_a_message(tmp_path):
    hub, table = new_hub(tmp_path, players=2, humans=(0,), seed=5, bot_delay=60)
    links = hub.links(table)
    seat, designer = api(links[0]), api(links["designer"])
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        view = client.get(seat).json()
        option = view["decision"]["options"][0]["id"]
        cases = [
            (client.get("/api/play/not-a-secret"), 404, "no game has this link"),
            (client.get("/play/" + "A" * 32), 404, "no game has this link"),
            (client.get("/designer" + links[0][len("/play"):]), 404, "no game has this link"),  # a seat's secret
            (client.get("/api/designer" + links[0][len("/play"):]), 404, "no game has this link"),
            (client.get("/api/play" + links["designer"][len("/designer"):]), 404, "no game has this link"),
            (client.post(seat + "/act", content=b"{not json"), 400, "not JSON"),
            (client.post(seat + "/act", json=[1, 2]), 400, "JSON object"),
            (client.post(seat + "/act", json={}), 400, "say which option"),
            (client.post(seat + "/act", json={"option": "no-such-option"}), 400, "not an option here"),
            (client.post(seat + "/act", json={"option": option, "version": "1"}), 400, "whole number"),
            (client.post(seat + "/act", json={"option": option, "version": view["version"] + 5}), 409, "moved on"),
            (client.post(seat + "/act", content=b"{" + b" " * 10_000 + b"}"), 413, "larger than"),
            (client.get(seat + "/act"), 405, "does not take this method"),
            (client.get(seat + "/cards"), 400, "say which card"),
            (client.get(seat + "/cards", params={"name": "nothing like it"}), 404, "no card is called"),
            (client.post(designer + "/travel", json={"before": 99}), 400, "no decision 99"),
            (client.post(designer + "/travel", json={"branch": 3, "before": 0}), 400, "no branch 3"),
            (client.post(designer + "/restart", json={"seed": "abc"}), 400, "whole number"),
            (client.post(designer + "/load", content=b"not a save"), 400, ""),
            (client.get("/static/../tables.py"), 404, ""),
        ]
        for response, status, words in cases:
            assert response.status_code == status, (response.request.url, response.text)
            assert words in response.json()["error"] and response.json()["error"]
        assert client.get(seat).json()["version"] == view["version"]  # nothing changed the game
        page = client.get(links[0])
        assert page.status_code == 200
        assert "default-src 'none'" in page.headers["content-security-policy"]
        assert page.headers["referrer-policy"] == "no-referrer"
        for address, code in [(ws_address(base, "/play/not-a-secret"), 4404)]:
            with connect(address, open_timeout=10) as socket, pytest.raises(ConnectionClosed) as closed:
                socket.recv(timeout=10)
            assert closed.value.rcvd.code == code
        with connect(ws_address(base, links[0]), origin="http://elsewhere.example", open_timeout=10) as socket, \
                pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=10)
        assert closed.value.rcvd.code == 4403


def test_a_page_that_reconnects_gets_its_seat_back(tmp_path):
    hub, table = new_hub(tmp_path, players=3, humans=(0, 1), seed=21)
    links = hub.links(table)
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        view = person_to_decide(client, hub, table)
        decider = view["decision"]["player"]
        with connect(ws_address(base, links[decider]), open_timeout=10) as socket:
            first = json.loads(socket.recv(timeout=10))
        assert first["you"] == decider and first["decision"] is not None
        option = first["decision"]["options"][0]["id"]
        with connect(ws_address(base, links[decider]), open_timeout=10) as socket:
            again = json.loads(socket.recv(timeout=10))
            assert again["you"] == decider and again["decision"] == first["decision"]
            assert client.post(api(links[decider]) + "/act", json={"option": option}).status_code == 200
            after = json.loads(socket.recv(timeout=10))  # the change is pushed to the page
        assert after["version"] > again["version"]
        assert after["history"][len(again["history"]):]


@pytest.mark.slow
def test_games_survive_a_restart_of_the_server(tmp_path):
    hub, table = new_hub(tmp_path, players=3, humans=(0, 1), seed=31)
    links = hub.links(table)
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        for _ in range(3):
            view = person_to_decide(client, hub, table)
            seat = view["decision"]["player"]
            client.post(api(links[seat]) + "/act", json={"option": view["decision"]["options"][0]["id"]})
        view = person_to_decide(client, hub, table)
        before = {seat: client.get(api(links[seat])).json() for seat in (0, 1)}
    folder_mode = stat.S_IMODE(os.stat(tmp_path).st_mode)
    saves = list(tmp_path.glob("*.json"))
    assert len(saves) == 1 and folder_mode == 0o700 and stat.S_IMODE(saves[0].stat().st_mode) == 0o600
    assert json.loads(saves[0].read_text())["format"] == "rules-game-save/2"  # as the terminal saves a game

    again = Hub(Store(tmp_path), bot_delay=0)
    assert [t.id for t in again.resume()] == [table.id] and again.problems == []
    with running(again) as base, httpx.Client(base_url=base, timeout=20) as client:
        for seat in (0, 1):
            after = client.get(api(links[seat])).json()
            for key in ("table", "decision", "history", "you", "boards"):
                assert after[key] == before[seat][key], key
        designer = client.get(api(links["designer"])).json()
        assert len(designer["decisions"]) == len(view["decisions"])


@pytest.mark.slow
def test_designer_travels_back_branches_and_returns(tmp_path):
    hub, table = new_hub(tmp_path, players=2, humans=(0, 1), seed=41)
    links = hub.links(table)
    designer = api(links["designer"])
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        seen = []  # the seat's table before each decision
        for _ in range(4):
            view = client.get(designer).json()
            decider = view["decision"]["player"]
            seen.append(client.get(api(links[decider])).json()["table"])
            client.post(api(links[decider]) + "/act", json={"option": view["decision"]["options"][0]["id"]})
        line = [d["action"] for d in client.get(designer).json()["decisions"]]
        assert len(line) == 4

        back = client.post(designer + "/travel", json={"before": 2})
        assert back.status_code == 200
        assert [d["action"] for d in back.json()["decisions"]] == line[:2]
        assert back.json()["branches"][0]["decisions"][-1]["action"] == line[-1]
        decider = back.json()["decision"]["player"]
        assert client.get(api(links[decider])).json()["table"] == seen[2]  # the earlier position, as that seat saw it

        other = back.json()["decision"]["options"][-1]["id"]
        assert other != line[2]
        client.post(api(links[decider]) + "/act", json={"option": other})
        branched = client.get(designer).json()
        assert [d["action"] for d in branched["decisions"]] == line[:2] + [other]

        followed = client.post(designer + "/travel", json={"branch": 0, "before": 4}).json()
        assert [d["action"] for d in followed["decisions"]] == line
        assert any(b["decisions"][-1]["action"] == other for b in followed["branches"])

        saved = client.get(designer + "/save")
        assert saved.status_code == 200 and json.loads(saved.text)["format"] == "rules-game-save/2"
        restarted = client.post(designer + "/restart", json={"seed": 99}).json()
        assert restarted["seed"] == 99 and restarted["decisions"] == [] and restarted["branches"] == []
        loaded = client.post(designer + "/load", content=saved.content)
        assert loaded.status_code == 200, loaded.text
        assert loaded.json()["seed"] == 41 and [d["action"] for d in loaded.json()["decisions"]] == line


def test_the_designer_sees_the_set_values_and_parameters(tmp_path):
    hub, table = new_hub(tmp_path, players=2, humans=(0,), sets={"rounds": "1"}, bot_delay=60)
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        view = client.get(api(hub.links(table)["designer"])).json()
    assert view["sets"] == {"rounds": "1"}
    assert view["params"] == {"hand_size": "3", "rounds": "1"}
    assert view["seats"][0]["link"] == hub.links(table)[0] and view["seats"][1]["who"] == "bot random"


def test_the_hot_seat_shows_only_the_deciding_persons_cards(tmp_path):
    hub, table = new_hub(tmp_path, players=2, humans=(0, 1), seed=51, hotseat=True)
    links = hub.links(table)
    assert set(links) == {"hotseat", "designer"}  # no link opens a single seat
    with running(hub) as base, httpx.Client(base_url=base, timeout=20) as client:
        for _ in range(4):
            view = client.get(api(links["hotseat"])).json()
            decider = table.state.current_player()
            assert view["hotseat"] and view["you"] == decider and view["decision"]
            assert leaked(json.dumps(view), hidden_names(table.state, decider)) == []
            client.post(api(links["hotseat"]) + "/act", json={"option": view["decision"]["options"][0]["id"]})


def test_a_board_is_drawn_where_its_spaces_lie():
    game = load_game(RULES / "catastropolis" / "catastropolis.rules")
    st = game.new_initial_state(2, 1)
    boards = boards_json(st, EVERYTHING, {})
    assert len(boards) == 1 and boards[0]["edges"]
    spaces = boards[0]["spaces"]
    data = {name: game.program.cards.cards[c].data for c, name in enumerate(game.program.card_names)}
    # The map's own coordinates place the spaces: next spaces are one step apart.
    step = min(abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]) for a, b in
               ((spaces[i], spaces[j]) for i, j in boards[0]["edges"]))
    for i, j in boards[0]["edges"]:
        a, b = data[spaces[i]["name"]], data[spaces[j]["name"]]
        assert abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]) == 1
        assert abs(spaces[i]["x"] - spaces[j]["x"]) + abs(spaces[i]["y"] - spaces[j]["y"]) == pytest.approx(step, abs=1e-3)


# ---------------------------------------------------------------- the command
def serve_process(*args):
    """`catalyst serve ARGS` in a subprocess, and its printed lines up to the designer's link."""
    import queue
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, cwd=RULES.parent)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    printed = []
    try:
        while not any("designer:" in line for line in printed):
            printed.append(lines.get(timeout=60))
    except Exception:
        process.kill()
        raise AssertionError("the server printed no designer's link:\n" + "".join(printed)) from None
    return process, printed


def stop(process):
    import signal

    process.send_signal(signal.SIGINT)
    try:
        process.wait(15)
    except Exception:
        process.kill()
        process.wait(5)


def links_printed(printed) -> dict:
    return {line.split(": ", 1)[0].strip(): line.split(": ", 1)[1].strip() for line in printed
            if ": http://" in line}


@pytest.mark.slow
def test_the_command_serves_on_127_0_0_1_and_serves_its_games_again(tmp_path):
    state = tmp_path / "games"
    process, printed = serve_process(str(HANDS), "--players", "3", "--human", "1", "--human", "3", "--seed", "4",
                                     "--port", "0", "--state-dir", str(state))
    try:
        links = links_printed(printed)
        assert set(links) == {"player 1", "player 3", "designer"}
        assert all(link.startswith("http://127.0.0.1:") for link in links.values())
        assert any("player 2: bot random" in line for line in printed)
        for link in links.values():
            assert httpx.get(link, timeout=20).status_code == 200
        before = httpx.get(links["player 1"].replace("/play/", "/api/play/"), timeout=20).json()
    finally:
        stop(process)
    process, printed = serve_process("--port", "0", "--state-dir", str(state))
    try:
        again = links_printed(printed)
        assert {k: v.split("/", 3)[3] for k, v in again.items()} == {k: v.split("/", 3)[3] for k, v in links.items()}
        after = httpx.get(again["player 1"].replace("/play/", "/api/play/"), timeout=20).json()
        assert after["table"]["players"][0] == before["table"]["players"][0]
    finally:
        stop(process)


def test_the_command_says_what_is_wrong(tmp_path):
    from click.testing import CliRunner

    from cli.main import cli

    runner = CliRunner()
    empty = runner.invoke(cli, ["serve", "--state-dir", str(tmp_path / "none")])
    assert empty.exit_code != 0 and "give a RULES file" in empty.output
    seat = runner.invoke(cli, ["serve", str(HANDS), "--human", "5", "--state-dir", str(tmp_path / "s")])
    assert seat.exit_code != 0 and "player 5 does not exist" in seat.output and "Traceback" not in seat.output
    bad = tmp_path / "bad.rules"
    bad.write_text('game "Broken"\nplayers 2\nzone hand per player\n')
    broken = runner.invoke(cli, ["serve", str(bad), "--state-dir", str(tmp_path / "s")])
    assert broken.exit_code != 0 and "bad.rules:3:" in broken.output and "Traceback" not in broken.output


def test_the_table_says_round_phase_and_turn_as_players_count_them():
    """A round of phases is told as "round 1, phase 1 (...), turn 1"; a game
    without phases as "round 1, turn 1"."""
    from interpreter.serve.views import table_json

    capsule = load_game(RULES / "samples" / "capsule" / "capsule.rules")
    st = capsule.new_initial_state(2, seed=3)
    when = table_json(st, 0)["when"]
    assert when.startswith(f"round {st.round}, phase {st.phase} (") and when.endswith(f", turn {st.turns}")
    plain = load_game(RULES / "catalyst.rules").new_initial_state(2, seed=3)
    assert table_json(plain, 0)["when"] == f"round {plain.round}, turn {plain.turns}"
