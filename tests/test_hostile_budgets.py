"""Budgets: rules that would run without end, grow without limit or ask
forever are stopped, each with a message naming the rule and the limit."""
from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.agents import make_agents
from interpreter.errors import RulesRuntimeError
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import game_files
from .test_hostile_saves import time_limit

HEAD = '''game "Budgets"
players 2
cards "cards.yaml" into box
param big = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
zone box: shared, visible
counter gold: per player
counter capped: per player, min 0, max 5
'''
TAIL = '''
score:
    "gold": gold
'''


CARDS = "thing:\n  - {name: A}\n  - {name: B}\n"


def rules_of(body: str, setup="end game after 2 more rounds", extra="") -> str:
    return HEAD + extra + f"setup:\n    {setup}\nturn:\n" + "".join(f"    {line}\n" for line in body.splitlines()) + TAIL


def game_of(body: str, setup="end game after 2 more rounds", extra=""):
    return load_game(text=rules_of(body, setup, extra), cards={"cards.yaml": CARDS})


def stopped(game, message, limits=None):
    if limits:
        game.set_limits(**limits)
    with time_limit(30), pytest.raises(RulesRuntimeError) as info:
        play_game(game, 2, 1, make_agents("random", 2, 1))
    assert message in info.value.render(), info.value.render()
    return info.value.render()


# ------------------------------------------------------------------ decisions
def test_a_loop_of_decisions_is_stopped_by_the_decision_budget():
    game = game_of('repeat while true:\n    may "again":\n        gain 1 gold')
    text = stopped(game, "the game did not end after 500 decisions: rule 'turn' is asking again", {"decisions": 500})
    assert "game.rules:12:9" in text and "a loop of decisions must end" in text


def test_the_default_decision_budget_stops_a_game_that_asks_forever():
    game = game_of('repeat while true:\n    may "again":\n        pass')
    stopped(game, "the game did not end after 100000 decisions")


# ------------------------------------------------------------------ definitions
CHAIN = "".join(f"define d{k} = d{k - 1} + d{k - 1}\n" for k in range(1, 31))


def test_definitions_that_use_each_other_twice_compile_in_linear_time():
    started = time.perf_counter()
    game = game_of("gain d30 gold", extra="define d0 = gold + 1\n" + CHAIN)
    assert time.perf_counter() - started < 5
    assert len(game.program.module.text) < 100_000  # each definition once, not 2^30 times


def test_a_value_passed_on_through_two_thousand_procedures_is_checked_in_a_few_passes():
    """Parameter types are carried one call further per pass over the rules:
    a chain of procedures thousands long stops after a fixed number of passes
    (its parameters stay untyped) instead of walking the rules once per call."""
    chain = "".join(f"procedure p{k}(x):\n    p{k + 1}(x)\n" for k in range(2000)) + "procedure p2000(x):\n    gain 1 gold of x\n"
    with time_limit(20):
        game = game_of("p0(me)", extra=chain)
    assert "procedure_p2000" in game.program.module.text
    # played, the chain is deeper than Python's stack: said so, not "calls itself"
    with pytest.raises(RulesRuntimeError, match=r"rules call one another \d+ deep, from 'turn' to 'procedure p\d+'"):
        play_game(game, 2, 1, make_agents("random", 2, 1))


def test_evaluating_them_is_stopped_by_the_step_budget():
    game = game_of("gain d30 gold", extra="define d0 = gold + 1\n" + CHAIN)
    stopped(game, "ran 20000 steps without a decision", {"steps": 20_000})


def test_a_definition_that_uses_itself_is_stopped():
    game = game_of("gain loop(1) gold", extra="define loop(x) = loop(x + 1) + 1\n")
    text = stopped(game, "without")
    assert "define loop" in text or "loop" in text


# ------------------------------------------------------------------ values
@pytest.mark.parametrize("body, message", [
    ("gain -3 gold", "cannot gain -3 gold: the amount must be 0 or more"),
    ("lose -3 gold", "cannot lose -3 gold: the amount must be 0 or more"),
    ("lose -10 capped", "cannot lose -10 capped: the amount must be 0 or more"),
    ("gain 0 - 1 gold", "cannot gain -1 gold"),
    ("gain 999999999999999999 * 999999999999999999 gold", "counter 'gold' would reach"),
    ("set gold to 999999999999999999 * 10", "counter 'gold' would reach 9999999999999999990"),
    ("set gold to 0 - 999999999999999999 * 10", "counter 'gold' would reach -9999999999999999990"),
    ("repeat 100 times:\n    gain gold + 1 gold", "counter 'gold' would reach"),
], ids=["gain-negative", "lose-negative", "lose-negative-past-max", "gain-computed-negative", "gain-huge",
        "set-huge", "set-huge-negative", "doubling"])
def test_a_counter_keeps_its_bounds_or_the_rule_stops(body, message):
    text = stopped(game_of(body), message)
    assert "game.rules:" in text


