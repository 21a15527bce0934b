"""Lists that are concatenations walked part after part, a comprehension in
place (compiler/fusion.py): an action's condition `any x in A + B where C`
without making the list, a choice's options and a `for each`'s cards made
by loops of statements, a definition asking `any` returning at the first
match, the acting player's counters read once before such a loop, a
statement's condition `size(L) > 0` walking L to its first item, a
statement's `max` of a comprehension, or `sum` or `count`, folded by a loop: the
same answers as the lists made by comprehensions."""
from __future__ import annotations

import re

import pytest

from interpreter.agents import make_agents
from interpreter.compiler import fusion, hoist
from interpreter.errors import RulesRuntimeError
from interpreter.play import play_game
from interpreter.compiler.exprgen import ExprGen
from interpreter.compiler.stmtgen import RuleGen
from interpreter.loader import load_game

CARDS = """\
worker:
""" + "".join(f"  - {{name: W{i}, skill: {i % 3}}}\n" for i in range(10)) + """\
room:
""" + "".join(f"  - {{name: R{i}}}\n" for i in range(4))
RULES = """\
game "Crew"
players 2
cards "cards.yaml" into box
counter tired: per card, min 0, max 1
counter gold: per player
zone box: shared, visible
zone area: per player, visible
zone rooms: per player, visible
zone inside: per card, slots 1, visible
define crew = area + [c for r in rooms for c in inside of r]
define skilled(c) = c.skill > 0
define rested(k) = any c in crew where c.skill == k and tired of c == 1
setup:
    end game after 8 more rounds
action hire "hire":
    choose c in box where c is worker as "hire {c.name}":
        move c to area
action build "build":
    choose r in box where r is room as "build {r.name}":
        move r to rooms
define empty_rooms = [r for r in rooms where size(inside of r) == 0]
action house "house" when any c in crew where tired of c == 0 and size(area) > 0:
    if not (size(empty_rooms) == 0) and size(area) > 0:
        choose c in area as "house {c.name}":
            choose r in empty_rooms as "in {r.name}":
                move c to inside of r
action work "work" when any c in crew where tired of c == 0 and skilled(c):
    choose c in crew where tired of c == 0 and skilled(c) as "work {c.name}":
        set tired of c to 1
action rest "rest" when rested(size(area) % 3):
    for each c in crew where tired of c == 1:
        set tired of c to 0
turn:
    choose action
    repeat while size(empty_rooms) > 0 and size(area) > 2:
        choose c in area as "settle {c.name}":
            choose r in empty_rooms as "into {r.name}":
                move c to inside of r
    for each c in crew where tired of c == 1 and c.skill == 2:
        set tired of c to 0
    gain max([c.skill for c in crew] + [0]) gold
    let best = highest c.skill + 1 for c in crew where tired of c == 0
    if best != none:
        pay min([best, gold] + [c.skill for c in area]) gold
    set gold to gold + sum c.skill for c in area where c.skill > 0
    let many = count c in crew where skilled(c)
    lose min([many] + [gold]) gold
    gain max([c.skill for c in area] + [1, many]) gold
score:
    "Gold": gold
    "Ready": count c in crew where tired of c == 0 and skilled(c)
"""


