"""The generated rule code: user text only in comments, only names the
compiler made, errors located in the rules file (or reported as internal
errors), and rules compiled to plain or resumable functions."""
from __future__ import annotations

import ast
import io
import os
import pickle
import re
import tokenize

import pytest

from interpreter.agents import make_agents
from interpreter.compiler.codegen import Module, audit
from interpreter.errors import RulesError, RulesRuntimeError
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import CATALYST, ROOT

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


def tiny(price="gain 1 gold"):
    return load_game(text=RULES.replace("PRICE", price), cards={"cards.yaml": CARDS})


def code_without_comments(text: str) -> str:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return tokenize.untokenize((t.type, t.string) for t in tokens if t.type != tokenize.COMMENT)


def test_user_text_reaches_the_generated_source_only_in_comments():
    game = tiny()
    text = game.program.module.text
    code = code_without_comments(text)
    for fragment in ("import", "os", "exec", "eval", "system", "motto", "Alpha", "Quote"):
        assert fragment not in code
    assert "__import__('os').system('x')" in text  # the rules line, as a comment
    assert all(line.lstrip().startswith("#") for line in text.splitlines() if "import" in line)
    tree = ast.parse(text)
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    st = play_game(game, 2, 3, make_agents("random", 2, 3))
    assert st.is_terminal() and st.turns == 8


def test_labels_keep_their_text():
    st = tiny().new_initial_state(2, 1)
    labels = [o.label for o in st.decision().options]
    assert labels == ["take '; import os; ' (exec('1'))", "price"]


def test_the_audit_refuses_names_the_compiler_did_not_make():
    module = Module("test")
    name = module.function_name("procedure go")
    module.add_function(name, "procedure go", [(0, f"def {name}(st):", None), (1, "return os.system", None)])
    with pytest.raises(RulesError, match="failed its audit: .*name 'os'"):
        module.build()
    with pytest.raises(RulesError, match="constant 'text'"):
        audit(compile("def made(st):\n    return 'text'\n", "<t>", "exec"), {"made"})
    with pytest.raises(RulesError, match="function 'other'"):
        audit(compile("def other(st):\n    return 1\n", "<t>", "exec"), {"made"})


@pytest.mark.parametrize("body, refused", [
    ("import sys", "IMPORT_NAME"), ("from os import path as ids", "IMPORT_FROM"),
    ("global made\n    made = 1", "STORE_GLOBAL"), ("class S:\n        pass", "LOAD_BUILD_CLASS"),
    ("return st.__class__", "name '__class__'"), ("return open", "name 'open'"), ("secret = 1", "local 'secret'"),
    ("return 1.5", "constant 1.5"), ("return (1, 'a')", "constant 'a'"), ("return b'x'", "constant b'x'"),
    ("return [v1 for v1 in 'ab']", "constant 'ab'"), ("def inner(st):\n        return 1", "function 'inner'"),
])
def test_the_audit_refuses_what_generated_code_never_holds(body, refused):
    """The compiled code is checked, nested code included: imports, classes,
    `global`, names and locals the module did not make, texts and floats."""
    source = f"def made(st):\n    {body}\n"
    with pytest.raises(RulesError, match=f"failed its audit: .*{re.escape(refused)}"):
        audit(compile(source, "<t>", "exec"), {"made"})
    audit(compile("def made(st, L=None):\n    return [v1 + 1 for v1 in st.z if v1 in (1, 2)]\n", "<t>", "exec"),
          {"made"})


def test_the_audit_refuses_async_functions():
    with pytest.raises(RulesError, match="async"):
        audit(compile("async def made(st):\n    return 1\n", "<t>", "exec"), {"made"})


