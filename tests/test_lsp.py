"""The language server, driven as an editor drives it: `catalyst lsp` in a
subprocess, JSON-RPC over stdio (tests/lsp_client.py).

Files are opened from the repository read-only, or copied to tmp_path where
a test changes them.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.language.builtins import FUNCTIONS
from interpreter.loader import load_game

from .conftest import ROOT, RULES
from .lsp_client import LspClient, LspError

pytestmark = pytest.mark.timeout(120)

CORPUS = ROOT / "tests" / "diagnostics"
UNKNOWN_COUNTER = CORPUS / "01_unknown_counter.rules"  # `gain 1 glod` at 13:35


@pytest.fixture
def client():
    with LspClient() as c:
        c.initialize(ROOT)
        yield c


@pytest.fixture
def game_copy(tmp_path):
    """A copy of the rules folder (with the schemas it reads) to change."""
    shutil.copytree(RULES, tmp_path / "rules")
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    return tmp_path


def position_of(path: Path, pattern: str, offset: int = 0) -> tuple[int, int]:
    """0-based (line, character) of the first match of `pattern`, plus `offset`."""
    for number, line in enumerate(path.read_text().splitlines()):
        match = re.search(pattern, line)
        if match:
            return number, match.start() + offset
    raise AssertionError(f"{pattern!r} not in {path}")


def span(d: dict) -> tuple:
    r = d["range"]
    return r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"]


def test_a_misspelt_counter_is_reported_with_its_place_and_hint(client):
    uri = client.open(UNKNOWN_COUNTER)
    [found] = client.diagnostics(uri, 1)
    # `catalyst check` says 01_unknown_counter.rules:13:35, under `glod`
    assert span(found) == (12, 34, 12, 38)
    assert found["message"] == "unknown counter 'glod'\nhint: did you mean 'gold'?"
    assert found["severity"] == 1


@pytest.mark.slow
def test_an_edit_that_fixes_the_error_clears_it(client):
    text = UNKNOWN_COUNTER.read_text()
    uri = client.open(UNKNOWN_COUNTER, text)
    assert client.diagnostics(uri, 1)
    version = client.change(uri, text.replace("gain 1 glod", "gain 1 gold"))
    assert client.diagnostics(uri, version) == []
    version = client.change(uri, text)  # and breaking it again brings it back
    assert [d["message"].splitlines()[0] for d in client.diagnostics(uri, version)] == ["unknown counter 'glod'"]


@pytest.mark.slow
def test_the_hint_is_offered_as_a_quick_fix(client):
    uri = client.open(UNKNOWN_COUNTER)
    [found] = client.diagnostics(uri, 1)
    [action] = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": found["range"], "context": {"diagnostics": [found]}})
    assert action["title"] == "Change 'glod' to 'gold'"
    [edit] = action["edit"]["changes"][uri]
    assert (edit["newText"], span(edit)) == ("gold", (12, 34, 12, 38))


@pytest.mark.slow
def test_hover_shows_a_builtins_documentation(client):
    path = RULES / "catalyst.rules"
    uri = client.open(path)
    client.diagnostics(uri, 1)
    line, character = position_of(path, r"\bsize\(", 1)
    hover = client.request("textDocument/hover", client.at(uri, line, character))
    assert FUNCTIONS["size"].doc in hover["contents"]["value"]
    assert hover["range"]["start"] == {"line": line, "character": character - 1}


@pytest.mark.slow
def test_hover_shows_a_parameters_value_and_a_card_fields_values(client):
    path = RULES / "catalyst.rules"
    uri = client.open(path)
    client.diagnostics(uri, 1)
    line, character = position_of(path, r"\bcoins > coin_limit", len("coins > "))
    value = client.request("textDocument/hover", client.at(uri, line, character))["contents"]["value"]
    assert "param coin_limit = 8" in value and "value: `8`" in value
    assert "the coin limit" in value  # the comment above the declaration
    line, character = position_of(path, r"c\.cost", 3)
    value = client.request("textDocument/hover", client.at(uri, line, character))["contents"]["value"]
    assert "on 60 cards" in value and "`1` ×12" in value  # 60 catalysts, costs 1 to 5, 12 of each


@pytest.mark.slow
def test_go_to_definition_in_the_base_file_from_a_variant(client):
    solo = RULES / "solo.rules"  # extends catalyst.rules
    uri = client.open(solo)
    client.diagnostics(uri, 1)
    line, character = position_of(solo, r"starting_coins\[0\]", 2)
    [location] = client.request("textDocument/definition", client.at(uri, line, character))
    assert location["uri"] == (RULES / "catalyst.rules").as_uri()
    base_line, base_character = position_of(RULES / "catalyst.rules", r"^param (starting_coins)", len("param "))
    assert span(location) == (base_line, base_character, base_line, base_character + len("starting_coins"))


def test_an_override_leads_to_the_declaration_it_replaces(client):
    variant = RULES / "variants" / "high_coin_limit.rules"
    uri = client.open(variant)
    client.diagnostics(uri, 1)
    line, character = position_of(variant, r"override param coin_limit", len("override param "))
    [location] = client.request("textDocument/definition", client.at(uri, line, character))
    assert location["uri"] == (RULES / "catalyst.rules").as_uri()
    assert location["range"]["start"]["line"] == position_of(RULES / "catalyst.rules", r"^param coin_limit")[0]


@pytest.mark.slow
def test_completion_after_gain_offers_the_counters(client):
    path = RULES / "catalyst.rules"
    text = path.read_text()
    uri = client.open(path, text)
    client.diagnostics(uri, 1)
    line, _ = position_of(path, r"^effect coin ")
    lines = text.splitlines()
    lines.insert(line + 1, "effect extra:\n    gain 1 ")  # typing a new rule: the file does not parse now
    version = client.change(uri, "\n".join(lines) + "\n")
    assert client.diagnostics(uri, version)  # the syntax error
    result = client.request("textDocument/completion", client.at(uri, line + 2, len("    gain 1 ")))
    items = {item["label"]: item for item in result["items"]}
    assert {"coins", "military", "chain_tokens"} <= set(items)
    assert items["coins"]["kind"] == 6 and items["coins"]["detail"] == "counter, per player"  # Variable
    assert "market" not in items and "gain" not in items  # zones and keywords do not fit here


@pytest.mark.slow
def test_completion_of_card_fields_and_of_statements(client):
    path = RULES / "catalyst.rules"
    text = path.read_text()
    uri = client.open(path, text)
    client.diagnostics(uri, 1)
    line, character = position_of(path, r"c\.cost", 2)
    fields = client.request("textDocument/completion", client.at(uri, line, character))
    assert {"cost", "colour", "effects"} <= {item["label"] for item in fields["items"]}
    line, _ = position_of(path, r"^turn:")
    statements = client.request("textDocument/completion", client.at(uri, line + 1, 4))
    kinds = {item["label"]: item["kind"] for item in statements["items"]}
    assert kinds["shuffle"] == 14 and kinds["coin"] == 23 and kinds["recruit_one"] == 2  # keyword, event, method


@pytest.mark.slow
def test_rename_a_parameter_across_a_game_and_its_variant(game_copy):
    base = game_copy / "rules" / "catalyst.rules"
    variant = game_copy / "rules" / "variants" / "high_coin_limit.rules"
    with LspClient() as client:
        client.initialize(game_copy)
        uri = client.open(base)
        client.diagnostics(uri, 1)
        line, character = position_of(base, r"^param coin_limit", len("param "))
        prepared = client.request("textDocument/prepareRename", client.at(uri, line, character))
        assert prepared["placeholder"] == "coin_limit"
        edit = client.request("textDocument/rename", {**client.at(uri, line, character), "newName": "purse_limit"})
    changes = edit["changes"]
    assert set(changes) == {base.as_uri(), variant.as_uri()}
    assert len(changes[base.as_uri()]) == 3 and len(changes[variant.as_uri()]) == 1
    for uri, edits in changes.items():
        apply_edits(Path(uri.removeprefix("file://")), edits)
    assert "coin_limit" not in base.read_text() + variant.read_text()
    assert load_game(variant).model.params["purse_limit"]  # both files still check
    assert load_game(base).model.params["purse_limit"]


@pytest.mark.slow
def test_rename_refuses_a_name_already_taken(game_copy):
    base = game_copy / "rules" / "catalyst.rules"
    with LspClient() as client:
        client.initialize(game_copy)
        uri = client.open(base)
        client.diagnostics(uri, 1)
        line, character = position_of(base, r"^param coin_limit", len("param "))
        with pytest.raises(LspError, match="'military' is already a counter"):
            client.request("textDocument/rename", {**client.at(uri, line, character), "newName": "military"})


def apply_edits(path: Path, edits: list):
    lines = path.read_text().splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        start, end = edit["range"]["start"], edit["range"]["end"]
        assert start["line"] == end["line"]
        text = lines[start["line"]]
        lines[start["line"]] = text[:start["character"]] + edit["newText"] + text[end["character"]:]
    path.write_text("".join(lines))


@pytest.mark.slow
def test_references_reach_the_card_data(client):
    path = RULES / "catalyst.rules"
    uri = client.open(path)
    client.diagnostics(uri, 1)
    line, character = position_of(path, r"^effect (build)", len("effect "))
    found = client.request("textDocument/references", {**client.at(uri, line, character),
                                                        "context": {"includeDeclaration": True}})
    in_cards = [r for r in found if r["uri"] == (RULES / "cards.yaml").as_uri()]
    cards_text = (RULES / "cards.yaml").read_text().splitlines()
    assert len(in_cards) >= 10  # build is on at least 10 cards
    for r in in_cards:
        start, end = r["range"]["start"], r["range"]["end"]
        assert cards_text[start["line"]][start["character"]:end["character"]] == "build"


@pytest.mark.slow
def test_card_data_errors_are_placed_on_the_yaml_line(tmp_path):
    shutil.copy(CORPUS / "valid.rules", tmp_path / "game.rules")
    cards = (CORPUS / "cards.yaml").read_text()
    match = re.search(r'effects: "(\w+)', cards)
    broken = cards[:match.start(1)] + "nosuch" + cards[match.end(1):]
    (tmp_path / "cards.yaml").write_text(broken)
    line = broken[:match.start(1)].count("\n")
    with LspClient() as client:
        client.initialize(tmp_path)
        uri = client.open(tmp_path / "game.rules")
        cards_uri = (tmp_path / "cards.yaml").as_uri()
        [in_cards] = client.diagnostics(cards_uri)
        assert in_cards["range"]["start"]["line"] == line
        assert "unknown effect 'nosuch'" in in_cards["message"]
        [summary] = client.diagnostics(uri, 1)  # and the rules file says so on its `cards` line
        assert summary["message"].startswith(f"cards.yaml:{line + 1}:")
        assert (tmp_path / "game.rules").read_text().splitlines()[summary["range"]["start"]["line"]].startswith("cards ")
        opened = client.open(tmp_path / "cards.yaml", broken)  # mending the open card file clears both
        version = client.change(opened, cards)
        assert client.diagnostics(cards_uri, version) == []
        assert client.diagnostics(uri, match=lambda found: not found) == []


@pytest.mark.slow
def test_an_error_in_the_base_file_is_shown_in_the_variant(client):
    solo = RULES / "solo.rules"
    base = RULES / "catalyst.rules"
    solo_uri = client.open(solo)
    assert client.diagnostics(solo_uri, 1) == []
    base_text = base.read_text()
    base_uri = client.open(base, base_text)
    client.diagnostics(base_uri, 1)
    version = client.change(base_uri, base_text.replace("gain 1 military", "gain 1 militray", 1))
    assert client.diagnostics(base_uri, version)
    [summary] = client.diagnostics(solo_uri, match=bool)
    extends_line, _ = position_of(solo, r'^extends "catalyst.rules"')
    assert summary["range"]["start"]["line"] == extends_line
    assert summary["message"].startswith("catalyst.rules:") and "unknown counter 'militray'" in summary["message"]
    [related] = summary["relatedInformation"]
    assert related["location"]["uri"] == base_uri


@pytest.mark.slow
def test_document_symbols_outline_the_file(client):
    path = RULES / "catalyst.rules"
    uri = client.open(path)
    client.diagnostics(uri, 1)
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = [s["name"] for s in symbols]
    assert names[:3] == ['game "Catalyst"', "players 2..4", 'cards "cards.yaml"']
    assert {"coin_limit", "coins", "market", "price", "recruit_one", "turn", "score"} <= set(names)
    score = next(s for s in symbols if s["name"] == "score")
    assert '"Coins"' in [child["name"] for child in score["children"]]


@pytest.mark.parametrize("before, place", [
    ("    gain 1 ", "counter"), ("    pay price(c) ", "counter"), ('effect x "y": lose 2 ', "counter"),
    ("    set ", "counter"), ("    gain 1 + ", "expression"), ("    gain 2 coins of ", "expression"),
    ("    move c to ", "zone"), ("    deal 1 from ", "zone"), ("when ", "zone"), ("    x = c.", "field"),
    ("define f(c) = c is ", "kind"), ("", "declaration"), ("override ", "declaration"), ("    ", "statement"),
    ("    if coins > ", "expression"), ("    # gain 1 ", "nothing"), ('    may "take ', "nothing"),
    ('    choose c in row as "take {', "expression"),
    ('reaction alarm(p) "call the guard" to ', "event"), ("    announce ", "event"),
    ('reaction alarm(p) "go to ', "nothing"),
], ids=lambda value: repr(value))
def test_completion_reads_the_place_from_the_line(before, place):
    from interpreter.lsp.completion import place_of

    assert place_of(before) == place


def test_completion_keywords_come_from_the_grammar():
    from interpreter.language.reference import grammar_keywords
    from interpreter.lsp.completion import keywords

    words = keywords()
    assert words["all"] <= grammar_keywords()
    assert {"param", "counter", "zone", "define", "effect", "procedure", "action", "override"} <= words["declaration"]
    assert {"gain", "pay", "move", "choose", "if", "for", "repeat"} <= words["statement"]
    assert {"sum", "count", "not", "and", "true"} <= words["expression"]


CASES = sorted(p.stem for p in CORPUS.glob("[0-9][0-9]_*.rules"))


@pytest.fixture(scope="module")
def workspace():
    from interpreter.lsp.workspace import Workspace

    return Workspace()


@pytest.mark.parametrize("name", CASES)
def test_diagnostics_say_what_check_says(workspace, name):
    """Every problem `catalyst check` prints for a broken file of the corpus
    is shown at the same place with the same message, and no other error."""
    expected = {line for line in (CORPUS / f"{name}.expected").read_text().splitlines()
                if re.match(r"^\S+:\d+:\d+: (error|warning): ", line)}
    analysis = workspace.analyse(str(CORPUS / f"{name}.rules"))
    shown = set()
    for path, placed in workspace.placed(analysis).items():
        for p in placed:
            if not p.related:  # a summary of another file's problem repeats one shown there
                shown.add((p.severity, f"{Path(path).relative_to(CORPUS)}:{p.line}:{p.column}: {p.severity}: {p.message}"))
    assert expected <= {text for _, text in shown}
    assert {text for severity, text in shown if severity == "error"} <= expected


def test_an_edit_that_moves_every_declaration_moves_every_name(workspace):
    """After a line is added on top, each name is found one line lower (the
    parser reuses no declaration then, but the text read must be the new one)."""
    from interpreter.lsp.index import normal_path

    path = normal_path(str(RULES / "catalyst.rules"))
    text = (RULES / "catalyst.rules").read_text()
    workspace.open(path, text.replace("param coin_limit = 8", "param coin_limit = 9"), 1)
    before = workspace.analyse(path).index.occurrences
    workspace.change(path, "# a new first line\n" + text, 2)
    after = workspace.analyse(path).index.occurrences
    workspace.close(path)
    moved = [(o.path, o.line + (o.path == path), o.column, o.symbol) for o in before]
    assert sorted(moved) == sorted((o.path, o.line, o.column, o.symbol) for o in after)


def test_names_are_found_in_declarations_parsed_at_different_edits(workspace):
    from interpreter.lsp.index import COUNTER, normal_path

    path = normal_path(str(RULES / "catalyst.rules"))
    text = (RULES / "catalyst.rules").read_text()
    workspace.open(path, text, 1)
    workspace.analyse(path)
    first = text.replace("param coin_limit = 8", "param coin_limit = 9")
    workspace.change(path, first, 2)
    workspace.analyse(path)
    workspace.change(path, first.replace("if coins > coin_limit:", "if chain_tokens > coin_limit:"), 3)
    index = workspace.analyse(path).index
    workspace.close(path)
    line = text[:text.index("if coins > coin_limit:")].count("\n") + 1
    assert [o.line for o in index.of((COUNTER, "chain_tokens")) if o.line == line] == [line]


def test_phases_reactions_and_events_are_indexed(workspace):
    """Names used in phases and reactions are found (hover, references and
    rename reach them); an event links its `announce`s to the reactions
    answering it, and hovering one the engine announces says when it is."""
    from interpreter.lsp.hover import hover_text
    from interpreter.lsp.index import COUNTER, EVENT, normal_path

    heist = normal_path(str(ROOT / "tests" / "flow" / "heist.rules"))
    index = workspace.analyse(heist).index
    lines = (ROOT / "tests" / "flow" / "heist.rules").read_text().splitlines()
    guards = {o.line for o in index.of((COUNTER, "guards"))}
    assert {n for n, text in enumerate(lines, 1) if "pay 1 guards" in text or "when guards > 0" in text} <= guards
    robbery = index.of((EVENT, "robbery"))
    assert [lines[o.line - 1][o.column - 1:o.end_column - 1] for o in robbery] == ["robbery", "robbery"]
    text = hover_text(workspace.analyse(heist), robbery[0])
    announced = next(n for n, line in enumerate(lines, 1) if "announce robbery" in line)
    assert f"announced at line {announced}" in text and "answered by `alarm`" in text

    harbour = normal_path(str(ROOT / "tests" / "flow" / "harbour.rules"))
    analysis = workspace.analyse(harbour)
    lines = (ROOT / "tests" / "flow" / "harbour.rules").read_text().splitlines()
    in_phase = next(n for n, line in enumerate(lines, 1) if line.strip() == "gain 1 gold")
    assert in_phase in {o.line for o in analysis.index.of((COUNTER, "gold"))}
    start = analysis.index.of((EVENT, "phase_start"))[0]
    assert "event the engine announces" in hover_text(analysis, start)


def test_the_quick_fix_replaces_the_misspelt_name_not_another_quoted_one():
    from interpreter.lsp.convert import _misspelt_name

    assert _misspelt_name("reaction 'whistle' answers 'turn_ends', which no rule announces", "turn_end") == "turn_ends"
    assert _misspelt_name("unknown counter 'cions'", "coins") == "cions"


def test_references_to_a_counter_sharing_its_name_with_an_effect_are_the_counters(client):
    """`counter military` and `effect military`: a plain `military` in an
    expression reads the counter (as the game compiles it), so the editor
    finds it among the counter's uses, not the effect's."""
    path = RULES / "catalyst.rules"
    uri = client.open(path)
    client.diagnostics(uri, 1)
    line, character = position_of(path, r"^counter (military)", len("counter "))
    found = client.request("textDocument/references", {**client.at(uri, line, character),
                                                        "context": {"includeDeclaration": True}})
    text = path.read_text().splitlines()
    places = sorted((r["range"]["start"]["line"] + 1, text[r["range"]["start"]["line"]][
        r["range"]["start"]["character"]:r["range"]["end"]["character"]]) for r in found if r["uri"] == uri)
    uses = [number for number, line in enumerate(text, 1)
            if re.search(r"(^counter |gain 1 |: |rank )military\b", line.partition("#")[0])]
    assert len(uses) == 4 and places == [(number, "military") for number in uses]


def test_a_misspelt_override_gets_the_quick_fix_on_its_name(client, tmp_path):
    """The README's example: `override param coin_limt` is placed on the name, which the fix replaces."""
    variant = tmp_path / "rich.rules"
    variant.write_text(f'extends "{RULES / "catalyst.rules"}"\noverride param coin_limt = 10\n')
    uri = client.open(variant)
    [found] = client.diagnostics(uri, 1)
    assert found["message"] == "nothing to override: the base rules have no parameter 'coin_limt'\n" \
                               "hint: did you mean 'coin_limit'?"
    assert span(found) == (1, 15, 1, 24)
    [action] = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": found["range"], "context": {"diagnostics": [found]}})
    assert action["title"] == "Change 'coin_limt' to 'coin_limit'"
    [edit] = action["edit"]["changes"][uri]
    assert (edit["newText"], span(edit)) == ("coin_limit", (1, 15, 1, 24))


