"""What the players play for: a shared score (`cooperative score out of N`)
and teams (`teams by EXPR`), read through the game API, the bots and the
end of game as the terminal tells it."""
from __future__ import annotations

import re

from click.testing import CliRunner

from cli.main import cli
from interpreter.agents import make_agents
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
COOP = FIXTURES / "coop_points.rules"
PARTNERS = FIXTURES / "partners.rules"
HIDDEN = FIXTURES / "hidden_teams.rules"


def coop_text(**changes) -> str:
    text = COOP.read_text(encoding="utf-8")
    for old, new in changes.items():
        text = text.replace(old, new)
    return text


def coop_game(text=None):
    if text is None:
        return load_game(COOP)
    return load_game(COOP, text=text, cards={"coop/fireworks.yaml": (FIXTURES / "coop" / "fireworks.yaml").read_text()})


def finish_by_discarding(st):
    """Discard (or hint, when the hint tokens are full) until the deck runs out:
    nothing is ever played."""
    while not st.is_terminal():
        ids = st.legal_actions()
        st.apply_action(next((a for a in ("throw", "hint_colour") if a in ids), ids[0]))
    return st


def test_a_deck_run_out_with_nothing_played_is_worth_nothing_not_a_shared_win():
    st = finish_by_discarding(coop_game().new_initial_state(2, seed=4))
    result = st.result()
    assert result["shared_score"] == 0 and result["best_score"] == 12
    assert result["winners"] == [] and "outcome" not in result
    assert st.returns() == [0.0, 0.0]


def test_each_seat_is_rewarded_with_the_shared_score_over_the_best():
    game = coop_game()
    for seed in range(3):
        st = play_game(game, 3, seed, make_agents("greedy", 3, seed))
        result = st.result()
        assert result["shared_score"] == sum(result["scores"]) / 3
        assert st.returns() == [result["shared_score"] / 12] * 3
        assert st.objective(1) == st.returns()[1]


def test_a_game_ended_lost_scores_nothing_and_the_best_score_is_a_win():
    lost = coop_game(coop_text(**{"end game now\n        draw_one": "end game lost\n        draw_one"}))
    st = play_game(lost, 2, 0, make_agents("random", 2, 0))
    assert st.result()["lost"] and st.result()["shared_score"] == 0 and st.returns() == [0.0, 0.0]
    easy = coop_game(coop_text(**{"cooperative score out of 4 * size(colours)": "cooperative score out of 1"}))
    st = play_game(easy, 2, 0, make_agents("greedy", 2, 0))
    assert st.result()["shared_score"] >= 1
    assert st.result()["outcome"] == "won" and st.winners() == [0, 1] and st.returns() == [1.0, 1.0]


def test_greedy_and_mcts_play_cards_for_the_shared_score():
    """Without a shared score to aim at, a deck run out was a shared win and
    mcts never played a card; now both bots score far more than random play."""
    game = coop_game()
    played = {bots: sum(play_game(game, 2, seed, make_agents(bots, 2, seed)).result()["shared_score"]
                        for seed in range(4)) for bots in ("random", "greedy", "mcts:20")}
    assert played["greedy"] > played["random"] + 4 and played["mcts:20"] > played["random"] + 4, played


def test_partners_win_together_and_each_gets_a_whole_win():
    game = load_game(PARTNERS)
    st = game.new_initial_state(4, seed=0)
    for choice in ["give", "player-3"]:
        st.apply_action(choice)  # player 1 gives 3 to its partner, player 3; then everyone takes 2
    while not st.is_terminal():
        st.apply_action("keep")
    assert st.teams() == [0, 1, 0, 1] and st.team_values() == [0, 1, 0, 1]
    assert st.scores() == [6, 8, 11, 8]  # 17 against 16
    assert st.winners() == [0, 2] and st.returns() == [1.0, 0.0, 1.0, 0.0]


def test_greedy_gives_to_its_partner_and_keeps_without_teams():
    with_teams = load_game(PARTNERS)
    alone = load_game(PARTNERS, text=PARTNERS.read_text().replace("teams by me % 2\n", ""),
                      cards={"coop/roles.yaml": (FIXTURES / "coop" / "roles.yaml").read_text()})

    def first_choices(game):
        taken = []
        play_game(game, 4, 1, make_agents("greedy", 4, 1), on_decision=lambda st, d, c: taken.append((d.player, c)))
        return taken[:2]
    assert first_choices(with_teams) == [(0, "give"), (0, "player-3")]
    assert first_choices(alone)[0] == (0, "keep")