def test_generated_python_is_compiled_in_one_audited_place():
    """Every piece of Python the interpreter writes (rules, the state's
    clone, a bot's reads, an observer) is compiled and made into functions
    by runtime/audit.py, after its audit: nothing else calls compile, exec
    or eval, nor makes a function from a code object."""
    found = []
    for folder in ("interpreter", "cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text()
            if not re.search(r"\b(compile|exec|eval)\(|FunctionType", text):
                continue  # (parsing only the files that may hold one)
            for node in ast.walk(ast.parse(text)):
                name = getattr(node, "id", None) or getattr(node, "attr", None)
                called = isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("compile", "exec", "eval")
                if called or name == "FunctionType":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found and all(place.startswith("interpreter/runtime/audit.py:") for place in found), found


def test_an_observer_holds_no_name_of_the_rules(monkeypatch):
    """The names of zones and counters reach an observer as constants of
    its namespace: its source holds none of them (the audit refuses any text
    but the observation's own keys)."""
    from interpreter.runtime import audit as audited

    sources = []
    compiled = audited.compiled
    monkeypatch.setattr(audited, "compiled", lambda source, *rest: sources.append(source) or compiled(source, *rest))
    game = load_game(CATALYST)
    observation = game.new_initial_state(2, 1).observation(0)
    assert [s for s in sources if s.startswith("def observe")]
    names = set(observation["counters"]) | set(observation["zones"])
    assert "buildings" in names
    for source in sources:
        assert not any(f"'{name}'" in source for name in names), source
    with pytest.raises(RulesError, match="constant 'hand'"):
        audited.audit(compile("def observe(st):\n    return {'hand': 1}\n", "<t>", "exec"),
                      audited.Allowed(frozenset({"observe"}), re.compile("st"), frozenset({"zones"})))


@pytest.mark.parametrize("text", ["a\nimport os", "a\rimport os", "a\x00b", "a\u2028import os", "a\x0cb"],
                         ids=["newline", "carriage-return", "nul", "line-separator", "form-feed"])
def test_a_comment_never_ends_early(text):
    """Rules text shown in comments keeps to one line of the generated source."""
    module = Module("test")
    name = module.function_name("procedure go")
    module.add_function(name, text, [(0, f"def {name}(st):", None), (1, "return 1", None)])
    made = module.build()
    assert made[name](None) == 1
    comment, *code = module.text.split("\n")
    assert comment.startswith("# a") and comment.isprintable()
    assert code == ["def procedure_go(st):", "    return 1", "", ""]


def test_a_missing_field_is_reported_at_the_rule():
    game = tiny(price="for each c in box:\n        gain c.cost gold")
    st = game.new_initial_state(2, 1)
    with pytest.raises(RulesRuntimeError) as info:
        st.apply_action("price")
    text = info.value.render()
    assert "card 'Beta' has no field 'cost'" in text
    assert "game.rules:18:9" in text and "gain c.cost gold" in text


def test_a_runtime_failure_names_the_rule_and_line():
    game = tiny(price="gain 1 // (gold - gold) gold")
    st = game.new_initial_state(2, 1)
    with pytest.raises(RulesRuntimeError) as info:
        st.apply_action("price")
    text = info.value.render()
    assert "game.rules:17:5: error: rule failed: a number divided by 0 (in 'action price')" in text


def test_rules_without_decisions_are_plain_functions():
    program = load_game(CATALYST).program
    kinds = {code.name: not code.resumable for code in program.codes[1:]}
    assert kinds["effect coin"] and kinds["procedure prepare_deck"]
    assert not kinds["turn"] and not kinds["procedure recruit_one"] and not kinds["effect recruit"]
    assert all(code.fn is not None for code in program.codes)


def test_a_rule_that_waits_only_in_the_rule_it_calls_last_has_no_dispatch():
    """`recruit_card` pays, then calls `place_recruit` in tail position: a
    decision there waits in the frame `place_recruit` wrote over its own, so
    it is never resumed and is written without the dispatch on `pc` (the
    block a frame resumes at, 0 for a call anew) and its loop; a rule with a
    decision of its own keeps them."""
    module = load_game(CATALYST).program.module
    straight = module.source(only={"procedure_recruit_card"})
    assert "while True:" not in straight and "if not pc" not in straight
    assert "return procedure_place_recruit(st, fr)" in straight
    assert "if not pc:" in module.source(only={"procedure_recruit_one"})


def test_no_open_action_is_reported_only_where_every_action_has_a_condition():
    """`choose action` starts its list with the actions that are always open;
    only where every action has a `when` can the list be empty, and then the
    rule stops with the line of the choice."""
    from interpreter.errors import RulesRuntimeError

    always = tiny().program.module.source(only={"turn"})
    assert "vals = [0, 1]" in always and "R_no_action" not in always
    closed = RULES.replace("""(exec('1'))":""", """(exec('1'))" when gold > 5:""").replace(
        'action price "price":', 'action price "price" when gold > 5:')
    game = load_game(text=closed.replace("PRICE", "gain 1 gold"), cards={"cards.yaml": CARDS})
    assert "vals = []" in game.program.module.source(only={"turn"})
    with pytest.raises(RulesRuntimeError, match="no action is possible") as info:
        game.new_initial_state(2, 1)
    assert info.value.diagnostics[0].span.line == 12  # `choose action`


def test_the_acting_player_is_a_local_only_where_the_rule_never_sets_it():
    """A Catalyst turn reads the acting player at every step: it keeps it in
    `me`. A rule that acts as other players in turn (`st.me = ...`) reads it
    from the state, where it changes."""
    turn = load_game(CATALYST).program.module.source(only={"turn"})
    assert "    me = st.me\n" in turn and "st.me" not in turn.replace("    me = st.me\n", "")
    watch = load_game(ROOT / "tests" / "flow" / "watch.rules").program.module.source(only={"at_end_of_turn"})
    assert "st.me = " in watch and "    me = st.me" not in watch


# ------------------------------------------------------------------ reading generated code
GENERATED = [("catalyst", "rules/catalyst.rules", "recruit_one"), ("catalyst", "rules/catalyst.rules", "turn"),
             ("catalyst", "rules/catalyst.rules", "acquire_building"), ("solo", "rules/solo.rules", "prepare_buildings"),
             ("catastropolis", "rules/catastropolis/catastropolis.rules", "start of turn"),
             ("watch", "tests/flow/watch.rules", "end of turn")]  # with the engine's turn_end window


@pytest.mark.parametrize("game, rules, rule", GENERATED, ids=[f"{g}-{r.replace(' ', '_')}" for g, _, r in GENERATED])
def test_generated_code_matches_its_golden_fixture(monkeypatch, game, rules, rule):
    """A change in code generation shows up in review: the generated code of a
    few rules is kept in tests/golden/generated/ (regenerate with UPDATE_GOLDEN=1)."""
    from click.testing import CliRunner

    from cli.main import cli

    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["compile", rules, "--rule", rule])
    assert result.exit_code == 0, result.output
    path = ROOT / "tests" / "golden" / "generated" / f"{game}_{rule.replace(' ', '_')}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(result.output)
    assert result.output == path.read_text()


