"""A zone declared `size hidden` keeps its number of cards from the players
who do not see its cards everywhere: in the story (events.py, and so the
terminal and the browser table), in labels and shown values (the checker
warns), and in the worlds search bots sample (worlds.py). Played on
tests/fixtures/hidden_sizes/vaults.rules (docs/language.md, "Who sees what")."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter import visibility
from interpreter.agents import make_agent
from interpreter.runtime.ops import zone_to_change
from interpreter.events import tell_all
from interpreter.loader import load_game
from interpreter.play import world_sampler
from interpreter.serve.views import seat_view
from interpreter.worlds import determinize

from .conftest import ROOT, checked_game, play
from .serving import new_hub

VAULTS = ROOT / "tests" / "fixtures" / "hidden_sizes" / "vaults.rules"


@pytest.fixture(scope="module")
def game():
    return checked_game(VAULTS)


def told(st, viewer) -> list[str]:
    return [text for _, text in tell_all(st, st.events, viewer)]


# ---------------------------------------------------------------- the story
def test_the_story_does_not_count_cards_going_into_a_zone_whose_size_is_hidden(game):
    st = game.new_initial_state(2, 3, listen=True)
    setup_for_1 = told(st, 1)
    assert "cards: deck -> pile" in setup_for_1  # the pile's size no one is told
    assert "3 cards: deck -> player 1's hand" in setup_for_1  # a hand's size everyone is told
    st.events = []
    play(st, "hoard")
    owner, other = told(st, 0), told(st, 1)
    hoarded = st.zone("vault", 0)
    names = ", ".join(st.program.card_names[st.card_index(c)] for c in hoarded)
    assert f"{names}: deck -> player 1's vault" in owner
    assert "cards: deck -> player 1's vault" in other
    assert not any("2 cards" in line or "a card" in line for line in other)
    assert f"{names}: deck -> player 1's vault" in told(st, visibility.EVERYTHING)


def test_the_story_does_not_count_cards_looked_at_in_a_zone_whose_size_is_hidden(game):
    st = game.new_initial_state(2, 3)
    st.events = []
    play(st, "peek")
    assert "player 1 looks at cards (pile)" in told(st, 1)
    assert any(line.startswith("player 1 looks at ") and "cards (pile)" not in line for line in told(st, 0))


def test_the_terminal_and_the_browser_table_tell_the_same_words(game, tmp_path):
    out = CliRunner().invoke(cli, ["run", str(VAULTS), "--human", "2", "--bots", "random", "--seed", "3"],
                             input="quit\n")
    assert out.exit_code == 0, out.output
    assert "cards: deck -> pile" in out.output and "2 cards: deck -> pile" not in out.output
    hub, table = new_hub(tmp_path, rules=VAULTS, players=2, humans=(0, 1), seed=3)
    table.act(0, "hoard")
    history = [line["text"] for line in seat_view(table, 1)["history"]]
    assert "cards: deck -> pile" in history and "cards: deck -> player 1's vault" in history
    assert not any(text.startswith("2 cards") for text in history)
    # the table: a size the player is not told is not written as a number
    shared = {z["zone"]: z["hidden"] for z in seat_view(table, 1)["table"]["shared"]}
    assert shared["pile"] == ["cards (hidden, how many is not told)"]
    assert "cards (hidden, how many is not told)" in out.output


def test_a_card_holding_cards_does_not_count_them_where_their_size_is_hidden():
    from interpreter.view import card_text

    rules = VAULTS.read_text().replace("zone pile: shared, hidden, size hidden",
                                       "zone pile: shared, hidden, size hidden\nzone under: per card, hidden, size hidden")
    rules = rules.replace("    deal 2 from deck to pile\n", "    deal 2 from deck to pile\n    deal 2 from deck to under of top(pile)\n")
    st = load_game(VAULTS, text=rules).new_initial_state(2, 3)
    holder = st.card_index(st.zone("pile")[-1])
    assert card_text(st, holder, 0).endswith("[under: hidden]")


# ---------------------------------------------------------------- labels and shown values
def warnings_of(extra: str) -> list[str]:
    return [d.message for d in load_game(VAULTS, text=VAULTS.read_text() + extra).diagnostics]


def test_a_label_reading_another_players_hidden_size_is_warned_about():
    found = warnings_of('action tally "tally":\n'
                                  '    choose p in others as "player {p + 1} keeps {count c in vault of p}":\n'
                                  '        gain 1 gold\n')
    assert found == ["the label of this choice tells how many cards zone 'vault' of another player holds, but "
                     "'vault' is `size hidden`: its player may not see that zone's cards"]


def test_a_players_own_hidden_size_may_be_shown_to_that_player_alone():
    assert warnings_of('define kept = size(vault)\nshow kept per player, owner only\n'
                                 'action keep "keep":\n'
                                 '    choose c in hand as "keep {c.name} ({size(vault)} kept)":\n'
                                 '        move c to vault\n') == []
    assert warnings_of('define kept = size(vault)\nshow kept per player\n') == [
        "`show kept per player` tells how many cards zone 'vault' holds, but 'vault' is `size hidden`: "
        "every player reads it, and not every player sees that zone's cards"]


# ---------------------------------------------------------------- sampled worlds
def position(game, seed=3):
    """Player 1 has hoarded and stashed, player 2 to play: player 2 knows
    neither player 1's vault nor the pile."""
    st = game.new_initial_state(2, seed)
    play(st, "hoard")
    play(st, "dump")
    play(st, "stash")
    play(st, st.legal_actions()[0])
    assert st.current_player() == 1 and len(st.zone("vault", 0)) == 3
    return st