def crew(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(RULES)
    return load_game(tmp_path / "game.rules")


def test_the_condition_walks_the_parts_without_making_the_list(tmp_path):
    text = crew(tmp_path).program.module.text
    turn = text.split("def turn(st, fr, pc=0):")[1]
    work = turn.split('action work "work" when')[1].split("choose action")[0]  # its test in the turn
    assert " + [" not in work and "for v" in work and "else:" in work


def test_a_definition_that_asks_any_returns_at_the_first_match(tmp_path):
    text = crew(tmp_path).program.module.text
    rested = text.split("def define_rested(st, p")[1].split("\n\n")[0]
    assert "return True" in rested and "return False" in rested and "any(" not in rested
    house = text.split("def turn(st, fr, pc=0):")[1].split('"house" when')[1].split('"work" when')[0]
    tests = [line for line in house.splitlines() if line.strip().startswith("if ")]
    assert tests and not any("len(z[1 + st.me])" in line for line in tests)  # `size(area)` read before the loops


def test_a_statement_asking_whether_a_list_has_an_item_walks_it_to_the_first(tmp_path):
    text = crew(tmp_path).program.module.text
    turn = text.split("def turn(st, fr, pc=0):")[1]
    settle = turn.split("repeat while size(empty_rooms) > 0")[1].split("choose c in area")[0]
    assert " = True" in settle and "break" in settle and "len([" not in settle


def test_the_walked_condition_says_what_the_list_says(tmp_path):
    game, only_inside = crew(tmp_path), 0
    for seed in range(6):
        st = game.new_initial_state(2, seed)
        ready = dict(st.program.score_terms)["Ready"]
        while not st.is_terminal():
            actions = st.legal_actions()
            if type(st.program.decisions[st.decision_point()]).__name__ == "ActionPoint":  # its conditions were just tested
                open_now = "work" in actions
                assert len(set(actions)) == len(actions)  # each action offered once, however many cards pass
                assert open_now == (ready(st) > 0)
                me = st.current_player()
                if open_now and not any(st.ctr[0][c] == 0 and c % 3 for c in st.z[1 + me]):
                    only_inside += 1  # open by a worker in a room alone: the comprehension's part
                if "house" in actions and seed % 2:
                    actions = ["house"]
            st.apply_action(actions[(seed + st.decisions) % len(actions)])
    assert only_inside > 0


def test_a_statement_folds_a_comprehension_by_a_loop_making_no_list(tmp_path):
    turn = crew(tmp_path).program.module.text.split("def turn(st, fr, pc=0):")[1]

    def code(statement):  # the lines of the statement, up to the next one's comment
        return re.split(r"\n *# \d+: ", turn.split(f": {statement}")[1], maxsplit=1)[0].split("\n", 1)[1]
    for statement in ("gain max(", "let best = highest", "pay min(", "let many = count"):
        lines = code(statement)
        assert re.search(r"^ *for v\d+ in ", lines, re.M) and not re.search(r"\[[^\]]* for ", lines)  # no list made
    assert "if t" in code("gain max(") and " is None or 0 > t" in code("gain max(")  # the 0 written out
    assert "+= 1" in code("let many = count")
    assert "min((" in code("lose min(")  # nothing to walk: the list of two is made
    area = code("gain max([c.skill for c in area]")
    assert re.search(r" 1 > t\d+: t\d+ = 1\n", area) and re.search(r"t\d+ = L\[\d+\]\n", area)  # numbers as written


def test_a_score_folds_its_count_by_a_loop_returning_the_total(tmp_path):
    text = crew(tmp_path).program.module.text
    ready = text.split('"Ready": count c in crew')[1].split("except Exception")[0]
    assert ready.count("for v") == 3 and "+= 1" in ready and "len([" not in ready  # area, then rooms, then inside
    assert re.search(r"return t\d+", ready)


@pytest.mark.timeout(60)
def test_definitions_naming_one_another_in_a_circle_are_followed_once():
    """A statement's value seen through definitions that name one another
    in a circle (looking for a fold) is compiled, not followed for ever,
    and the run reports the endless calls at the definition."""
    rules = RULES.replace("define skilled(c)", "define ring = ring_too\ndefine ring_too = ring\ndefine skilled(c)")
    rules = rules.replace("    choose action\n", "    choose action\n    gain ring gold\n", 1)
    game = load_game(text=rules, cards={"cards.yaml": CARDS})
    with pytest.raises(RulesRuntimeError, match="calls itself without end"):
        play_game(game, 2, 0, make_agents("random", 2, 0))


def test_a_game_with_its_lists_walked_in_parts_plays_as_with_them_made(tmp_path, monkeypatch):
    fused = crew(tmp_path)
    (tmp_path / "plain").mkdir()
    with monkeypatch.context() as m:
        m.setattr(fusion, "parts", lambda x, expr, names, seen=frozenset(): [(expr, names)])
        m.setattr(RuleGen, "fused_list", lambda *args, **kwargs: None)  # every list a comprehension
        m.setattr(ExprGen, "returned", lambda *args: None)  # every `any` a generator, every fold of a list made
        m.setattr(hoist, "_STEADY", re.compile(r"(?!)"))  # every read where it is written
        m.setattr(RuleGen, "test", lambda self, cond, names, span: self.x.gen(cond, names))  # every condition a value
        m.setattr(RuleGen, "value", lambda self, expr, names, span: self.x.gen(expr, names))  # every fold of a list made
        plain = crew(tmp_path / "plain")
    assert "for v" in fused.program.module.text and fused.program.module.text != plain.program.module.text
    for seed in range(4):
        a, b = fused.new_initial_state(2, seed), plain.new_initial_state(2, seed)
        while not a.is_terminal():
            assert a.legal_actions() == b.legal_actions() and a.ctr == b.ctr and a.to_json() == b.to_json()
            action = a.legal_actions()[(seed + a.decisions) % len(a.legal_actions())]
            a.apply_action(action)
            b.apply_action(action)
        assert a.scores() == b.scores()