def test_compile_names_functions_after_rules_with_their_lines(monkeypatch):
    from click.testing import CliRunner

    from cli.main import cli

    monkeypatch.chdir(ROOT)
    out = CliRunner().invoke(cli, ["compile", "rules/catalyst.rules", "--rule", "recruit_one"]).output
    line = next(n for n, text in enumerate(CATALYST.read_text().splitlines(), 1) if text.startswith("procedure recruit_one"))
    assert f"# procedure recruit_one (rules/catalyst.rules:{line})" in out
    assert "def procedure_recruit_one(st, fr, pc=0):" in out
    assert f"# {line + 1}: choose c in market where price(c) <= coins" in out
    assert "procedure_recruit_card(st, fr)" in out  # calls name the rule they call
    ast.parse(out)  # it is Python as printed
    bad = CliRunner().invoke(cli, ["compile", "rules/catalyst.rules", "--rule", "recruit_on"])
    assert bad.exit_code == 1 and "no rule named 'recruit_on'" in bad.output and "did you mean 'recruit_one'?" in bad.output
    define = CliRunner().invoke(cli, ["compile", "rules/catalyst.rules", "--rule", "price"])
    assert define.exit_code == 0 and "def define_price(st, p0):" in define.output


def test_debug_shows_the_rules_line_and_the_generated_line(tmp_path):
    """With --debug a run-time error shows the traceback through the generated
    function, with its source line, and the rules line."""
    import subprocess
    import sys

    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(RULES.replace("PRICE", "gain 1 // (gold - gold) gold"))
    log = subprocess.run([sys.executable, "-m", "cli.main", "--debug", "run", str(tmp_path / "game.rules"),
                          "--bots", "random", "--seed", "4"], capture_output=True, text=True, cwd=ROOT)
    assert log.returncode != 0
    assert 'in action_price' in log.stderr  # the generated function, named after the rule
    assert "(1 // (ctr[0][st.me] - ctr[0][st.me]))" in log.stderr  # its generated line
    assert "game.rules:17:5: error: rule failed: a number divided by 0" in log.stderr