def test_the_end_of_game_names_the_winning_team_and_the_shared_score():
    runner = CliRunner()
    out = runner.invoke(cli, ["run", str(HIDDEN), "--players", "4", "--seed", "2", "--bots", "greedy"]).output
    assert out.rstrip().endswith("team blue (player 1 and player 4) wins with 23 against 19")
    assert "player 2 (team red)" in out and "player 4 (team blue) winner" in out
    out = runner.invoke(cli, ["run", str(PARTNERS), "--players", "4", "--seed", "2", "--bots", "greedy"]).output
    assert out.rstrip().endswith("the team of player 1 and player 3 and the team of player 2 and player 4 share the win on 22")
    assert "player 2 (with player 4) winner" in out
    out = runner.invoke(cli, ["run", str(COOP), "--players", "4", "--seed", "2", "--bots", "greedy"]).output
    assert out.rstrip().endswith("the players score 11 out of 12 together")


# ---------------------------------------------------------------- simulate and compare
def simulate(*args):
    from cli.simulate import simulate_command

    result = CliRunner().invoke(simulate_command, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def schema(name: str) -> dict:
    import json

    return json.loads((ROOT / "schemas" / name).read_text())


def test_simulate_reports_the_mean_shared_score_with_its_interval(tmp_path):
    import json

    jsonschema = __import__("pytest").importorskip("jsonschema")
    out = tmp_path / "games.jsonl"
    summary = json.loads(simulate(COOP, "-n", 20, "--bots", "greedy", "-j", 1, "--json", "--out", out))
    jsonschema.validate(summary, schema("simulate-summary.schema.json"))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    for record in records:
        jsonschema.validate(record, schema("game-record.schema.json"))
    coop = summary["cooperative"]
    shared = [r["shared_score"] for r in records]
    assert coop["best_score"] == 12 and coop["shared_score"]["mean"] == sum(shared) / 20
    assert coop["shared_score"]["low"] < coop["shared_score"]["mean"] < coop["shared_score"]["high"]
    assert "team" not in summary  # (the shared score says how the team did)
    text = simulate(COOP, "-n", 20, "--bots", "greedy", "-j", 1)
    mean, low, high = coop["shared_score"]["mean"], coop["shared_score"]["low"], coop["shared_score"]["high"]
    assert f"shared score {mean:.2f}  ({low:.2f} - {high:.2f}; 95% interval) out of 12" in text


def test_simulate_reports_the_win_rate_of_each_team(tmp_path):
    import json

    summary = json.loads(simulate(PARTNERS, "-n", 40, "--players", 4, "-j", 1, "--json"))
    teams = {row["team"]: row for row in summary["win_rate_by_team"]}
    assert teams["0"]["seats"] == [0, 2] and teams["1"]["seats"] == [1, 3]
    assert teams["0"]["wins"] + teams["1"]["wins"] == 40 and teams["0"]["games"] == 40
    assert teams["0"]["low"] <= teams["0"]["rate"] <= teams["0"]["high"]
    text = simulate(PARTNERS, "-n", 40, "--players", 4, "-j", 1)
    assert "win rate by team (95% Wilson interval)" in text
    assert re.search(r"^  team 0 \(players 1, 3\) +\d\.\d{3}  \(\d\.\d{3} - \d\.\d{3}\)$", text, re.M)
    hidden = json.loads(simulate(HIDDEN, "-n", 40, "--players", 4, "-j", 1, "--json"))
    rows = {row["team"]: row for row in hidden["win_rate_by_team"]}
    assert set(rows) == {"red", "blue"} and rows["red"]["seats"] is None  # the seats change from game to game


def test_compare_measures_the_shared_score_and_the_teams_win_rates(tmp_path):
    import json

    from cli.simulate import compare_command

    harder = tmp_path / "harder.rules"
    harder.write_text(f'extends "{COOP}"\noverride param mistakes_allowed = 1\n')
    result = CliRunner().invoke(compare_command, [str(COOP), str(harder), "-n", 30, "--bots", "greedy", "-j", 1,
                                                  "--json"])
    assert result.exit_code == 0, result.output
    diffs = {d["metric"]: d for d in json.loads(result.output)["variants"][0]["differences"]}
    assert diffs["shared_score"]["difference"] < 0 and diffs["shared_score"]["label"] == "shared score (cooperative score)"
    selfish = tmp_path / "selfish.rules"
    selfish.write_text(PARTNERS.read_text().replace('"coop/roles.yaml"', f'"{FIXTURES / "coop" / "roles.yaml"}"')
                       .replace("gain 3 gold of q", "gain 1 gold of q"))
    result = CliRunner().invoke(compare_command, [str(PARTNERS), str(selfish), "-n", 30, "--players", 4, "-j", 1,
                                                  "--json"])
    assert result.exit_code == 0, result.output
    diffs = {d["metric"]: d for d in json.loads(result.output)["variants"][0]["differences"]}
    assert {"win_rate_team_0", "win_rate_team_1"} <= set(diffs)
    assert diffs["win_rate_team_0"]["label"] == "win rate of team 0"


# ---------------------------------------------------------------- hidden teams
def test_hidden_teams_are_told_as_the_role_cards_are_seen():
    """Twin positions: players 2 and 3 hold each other's role card (red and
    blue, the same back), so the teams differ; player 1, who sees neither,
    is told the same things in both, and its bots choose the same, until a
    role is shown to it."""
    from interpreter.runtime.ops import zone_to_change
    from interpreter.play import world_sampler
    from interpreter.agents import make_agent

    game = load_game(HIDDEN)
    checked = 0
    for seed in range(12):
        st = game.new_initial_state(4, seed=seed)
        a, b = (st.card_index(st.zone("role", p)[0]) for p in (1, 2))
        if st.team_values()[1] == st.team_values()[2]:
            continue
        other = st.clone()
        za, zb = other.loc[a], other.loc[b]
        zone_to_change(other, za)[0], zone_to_change(other, zb)[0] = b, a
        other.loc[a], other.loc[b] = zb, za
        assert st.teams() != other.teams()
        assert st.observation(0) == other.observation(0)
        assert st.decision(0) == other.decision(0)
        for name in ("greedy", "mcts:40"):
            choices = [make_agent(name, seed=3, seat=0).choose(pos.decision(), pos.observation(0),
                                                               world_sampler(pos, 0, 3)) for pos in (st, other)]
            assert choices[0] == choices[1], name
        # player 2 shows its role to player 1: now the twins differ for player 1
        for pos in (st, other):
            for choice in ("keep", "show", "player-1"):
                pos.apply_action(choice)
        assert st.observation(0) != other.observation(0)
        checked += 1
    assert checked >= 3


def test_check_leaks_finds_no_leak_in_hidden_teams():
    result = CliRunner().invoke(cli, ["check", "--leaks", str(HIDDEN), "--players", "4"])
    assert result.exit_code == 0, result.output
    assert "no leak found" in result.output


# ---------------------------------------------------------------- first player, hand by hand
HANDS = FIXTURES / "hand_winner_starts.rules"


def test_a_hand_started_by_its_winner_is_measured_hand_by_hand(tmp_path):
    """Each hand's winner starts the next: hand by hand, the player who
    starts a hand has no edge in the fixture, and a planted edge for the
    starter (+2 to its hand) shows."""
    import json

    jsonschema = __import__("pytest").importorskip("jsonschema")
    out = tmp_path / "games.jsonl"
    fair = json.loads(simulate(HANDS, "-n", 600, "--seed", 1, "-j", 1, "--json", "--out", out))
    jsonschema.validate(fair, schema("simulate-summary.schema.json"))
    for line in out.read_text().splitlines():
        record = json.loads(line)
        jsonschema.validate(record, schema("game-record.schema.json"))
        assert len(record["hands"]) == 5 and record["hands"][0][0] == 0
        for (_, winners), (starter, _) in zip(record["hands"], record["hands"][1:]):
            if len(winners) == 1:
                assert starter == winners[0]  # the winner starts the next hand
    hand = fair["first_player_advantage_by_hand"]
    assert hand["hands"] > 2000 and hand["low"] < 0 < hand["high"]
    edge = tmp_path / "edge.rules"
    edge.write_text(HANDS.read_text().replace('"../flow/cards.yaml"', f'"{ROOT / "tests" / "flow" / "cards.yaml"}"')
                    .replace("set hand to x", "set hand to x + (if me == first_player then 2 else 0)"))
    planted = json.loads(simulate(edge, "-n", 300, "--seed", 1, "-j", 1, "--json"))["first_player_advantage_by_hand"]
    assert planted["low"] > 0.1
    text = simulate(edge, "-n", 300, "--seed", 1, "-j", 1)
    assert re.search(r"^first-player advantage by hand  \+0\.\d{3}  \(\+0\.\d{3} to \+0\.\d{3}; hands won by the "
                     r"player who started them - 1/2, \d+ hands\)$", text, re.M)


def test_rules_that_never_move_the_start_have_no_hands():
    import json

    assert "first_player_advantage_by_hand" not in json.loads(simulate(PARTNERS, "-n", 5, "-j", 1, "--json"))


# ---------------------------------------------------------------- the browser's end of game
def test_the_browser_end_of_game_names_the_winning_team(tmp_path):
    """A table of bots served for real: the page's end of game says which
    team won, in players' words."""
    httpx = __import__("pytest").importorskip("httpx")
    from .serving import new_hub, running, wait_until

    hub, table = new_hub(tmp_path, rules=HIDDEN, players=4, humans=(0,), seed=2, bots="greedy")
    page = "/api" + hub.links(table)[0]
    with running(hub) as base, httpx.Client(base_url=base, timeout=30) as client:
        while True:
            view = wait_until(lambda: (v := client.get(page).json()) and (v["end"] or v["decision"]) and v,
                              what="player 1's decision or the end")
            if view["end"]:
                break
            if view["decision"]["player"] == 0:
                client.post(page + "/act", json={"option": "keep", "version": view["version"]})
    st = table.state
    values = st.team_values()
    winners = [p for p in range(4) if values[p] == values[st.winners()[0]]]
    said = view["end"]["said"]
    assert view["end"]["teams"] == [f"team {v}" for v in values]
    assert said.startswith(f"team {values[winners[0]]} (player {winners[0] + 1} and player {winners[1] + 1}) wins with"), said


def test_a_variant_overrides_the_teams(tmp_path):
    variant = tmp_path / "alone.rules"
    variant.write_text(f'extends "{PARTNERS}"\noverride teams by me\n')
    st = load_game(variant).new_initial_state(4, seed=0)
    for choice in ["give", "player-3"]:
        st.apply_action(choice)
    while not st.is_terminal():
        st.apply_action("keep")
    assert st.teams() == [0, 1, 2, 3] and st.winners() == [2] and st.returns() == [0.0, 0.0, 1.0, 0.0]
    again = tmp_path / "again.rules"
    again.write_text(f'extends "{PARTNERS}"\nteams by me\n')
    result = CliRunner().invoke(cli, ["check", str(again)])
    assert result.exit_code == 1 and "the 'teams' block is already defined in the base rules" in result.output


def test_tune_aims_at_a_shared_score():
    from cli.tune import tune_command

    result = CliRunner().invoke(tune_command, [str(COOP), "--param", "mistakes_allowed=1..4", "--target",
                                               "shared_score=2..3", "--budget", "120", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^  shared_score: \+\d\.\d{4} \(95% interval", result.output, re.M)


def test_the_html_report_gives_the_shared_score_and_the_teams(tmp_path):
    __import__("pytest").importorskip("matplotlib")
    simulate(COOP, "-n", 10, "-j", 1, "--report", tmp_path / "coop")
    assert re.search(r"Shared score \d+\.\d\d \(\d+\.\d\d – \d+\.\d\d, 95% interval\) out of 12",
                     (tmp_path / "coop" / "report.html").read_text())
    simulate(HIDDEN, "-n", 10, "--players", 4, "-j", 1, "--report", tmp_path / "teams")
    page = (tmp_path / "teams" / "report.html").read_text()
    assert "team red" in page and "team blue" in page
