"""A rule's frame is made with room for all its locals by whoever makes it
(the generated call, `calls.call`, the turn loop), so the rule's first block
does not make the list longer: every frame written in the generated code
holds as many values as its rule has locals, and at every decision of a
game every frame waiting does."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.rng import Draws, seed_state

ROOT = Path(__file__).resolve().parents[1]
RULES = ["rules/catalyst.rules", "rules/solo.rules", "rules/catastropolis/catastropolis.rules",
         "tests/flow/watch.rules", "tests/flow/auction.rules", "tests/flow/heist.rules"]
FRAME = re.compile(r"nf = \[(\d+), 0, \[(.*)\]\]$", re.M)


def items(text: str) -> int:
    """The number of values in a frame's list of locals as written (no
    value written holds a comma outside brackets)."""
    depth, count = 0, 1 if text.strip() else 0
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        count += ch == "," and depth == 0
    return count


@pytest.mark.parametrize("rules", RULES)
def test_frames_written_in_the_generated_code_have_room_for_every_local(rules):
    program = load_game(ROOT / rules).program
    source = program.module.source()
    frames = FRAME.findall(source)
    assert frames or "flow" in rules  # (the flow samples call no rule that asks)
    for code, values in frames:
        assert items(values) == program.codes[int(code)].nlocals, (program.codes[int(code)].name, values)
    assert not re.search(r"^\s*L (\+=|\.extend)", source, re.M)


@pytest.mark.parametrize("rules", RULES[:4])
def test_every_frame_waiting_at_a_decision_holds_all_its_locals(rules):
    game = load_game(ROOT / rules)
    for seed in range(3):
        st = game.new_initial_state(game.program.min_players, seed)
        draws = Draws(seed_state(seed))
        while not st.is_terminal():
            for code, _, values in st.frames[1:]:
                assert len(values) == game.program.codes[code].nlocals, game.program.codes[code].name
            st.apply_action(draws.choose_id(st.legal_actions()))