# ------------------------------------------------------------------ whose mistake
def test_a_fault_of_the_interpreter_is_an_internal_error(monkeypatch):
    """A bug inside the engine is not blamed on the rules: it is an internal
    error naming the rule, asking for a report."""
    from interpreter.errors import InternalError

    game = tiny()
    st = game.new_initial_state(2, 1)
    st.apply_action("take")

    def broken(st, card, zi, bottom=False):
        raise TypeError("an engine bug")
    monkeypatch.setitem(game.program.module.ns, "R_move", broken)
    with pytest.raises(InternalError) as info:
        st.apply_action(st.legal_actions()[0])
    text = info.value.render()
    assert "internal error of the interpreter: TypeError: an engine bug (while running 'action take')" in text
    assert "this is not a mistake in the rules: please report it" in text
    assert "generated code: action_take, line" in text
    assert not isinstance(info.value, RulesRuntimeError)


def test_a_game_loaded_again_reuses_its_code_and_keeps_its_own_lines():
    """The same rules loaded twice in one process share compiled code, but
    each game's functions carry its own module's name: a run-time error in
    the second still shows its rule, its rules line and its generated line,
    after the first game is gone."""
    import gc

    from interpreter.compiler import codegen

    first = tiny(price="gain 1 // (gold - gold) gold")
    hits = codegen._compiled.cache_info().hits
    second = tiny(price="gain 1 // (gold - gold) gold")
    assert codegen._compiled.cache_info().hits == hits + 1
    own = {f.__code__.co_filename for f in (first.program.module.ns["action_price"], second.program.module.ns["action_price"])}
    assert len(own) == 2
    del first
    gc.collect()
    st = second.new_initial_state(2, 1)
    with pytest.raises(RulesRuntimeError) as info:
        st.apply_action("price")
    text = info.value.render()
    assert "game.rules:17:5: error: rule failed: a number divided by 0" in text


def test_evaluation_does_not_swallow_an_internal_error(monkeypatch):
    """Bots skip positions the rules cannot score, but never an interpreter fault."""
    from interpreter.agents.evaluate import Evaluator
    from interpreter.errors import InternalError

    game = load_game(CATALYST)
    st = game.new_initial_state(2, 1)
    ev = Evaluator(game.program)
    monkeypatch.setitem(game.program.module.ns, "R_rank_row", lambda *args: (_ for _ in ()).throw(IndexError("bug")))
    with pytest.raises(InternalError):
        ev.value(st, 0)