def test_the_editor_finds_the_zone_teams_are_read_from_and_outlines_the_objectives(client):
    """`teams by top(role).side`: the editor lists the use among the zone's
    references, and the outline names `teams` and `cooperative score`."""
    path = ROOT / "tests" / "fixtures" / "hidden_teams.rules"
    uri = client.open(path)
    client.diagnostics(uri, 1)
    line, character = position_of(path, r"^zone (role)", len("zone "))
    found = client.request("textDocument/references", {**client.at(uri, line, character),
                                                        "context": {"includeDeclaration": True}})
    lines = {r["range"]["start"]["line"] + 1 for r in found if r["uri"] == uri}
    teams_line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.startswith("teams by"))
    assert teams_line in lines
    names = [s["name"] for s in client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})]
    assert "teams" in names
    coop = ROOT / "tests" / "fixtures" / "coop_points.rules"
    uri = client.open(coop)
    client.diagnostics(uri, 1)
    names = [s["name"] for s in client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})]
    assert "cooperative score" in names


def test_a_marker_s_names_are_uses_and_it_is_in_the_outline(client):
    """`marker hero ... on space_of(p)`: the definition it reads is found
    among the definition's uses, and the outline lists the marker."""
    path = RULES / "catastropolis" / "catastropolis.rules"
    uri = client.open(path)
    client.diagnostics(uri, 1)
    line, character = position_of(path, r"^define (space_of)", len("define "))
    found = client.request("textDocument/references", {**client.at(uri, line, character),
                                                        "context": {"includeDeclaration": False}})
    marker_line = next(number for number, text in enumerate(path.read_text().splitlines()) if text.startswith("marker hero"))
    assert marker_line in [r["range"]["start"]["line"] for r in found if r["uri"] == uri]
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert {"marker hero", "marker situation"} <= {s["name"] for s in symbols}
