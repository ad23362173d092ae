"""The hint's plain words for the colour phase and the run phases."""

from __future__ import annotations

from scorer import Roll, advise, evaluate, get_phase
from web.hint import plain_hint


def hint(notation: str, phase: int, rolls_left: int) -> str:
    roll = Roll.from_text(notation)
    advice = advise(roll, phase, rolls_left)
    verdict = evaluate(roll, get_phase(phase))
    used = [d for g in verdict.groups for d in g.dice] if verdict.is_made() else None
    return plain_hint(advice, used)


def test_the_colour_phase_names_the_colour():
    assert hint("WR 4O 2R 1G 9O 8O 10O 7O 6B 5G", 8, 1).startswith(
        "Keep the five orange dice for 7 of all one colour, and re-roll the other 5 dice:")


def test_a_run_is_named_by_its_ends():
    assert hint("4G 1R 2R WG 7B 5G 10O 6G 8O 9B", 4, 2).startswith(
        "Keep the 4 to 10 for 1 run of 7, and re-roll the other 3 dice:")


def test_no_rolls_left_and_not_made():
    assert hint("5R 5G 7B 7G 9O 9R 1B 1R 3O 3G", 7, 0) == \
        "No re-rolls left: this roll does not make Phase 7 (2 sets of 4)."