def test_a_coverage_compile_counts_the_rules_run_and_the_cards_whose_fields_the_rules_read():
    """Only a game loaded for coverage counts rule runs and field reads (a
    plain game's code has no counting at all, and will not start a state
    that would count nothing); the one card of the `goals` zone is used by
    a score term, never chosen by anyone."""
    plain = load_game(CATALYST)
    counted = load_game(CATALYST, coverage=True)
    for counting in ("R_read", "st.cov"):
        assert counting not in plain.program.module.source() and counting in counted.program.module.source()
    with pytest.raises(ValueError, match="loaded with coverage"):
        plain.new_initial_state(2, 3, coverage=True)
    assert pickle.loads(pickle.dumps(counted.program)).coverage  # (a worker's copy counts as well)
    st = counted.new_initial_state(2, 3, coverage=True)
    final = play_game(counted, 2, 3, make_agents("random", 2, 3), state=st)
    goal = final.zone("goals")[0]
    assert goal not in final.card_reads()  # scored only when the result is asked for
    scores = final.result()["scores"]
    reads = final.card_reads()
    assert goal in reads
    box = set(final.zone("box"))
    assert box and not box & set(reads)  # cards left in the starting zone are sorted, not used
    runs = final.rule_coverage()
    assert runs["turn"] == final.turns and runs["setup"] == 1
    again = play_game(plain, 2, 3, make_agents("random", 2, 3))
    assert again.result()["scores"] == scores and again.rule_coverage() == again.card_reads() == {}


SLOTS = '''\
game "Slots"
players 2
cards "cards.yaml" into box
counter gold: per player
zone box: shared, visible
zone row: shared, slots 5, visible
define total = sum slot(c) for c in row
define listed = size([slot(c) for c in row where slot(c) > 0])
show total per player
show listed per player
setup:
    end game after 3 more rounds
turn:
    may "look at the row":
        if any c in row where slot(c) == 4:
            gain 100 gold
        choose c in row where slot(c) >= 2 as "take {c.name} from {slot(c)}":
            gain slot(c) gold
score:
    "gold": gold
'''


def test_a_card_met_walking_a_slotted_zone_has_its_slot_counted_not_searched():
    """`slot(c)` for a card of a slotted zone's walk is the walk's count
    (`enumerate`): the same slots, gaps included, as the search it replaces."""
    game = load_game(text=SLOTS, cards={"cards.yaml": "thing:\n  - {name: A}\n  - {name: B}\n  - {name: C}\n  - {name: D}\n"})
    text = game.program.module.text
    # every walk of the row asks for slots: each numbers them, none searches the row
    assert "enumerate(z[1])" in text and not re.search(r"for v\d+ in z\[1\]", text)
    assert not re.search(r"index\(v\d+\)", text)
    st = game.new_initial_state(2, 1)
    for card, slot in (("a", 1), ("b", 3), ("c", 4)):  # slots 0 and 2 left empty
        st.place(card, "row", slot=slot)
    st.refresh()
    assert st.shown_values(0) == {"total": [8, 8], "listed": [3, 3]}
    player = st.current_player()
    st.apply_action("yes")
    assert st.counter("gold", player) == 100  # a card lies in slot 4
    assert {o.id: o.label for o in st.legal_options()} == {"b": "take B from 3", "c": "take C from 4"}
    st.apply_action("c")
    assert st.counter("gold", player) == 104


def test_no_run_time_secrecy_test_where_every_zone_read_is_seen_by_all(monkeypatch):
    """Whether a choice with one option (or none) reads what not every player
    sees is decided at run time (R_public) only where a zone read may hold
    unseen cards: Catalyst's market and building supply are visible to all,
    Catastropolis reads zones that are not."""
    from click.testing import CliRunner

    from cli.main import cli

    monkeypatch.chdir(ROOT)
    open_rules = CliRunner().invoke(cli, ["compile", "rules/catalyst.rules"]).output
    assert "def procedure_recruit_one(st, fr, pc=0):" in open_rules and "R_public" not in open_rules
    hidden = CliRunner().invoke(cli, ["compile", "rules/catastropolis/catastropolis.rules"]).output
    assert "R_public(st, (" in hidden


def test_a_card_chosen_where_every_player_sees_it_is_not_handled_as_taken_unseen(monkeypatch):
    """ops.chosen (the others no longer know where the cards of its place
    lie) has nothing to do for a zone every player sees: neither the forced
    option nor the answered one calls it there."""
    from click.testing import CliRunner

    from cli.main import cli
    from interpreter import load_game

    monkeypatch.chdir(ROOT)
    recruit = CliRunner().invoke(cli, ["compile", "rules/catalyst.rules", "--rule", "recruit_one"]).output
    assert "L[0] = vals[0]" in recruit and "R_chosen" not in recruit
    points = load_game(CATALYST).program.decisions
    assert all(p.in_sight for p in points if getattr(p, "kind", None) == "card")  # every zone is visible but the scoring piles