def test_a_bounded_counter_is_held_at_its_bounds():
    game = game_of("set capped to 99\ngain 9 capped\nlose 1 capped\ngain 1 gold")
    final = play_game(game, 2, 1, make_agents("random", 2, 1))
    assert final.counter("capped", 0) == 5 - 1 + 0 or final.counter("capped", 0) == 5
    assert all(0 <= final.counter("capped", p) <= 5 for p in range(2))


def test_gains_and_losses_are_held_at_each_bound_they_can_pass():
    """A gain cannot pass a counter's lower bound, nor a loss its upper one,
    so the code checks only the other (stmtgen `_change`); a counter whose
    first value already lies past its `max` is held at both."""
    extra = "counter ranged: per player, min 2, max 5\ncounter past: per player, max -1\n"
    body = "set ranged to 3\nlose 4 ranged\ngain 1 ranged\ngain 9 ranged\nlose 2 ranged\nlose 0 past"
    game = game_of(body, extra=extra)
    final = play_game(game, 2, 1, make_agents("random", 2, 1))
    for p in range(2):
        assert final.counter("ranged", p) == 3  # 3, held at 2, 3, held at 5, 3
        assert final.counter("past", p) == -1  # from 0, past its max: a loss of 0 is held at -1


@pytest.mark.parametrize("expression", [
    "count a in big where any b in big where any c in big where any d in big where any e in big where a + b + c + d + e < 0",
    "size([a + b + c + d + e for a in big for b in big for c in big for d in big for e in big])",
    "sum (sum (sum (sum 1 for d in big) for c in big) for b in big) for a in big",
], ids=["nested-any", "nested-comprehension", "nested-sum"])
def test_loops_nested_inside_an_expression_count_against_the_step_budget(expression):
    game = game_of(f"gain {expression} gold")
    stopped(game, "steps without a decision", {"steps": 50_000})


def test_a_long_repeat_is_stopped():
    stopped(game_of("repeat 1000000000 times:\n    gain 1 capped"), "ran 1000 steps without a decision",
            {"steps": 1000})


def test_the_command_line_reports_a_budget_with_its_rule(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(rules_of("gain -3 gold"))
    result = CliRunner().invoke(cli, ["run", str(tmp_path / "game.rules"), "--bots", "random"])
    assert result.exit_code == 1
    assert "game.rules:11:5: error: cannot gain -3 gold: the amount must be 0 or more" in result.output
    assert "hint: write `lose 3 gold` for the other way" in result.output
    assert "Traceback" not in result.output


# ------------------------------------------------------------------ sizes of values
GROWING = {
    "squared": ("define grow(x, k) = if k == 0 then x else grow(x * x, k - 1)", "gain grow(2, 40) gold",
                "a number grew past 100 digits, the most a rule may compute (in 'define grow')"),
    "list-doubled": ("define grow(l, k) = if k == 0 then size(l) else grow(l + l, k - 1)", "gain grow([1], 60) gold",
                     "a list grew past 1000000 items, the most a rule may build (in 'define grow')"),
    "cards-doubled": ("define grow(l, k) = if k == 0 then size(l) else grow(l + l, k - 1)", "gain grow(box, 60) gold",
                      "a list grew past 1000000 items, the most a rule may build (in 'define grow')"),
    "text-doubled": ('define grow(t, k) = if k == 0 then size(t) else grow("{t}{t}", k - 1)', 'gain grow("ab", 60) gold',
                     "a text grew past 1000000 characters, the most a rule may build (in 'define grow')"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", sorted(GROWING))
def test_a_value_that_keeps_growing_is_stopped_at_its_budget(tmp_path, case):
    """A definition that squares a number (or doubles a list or a text) at
    each call passes `check`; `run` stops it at the budget on the size of
    values, at the definition's line, instead of computing for ever."""
    define, body, message = GROWING[case]
    path = str(game_files(tmp_path, rules_of(body, extra=define + "\n"), CARDS))
    assert CliRunner().invoke(cli, ["check", path]).exit_code == 0
    result = CliRunner().invoke(cli, ["run", path, "--bots", "random"])
    assert result.exit_code == 1
    assert f"game.rules:8:1: error: {message}" in result.output, result.output
    assert f"    {define}\n    ^\n" in result.output
    assert "hint: a value that grows at each call or pass never stops growing" in result.output
    assert "Traceback" not in result.output


def test_values_within_the_budgets_are_computed_as_before(tmp_path):
    game = game_of("gain grow(2, 5) gold\ngain size(box + box + box) gold",
                   extra="define grow(x, k) = if k == 0 then x else grow(x * x, k - 1)\n")
    final = play_game(game, 2, 1, make_agents("random", 2, 1))
    assert final.counter("gold", 0) == 3 * (2 ** 32 + 6)  # three turns each


@pytest.mark.timeout(60)
def test_simulate_stops_a_growing_value_at_its_budget(tmp_path):
    define, body, message = GROWING["squared"]
    path = game_files(tmp_path, rules_of(body, extra=define + "\n"), CARDS)
    result = CliRunner().invoke(cli, ["simulate", str(path), "-n", "3", "--jobs", "1"])
    assert result.exit_code == 1
    assert f"game.rules:8:1: error: {message}" in result.output, result.output