def moved(st, count: int):
    """A copy of `st` with `count` cards no player knows moved from player
    1's vault to the pile (a negative count: from the pile to the vault):
    player 2 sees no difference. (A card player 1 knows, stashed from its
    hand, stays: player 2 knows that player 1 knows a card of its vault.)"""
    other = st.clone()
    vault, pile = other.program.zones["vault"].base, other.program.zones["pile"].base
    source, dest = (vault, pile) if count > 0 else (pile, vault)
    unknown = [c for c in other.z[source] if not other.known[c]]
    assert len(unknown) >= abs(count)
    for card in unknown[:abs(count)]:
        zone_to_change(other, source).remove(card)
        zone_to_change(other, dest).append(card)
        other.loc[card] = dest
    other.rng ^= 0x5DEECE66D  # and the future draws differ too
    return other


def test_moving_cards_between_size_hidden_zones_looks_the_same_to_who_sees_neither(game):
    st = position(game)
    for twin in (moved(st, 2), moved(st, -2)):
        assert twin.observation(1) == st.observation(1)
        assert twin.observation(0) != st.observation(0)


def test_sampled_worlds_do_not_keep_the_sizes_the_player_is_not_told(game):
    st = position(game)
    worlds = [determinize(twin, 1, 99)[0] for twin in (st, moved(st, 2), moved(st, -2))]
    assert worlds[0].z == worlds[1].z == worlds[2].z and worlds[0].rng == worlds[1].rng
    sizes = {len(determinize(st, 1, seed)[0].zone("vault", 0)) for seed in range(20)}
    assert len(sizes) > 2  # the vault's size is drawn, not kept
    for seed in range(20):
        world = determinize(st, 1, seed)[0]
        assert world.zone("hand", 1) == st.zone("hand", 1)  # what the player sees stays
        assert len(world.zone("deck")) == len(st.zone("deck"))  # a size the player is told stays
        assert len(world.zone("hand", 0)) == len(st.zone("hand", 0))
        assert len(world.zone("vault", 0)) + len(world.zone("pile")) == len(st.zone("vault", 0)) + len(st.zone("pile"))
        assert world.zone("vault", 1) == st.zone("vault", 1)  # its own vault it sees


def test_cards_the_player_knows_stay_in_their_zone_in_order(game):
    st = position(game)
    play(st, "peek")  # player 2 looks at the pile: it knows those cards
    play(st, "dump")  # and a card it does not know goes on top
    pile = st.zone("pile")
    known = pile[:-1]
    assert st.current_player() == 1
    for seed in range(10):
        world = determinize(st, 1, seed)[0]
        assert [c for c in world.zone("pile") if c in known] == known


@pytest.mark.parametrize("bot", ["random", "greedy:tries=4", "mcts:12"])
@pytest.mark.parametrize("seed", [3, 8])
def test_decisions_do_not_depend_on_the_sizes_the_player_is_not_told(game, bot, seed):
    st = position(game, seed)
    twins = [st, moved(st, 2), moved(st, -2)]
    choices = [make_agent(bot, seed, 1).choose(t.decision(), t.observation(1), world_sampler(t, 1, seed))
               for t in twins]
    assert choices[0] == choices[1] == choices[2]


def test_the_cards_a_player_knows_where_it_is_not_told_the_size_are_listed_without_places(game):
    """Player 1 looked at the pile, then an unseen card joined it: its
    observation lists the two cards it knows, not the places between them,
    and looks the same whatever number of unseen cards lies there."""
    st = game.new_initial_state(2, 3)
    play(st, "peek")
    looked = list(st.zone("pile"))
    play(st, "hoard")
    play(st, "dump")
    pile = st.observation(0)["zones"]["pile"]
    assert len(st.zone("pile")) == 3 and pile["count"] is None
    assert pile["known"] == looked
    twin = st.clone()
    pile_zi, vault_zi = twin.program.zones["pile"].base, twin.program.zones["vault"].base + 1
    unseen = next(c for c in twin.z[pile_zi] if not twin.known[c])
    zone_to_change(twin, pile_zi).remove(unseen)
    zone_to_change(twin, vault_zi).append(unseen)
    twin.loc[unseen] = vault_zi
    assert twin.observation(0) == st.observation(0)
    assert st.observation(visibility.EVERYTHING)["zones"]["pile"] != twin.observation(visibility.EVERYTHING)["zones"]["pile"]