def test_a_choice_through_definitions_of_visible_zones_is_taken_in_sight():
    """A choice's options seen through a definition, a concatenation and a
    comprehension lie in sight when every zone they come from is visible,
    one held by a card included (ops.chosen judges a card by its zone
    alone): nothing is handled as taken unseen there. One zone every player
    does not see, anywhere in the list, keeps the choice unseen."""
    rules = '''\
game "Sight"
players 2
cards "cards.yaml" into box
zone box: shared, visible
zone table: per player, visible
zone vault: per player, owner only
zone under: per card, visible
define spread = table + [c for b in table for c in under of b]
define kept = table + [c for c in vault]
define open_tables = [b for b in table where size(under of b) == 0]
setup:
    move [c for c in box] to table
turn:
    choose c in spread as "spread {c.name}":
        pass
    choose c in kept as "kept {c.name}":
        pass
    choose c in open_tables as "open {c.name}":
        pass
    end game now
score:
    "Cards": size(table)
'''
    cards = "thing:\n  - {name: A}\n  - {name: B}\n"
    game = load_game(text=rules, cards={"cards.yaml": cards})
    sight = [p.in_sight for p in game.program.decisions if p.kind == "card"]
    assert sight == [True, False, True]
    turn = game.program.module.text.split("def turn(st, fr, pc=0):")[1]
    # the forced and the answered option of `kept`, in the rule written out from
    # its start and in the block where the choice is asked again
    assert turn.count("R_chosen(st, ") == 4


def test_a_loop_of_statements_reads_a_counter_row_once_and_its_values_as_they_change():
    """`for each c in L where mark of c == 1`: the counter's row is read
    once before the loop (the list holding it never changes), its values
    at each card, after what the body did to the cards before: here the
    first card clears every mark, so it alone passes."""
    rules = '''\
game "Marks"
players 2
cards "cards.yaml" into box
counter gold: per player, min 0
counter mark: per card, min 0
zone box: shared, visible
zone hand: per player, visible
setup:
    move [c for c in box] to hand
    for each c in hand:
        set mark of c to 1
    for each c in hand where mark of c == 1:
        for each d in hand:
            set mark of d to 0
        gain 1 gold
    end game after 1 more rounds
turn:
    pass
score:
    "Gold": gold
'''
    cards = "thing:\n  - {name: A}\n  - {name: B}\n  - {name: C}\n"
    game = load_game(text=rules, cards={"cards.yaml": cards})
    setup = game.program.module.text.split("# 12: for each c in hand where mark of c == 1:")[1]
    row = re.search(r"(t\d+) = ctr\[1\]\n", setup)
    assert row and f"if not ({row.group(1)}[" in setup.split("\n\n")[0]
    st = game.new_initial_state(2, 1)
    assert sum(st.ctr[0]) == 1


def test_a_rule_ending_in_a_call_hands_its_frame_to_the_rule_it_calls(monkeypatch):
    """`recruit_card` pays, then calls `place_recruit` last: the callee's
    frame takes its place and its result is the rule's, so the rule keeps
    no block to resume at after the call (nothing would ever resume it)."""
    from click.testing import CliRunner

    from cli.main import cli

    monkeypatch.chdir(ROOT)
    code = CliRunner().invoke(cli, ["compile", "rules/catalyst.rules", "--rule", "recruit_card"]).output
    assert "fr[:] = [13, 0, [L[0], None]]" in code and "return procedure_place_recruit(st, fr)" in code
    assert "st.frames" not in code and "fr[1] =" not in code and "if pc == 1:" not in code


