"""The generated rule code: no user text in it, only generated names, errors
located in the rules file, and rules compiled to plain or resumable functions."""
from __future__ import annotations

import ast

import pytest

from interpreter.agents import make_agents
from interpreter.compiler.codegen import Module, audit
from interpreter.errors import RulesError, RulesRuntimeError
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import CATALYST

CARDS = "thing:\n  - {name: \"Alpha'); import os #\", cost: 2}\n  - {name: Beta}\n"
RULES = '''\
game "Quote\\" + __import__('os') + \\""
players 2
cards "cards.yaml" into box
param motto = "'; import os; '"
counter gold: per player, min 0
zone box: shared, visible
zone hand: per player, visible
effect drawing "__import__('os').system('x')": gain 1 gold
setup:
    end game after 3 more rounds
turn:
    choose action
action take "take {motto} (exec('1'))":
    may choose c in box as "pick {c.name} \\"'\\"":
        move c to hand
action price "price":
    PRICE
score:
    "Gold \\" ' eval(1)": gold
'''


def tiny(tmp_path, price="gain 1 gold"):
    (tmp_path / "cards.yaml").write_text(CARDS)
    path = tmp_path / "game.rules"
    path.write_text(RULES.replace("PRICE", price))
    return load_game(path)


def test_user_text_never_reaches_the_generated_source(tmp_path):
    game = tiny(tmp_path)
    text = game.program.module.text
    for fragment in ("import", "os", "exec", "eval", "system", "motto", "Alpha", "Quote", "take"):
        assert fragment not in text
    tree = ast.parse(text)
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    st = play_game(game, 2, 3, make_agents("random", 2, 3))
    assert st.is_terminal() and st.turns == 8


def test_labels_keep_their_text(tmp_path):
    st = tiny(tmp_path).new_initial_state(2, 1)
    labels = [o.label for o in st.decision().options]
    assert labels == ["take '; import os; ' (exec('1'))", "price"]


def test_the_audit_refuses_names_the_compiler_did_not_make():
    module = Module("<test>")
    module.add_function("C1", "rule", [(0, "def C1(st):", None), (1, "return os.system", None)])
    with pytest.raises(RulesError, match="failed its audit: .*name 'os'"):
        module.build()
    tree = ast.parse("def C2(st):\n    return 'text'\n")
    with pytest.raises(RulesError, match="constant 'text'"):
        audit(tree, {})


def test_a_missing_field_is_reported_at_the_rule(tmp_path):
    game = tiny(tmp_path, price="for each c in box:\n        gain c.cost gold")
    st = game.new_initial_state(2, 1)
    with pytest.raises(RulesRuntimeError) as info:
        st.apply_action("price")
    text = info.value.render()
    assert "card 'Beta' has no field 'cost'" in text
    assert "game.rules:18:9" in text and "gain c.cost gold" in text


def test_a_runtime_failure_names_the_rule_and_line(tmp_path):
    game = tiny(tmp_path, price="gain 1 // (gold - gold) gold")
    st = game.new_initial_state(2, 1)
    with pytest.raises(RulesRuntimeError) as info:
        st.apply_action("price")
    text = info.value.render()
    assert "game.rules:17:5: error: rule failed: integer division or modulo by zero (in 'action price')" in text


def test_rules_without_decisions_are_plain_functions():
    program = load_game(CATALYST).program
    kinds = {code.name: code.light for code in program.codes[1:]}
    assert kinds["effect coin"] and kinds["procedure prepare_deck"]
    assert not kinds["turn"] and not kinds["procedure recruit_one"] and not kinds["effect recruit"]
    assert all(code.fn is not None for code in program.codes)


def test_a_coverage_compile_counts_the_cards_whose_fields_the_rules_read():
    """Only a game loaded for coverage counts field reads; the one card of
    the `goals` zone is used by a score term, never chosen by anyone."""
    plain = load_game(CATALYST)
    counted = load_game(CATALYST, coverage=True)
    assert "R_read" not in plain.program.module.source() and "R_read" in counted.program.module.source()
    st = counted.new_initial_state(2, 3, coverage=True)
    final = play_game(counted, 2, 3, make_agents("random", 2, 3), state=st)
    goal = final.zone("goals")[0]
    assert goal not in final.card_reads()  # scored only when the result is asked for
    scores = final.result()["scores"]
    reads = final.card_reads()
    assert goal in reads
    box = set(final.zone("box"))
    assert box and not box & set(reads)  # cards left in the starting zone are sorted, not used
    again = play_game(plain, 2, 3, make_agents("random", 2, 3), state=plain.new_initial_state(2, 3, coverage=True))
    assert again.result()["scores"] == scores and again.card_reads() == {}
