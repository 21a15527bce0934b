"""The PettingZoo AEC adapter (extra `rl`) and the shared action vocabulary /
observation encoding it uses."""
from __future__ import annotations

import pytest

from interpreter.adapters.encoding import Encoding, UnknownActionError
from interpreter.worlds import determinize
from interpreter import rng
from interpreter.loader import load_game

from .conftest import CATALYST, ROOT, RULES

SOLO = RULES / "solo.rules"
SHIPPED = [CATALYST, SOLO] + sorted(ROOT.glob("rules/variants/*.rules"))


@pytest.fixture(scope="module")
def games():
    return {path: load_game(path) for path in SHIPPED}


# ---------------------------------------------------------------- the vocabulary (no extra needed)
@pytest.mark.slow
def test_vocabulary_covers_every_id_in_many_random_games(games):
    """Every id offered in 40 random games per player count of every shipped
    rules file is in the vocabulary (legal_indices fails loudly otherwise)."""
    for path, game in games.items():
        enc = Encoding(game)
        lo, hi = game.player_range
        for players in range(lo, hi + 1):
            for seed in range(40):
                st = game.new_initial_state(players, seed)
                r = rng.seed_state(seed * 31 + players)
                while not st.is_terminal():
                    ids = st.legal_actions()
                    assert [enc.action_ids[i] for i in enc.legal_indices(st)] == sorted(ids, key=enc.index_of)
                    r, i = rng.below(r, len(ids))
                    st.apply_action(ids[i])


def test_vocabulary_is_derived_from_the_rules(games):
    game = games[CATALYST]
    enc = Encoding(game)
    ids = enc.action_ids
    assert len(ids) == len(set(ids)) == enc.num_actions
    assert set(game.model.actions) <= set(ids) and set(game.model.effects) <= set(ids)
    assert set(game.program.card_ids) <= set(ids)
    assert {"yes", "no", "pass", "done"} <= set(ids)
    assert {f"player-{k}" for k in range(1, game.program.max_players + 1)} <= set(ids)
    assert all(enc.index_of(a) == i and enc.id_of(i) == a for i, a in enumerate(ids))


CARDS = """\
thing:
  - {name: Alpha, cost: 1}
  - {name: Beta, cost: 2}
  - {name: Gamma, cost: 3}
"""

NUMBERS = """\
game "Numbers"
players 2
cards "cards.yaml" into box
counter gold: per player, min 0
zone box: shared, visible
zone hand: per player, visible
setup:
    pass
turn:
    choose n in [1, 2] as "take {n} gold":
        gain n gold
    choose x in [c.cost + 10 for c in box] as "note {x}":
        gain 0 gold
    if gold >= 4:
        end game now
score:
    "Gold": gold
"""


def test_literal_choices_are_in_the_vocabulary_and_computed_ones_fail_loudly(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "numbers.rules").write_text(NUMBERS)
    game = load_game(tmp_path / "numbers.rules")
    enc = Encoding(game)
    st = game.new_initial_state(2, seed=0)
    assert enc.legal_indices(st) == sorted([enc.index_of("1"), enc.index_of("2")])
    st.apply_action("2")
    with pytest.raises(UnknownActionError, match=r"action id '11' is not in the action vocabulary of 'Numbers'"):
        enc.legal_indices(st)
    # a caller that knows better can extend the vocabulary
    extended = Encoding(game, extra_action_ids=["11", "12", "13"])
    assert len(extended.legal_indices(st)) == 3


# ---------------------------------------------------------------- observations (no extra needed)
def test_observation_vector_never_depends_on_hidden_cards(games):
    """A world with every card the viewer cannot see redistributed gives the
    viewer the same vector; some opponent sees a difference."""
    game = games[CATALYST]
    enc = Encoding(game)
    st = game.new_initial_state(3, seed=4)
    r = rng.seed_state(9)
    for _ in range(60):
        ids = st.legal_actions()
        r, i = rng.below(r, len(ids))
        st.apply_action(ids[i])
    for viewer in range(3):
        world, _ = determinize(st, viewer, rng.seed_state(viewer + 100))
        assert enc.vector(world, viewer) == enc.vector(st, viewer)
        assert enc.observation_text(world, viewer) == enc.observation_text(st, viewer)
    assert enc.vector(st, -1) != [0.0] * enc.size