def test_a_rule_called_anew_runs_its_blocks_in_a_row_without_a_dispatch_check():
    """Block 0 of a resumable rule goes on to the blocks after it in place:
    a Catalyst turn that collects, has no chain token and nothing to place
    (its two loops not entered) runs from its start to its end checking
    `pc` once, on entry. (A rule resumed after a decision goes through the
    dispatch; both play the same games: test_play_out.)"""
    import sys

    game = load_game(CATALYST)
    st = game.new_initial_state(2, 3)
    module = game.program.module
    lines = module.text.splitlines()
    turns = []  # (the block each call of `turn` starts at, the `pc` checks it makes)

    def tracer(frame, event, arg):
        if frame.f_code.co_name != "turn" or frame.f_code.co_filename != module.filename:
            return None
        if event == "call":
            turns.append((frame.f_locals["fr"][1], []))
        elif event == "line" and lines[frame.f_lineno - 1].lstrip().startswith(("if pc ", "if not pc:")):
            turns[-1][1].append(lines[frame.f_lineno - 1].strip())
        return tracer

    class Enough(Exception):
        pass

    def collect(ids):  # every turn collects, for six turns
        if len(turns) > 6:
            raise Enough
        return "collect" if "collect" in ids else ids[0]

    sys.settrace(tracer)
    try:
        with pytest.raises(Exception) as info:
            st.play_out([collect, collect])
    finally:
        sys.settrace(None)
    assert isinstance(info.value.__cause__ or info.value, Enough)
    first, *others = turns  # the first turn resumes at its decision, asked before play_out
    assert first[0] > 0 and len(first[1]) > 1
    entry = "if not pc:  # (called anew: the blocks one after another, as far as they go straight on)"
    assert others == [(0, [entry])] * 6  # the others called anew, their decisions answered in place


RANKED = '''\
game "Ranks"
players 2..4
cards "cards.yaml" into box
counter gold: per player, min 0
zone box: shared, visible
setup:
    end game after 1 more rounds
turn:
    gain 1 gold
score:
    "Row": rank gold award [5, 3, 1] ties share at least 1
    "Read": rank gold + 0 award [5, 3, 1] ties share at least 1
    "Row full": rank gold award [5, 3, 1] ties full
    "Read full": rank gold + 0 award [5, 3, 1] ties full
'''


@pytest.mark.parametrize("golds", [(0, 0, 0), (2, 2, 1), (1, 3, 3), (4, 1, 0), (2, 2, 2), (0, 5, 5), (3, 0, 3)])
def test_a_ranking_of_a_counter_is_read_from_its_row_with_the_same_awards(tmp_path, golds):
    """`rank gold ...` reads the counter's row (`R_rank_row`); any other value
    is worked out as each player (`R_rank`): both give the same award."""
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(RANKED)
    game = load_game(tmp_path / "game.rules")
    source = game.program.module.source()
    assert source.count("R_rank_row(") == 2 and source.count("R_rank(st, lambda") == 2
    st = game.new_initial_state(3, 1)
    st.ctr[game.program.counters["gold"].index][:] = golds
    terms = dict(st.program.score_terms)
    for p in range(3):
        st.me = p
        assert terms["Row"](st) == terms["Read"](st)
        assert terms["Row full"](st) == terms["Read full"](st)


def test_a_ranking_that_cannot_add_its_awards_is_the_rules_mistake():
    """Awards that are texts cannot be shared: the failure is reported at
    the score line as the designer's, not as a fault of the interpreter
    (runtime/values.py marks the functions computing with rules values)."""
    rules = RANKED.replace("rank gold award [5, 3, 1] ties share", "rank gold award awards ties share", 1)
    rules = rules.replace("zone box:", "param awards = [5, 3, 1]\nzone box:", 1)
    game = load_game(text=rules, cards={"cards.yaml": CARDS}, overrides={"awards": ["x", "y"]})
    st = game.new_initial_state(2, 1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    with pytest.raises(RulesRuntimeError, match="cannot compute a number \\+ a text") as failed:
        st.result()
    assert "game.rules:12:" in str(failed.value)