def test_observation_layout(games):
    game = games[CATALYST]
    enc = Encoding(game)
    names = [name for name, _, _ in enc.describe()]
    assert names[:4] == ["players", "viewer", "current_player", "first_player"]
    assert all(f"zone:{z}" in names for z in game.program.zones)
    st = game.new_initial_state(2, seed=1)
    v0, v1 = enc.vector(st, 0), enc.vector(st, 1)
    cur = enc.current.start
    # blocks are seen from the viewer: the deciding seat is "me" for it only
    assert v0[cur + (st.current_player() - 0) % 2] == 1 and v1[cur + (st.current_player() - 1) % 2] == 1
    assert len(v0) == enc.size == len(enc.low) == len(enc.high)
    assert all(lo <= x <= hi for x, lo, hi in zip(v0, enc.low, enc.high))


# ---------------------------------------------------------------- PettingZoo
NEEDS_RL = "the `rl` extra is not installed (pip install -e '.[rl]')"


@pytest.fixture(scope="module")
def RulesEnv():
    for module in ("numpy", "gymnasium", "pettingzoo"):
        pytest.importorskip(module, reason=NEEDS_RL)
    from interpreter.adapters.pettingzoo_env import RulesEnv

    return RulesEnv


@pytest.fixture(scope="module")
def np(RulesEnv):
    import numpy

    return numpy


def play_random(env, seed):
    env.reset(seed=seed)
    env.action_space(env.possible_agents[0]).seed(seed)
    selected = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        selected.append(agent)
        env.step(env.action_space(agent).sample(obs["action_mask"]))
    return selected


def test_reset_seed_plays_the_engine_game_of_that_seed(games, RulesEnv):
    env = RulesEnv(games[CATALYST], players=3)
    env.reset(seed=11)
    assert env.game_state.to_json() == games[CATALYST].new_initial_state(3, 11).to_json()
    env.reset()  # continues a sequence made from the last seed: reproducible
    first = env.game_state.to_json()
    env.reset(seed=11)
    env.reset()
    assert env.game_state.to_json() == first


def test_score_difference_and_win_rewards(games, RulesEnv, np):
    game = games[CATALYST]
    for reward in ("score", "win"):
        env = RulesEnv(game, players=3, reward=reward)
        env.reset(seed=5)
        env.action_space("player_0").seed(5)
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, r, term, trunc, info = env.last()
            totals[agent] += r
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.sum() == len(env.game_state.legal_actions())
            env.step(env.action_space(agent).sample(mask))
        st = env.game_state
        assert st.is_terminal()
        if reward == "win":
            assert [totals[a] for a in env.possible_agents] == st.returns()
        else:
            s = st.scores()
            assert totals["player_0"] == pytest.approx(s[0] - (s[1] + s[2]) / 2)
            assert sum(totals.values()) == pytest.approx(0)


def test_a_seat_that_never_decides_is_never_selected(games, RulesEnv):
    env = RulesEnv(games[SOLO])
    assert env.possible_agents == ["player_0", "player_1"]
    selected = play_random(env, seed=3)
    assert set(selected) == {"player_0"}
    assert env.agents == []  # both were terminated and removed at the end
    env.reset(seed=3)
    assert env.observe("player_1")["action_mask"].sum() == 0


def test_illegal_actions_truncation_and_render(games, RulesEnv, np):
    env = RulesEnv(games[CATALYST], players=2, max_decisions=5, render_mode="ansi")
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="is not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(env.encoding.num_actions)
    text = env.render()
    assert "Catalyst" in text and "[collect]" in text
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    with pytest.raises(ValueError, match="played by 2 to 4 players"):
        RulesEnv(games[CATALYST], players=5)


def test_observation_spaces_are_shared_and_generic(games, RulesEnv, np):
    env = RulesEnv(games[CATALYST], players=4)
    a = env.possible_agents[0]
    assert env.observation_space(a) is env.observation_space(a)
    assert env.action_space(a).n == Encoding(games[CATALYST]).num_actions
    env.reset(seed=0)
    obs = env.observe(a)
    assert obs["observation"].dtype == np.float32 and env.observation_space(a).contains(obs)


ROLES = """\
game "Roles"
players 2
cards "cards.yaml" into box
param all_roles = ["Captain", "Builder", "Trader"]
param quiet_roles = ["Mayor"]
counter gold: per player, min 0
zone box: shared, visible
setup:
    pass
procedure offer(roles):
    may choose r in roles as "take the {r}":
        gain 1 gold
procedure offer_again(more):
    offer(more)
turn:
    offer(all_roles)
    offer_again(quiet_roles)
    if gold >= 3:
        end game now
score:
    "Gold": gold
"""


def test_choices_from_a_procedure_argument_are_in_the_vocabulary(tmp_path):
    """`may choose r in roles`, `roles` a procedure's argument given list
    parameters (directly or through another procedure): every value has an id."""
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "roles.rules").write_text(ROLES)
    game = load_game(tmp_path / "roles.rules")
    enc = Encoding(game)
    for role in ("Captain", "Builder", "Trader", "Mayor"):
        assert role in enc.action_ids
    st = game.new_initial_state(2, seed=0)
    seen = set()
    while not st.is_terminal():
        seen.update(st.legal_actions())
        enc.legal_indices(st)  # no UnknownActionError
        st.apply_action(st.legal_actions()[0])
    assert {"Captain", "Mayor", "pass"} <= seen


def test_choices_from_a_definition_are_in_the_vocabulary(tmp_path):
    """`choose r in starters`, `starters` a definition of a literal list (or
    of a list parameter): every value has an id, also in a simultaneous choice."""
    (tmp_path / "cards.yaml").write_text(CARDS)
    rules = (ROLES.replace('param quiet_roles = ["Mayor"]',
                           'param quiet_roles = ["Mayor"]\ndefine starters = ["Pilot", "Scout"]\ndefine quiet = quiet_roles')
             .replace("    offer(all_roles)\n",
                      "    offer(all_roles)\n    offer(starters)\n    simultaneously choose s in quiet as \"{s}\":\n        gain 1 gold\n"))
    (tmp_path / "roles.rules").write_text(rules)
    game = load_game(tmp_path / "roles.rules")
    enc = Encoding(game)
    for role in ("Pilot", "Scout", "Mayor"):
        assert role in enc.action_ids
    st = game.new_initial_state(2, seed=0)
    while not st.is_terminal():
        enc.legal_indices(st)  # no UnknownActionError
        st.apply_action(st.legal_actions()[-1])


def test_render_words_unseen_zones_as_the_tables_do(RulesEnv):
    """The text render tells of a zone the viewer does not see what the
    terminal and browser tables tell: no count where the size is hidden."""
    from interpreter.adapters.pettingzoo_env import render_text

    st = load_game(ROOT / "tests/fixtures/hidden_sizes/vaults.rules").new_initial_state(2, 1)
    for _ in range(6):
        st.apply_action(st.legal_actions()[0])
    text = render_text(st, 0)
    assert "pile: cards (hidden, how many is not told)" in text and "None" not in text
    assert "hand: 2 cards (hidden)" in text


def test_the_documented_observation_sizes_are_the_encoder_s(games):
    """docs/agent_apis.md gives the length of the vector for Catalyst and solo: the encoder's own."""
    import re

    text = re.sub(r"\s+", " ", (ROOT / "docs" / "agent_apis.md").read_text())
    found = re.search(r"(\d+) floats for Catalyst, (\d+) for solo", text)
    assert found, "docs/agent_apis.md no longer gives the observation sizes"
    assert [int(found.group(1)), int(found.group(2))] == [Encoding(games[CATALYST]).size, Encoding(games[SOLO]).size]
