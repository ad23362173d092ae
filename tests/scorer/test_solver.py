"""The best-score solver: rulebook examples, traps, golden table, maxima, brute force."""

from __future__ import annotations

import ast
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_budget import examples
from scorer_brute_force import best_score, fewest_wilds, is_valid_group, is_valid_stand_ins

import scorer
from scorer import (
    PHASES,
    WILD,
    Die,
    GroupKind,
    GroupResult,
    PhaseResult,
    Roll,
    evaluate,
    evaluate_all,
    get_phase,
    parse_roll,
)
from scorer.dice import COLOUR_LETTERS, PHYSICAL_DICE

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parents[1] / "data" / "scorer_cases.txt"
PHASE_MAXIMA = (60, 57, 59, 49, 52, 54, 60, 56, 60, 62)


def groups_text(result: PhaseResult) -> list[str]:
    return [str(group) for group in result.groups]


# --- rulebook examples and traps --------------------------------------------------------


def test_rulebook_phase_1_example_scores_34():
    result = evaluate(parse_roll("8R 8B 8G 10O 5G 7R WR WB 1G 3R"), 1)
    assert result.is_made() and result.made
    assert result.score == 34
    assert groups_text(result) == ["set of 3: 10O WR(=10) WB(=10)", "set of 3: 8R 8G 8B"]
    assert [str(die) for die in result.unused] == ["5G", "7R", "1G", "3R"]
    assert [group.score for group in result.groups] == [10, 24]


def test_run_example_phase_4_takes_the_highest_run_of_seven():
    result = evaluate(parse_roll("4R 5G 6B 7O 8R 9G 10B 1G 2R 3O"), 4)
    assert result.score == 4 + 5 + 6 + 7 + 8 + 9 + 10 == 49
    (run,) = result.groups
    assert run.stands_for == (4, 5, 6, 7, 8, 9, 10)
    assert [str(die) for die in result.unused] == ["1G", "2R", "3O"]


def test_run_example_wild_fills_the_gap():
    result = evaluate(parse_roll("3R 4G 6B 7O 8R WG 5O"), 5)  # needs 8 dice: not made
    assert not result.made
    result = evaluate(parse_roll("3R 4G 6B 7O 8R 9G WG 2O"), 5)  # 2..9 with W = 5
    assert result.made and result.score == 2 + 3 + 4 + 6 + 7 + 8 + 9
    assert str(result.groups[0]) == "run of 8: 2O 3R 4G WG(=5) 6B 7O 8R 9G"


def test_set_example_phase_9():
    result = evaluate(parse_roll("9R 9G 9B 9O WR 5G 5B 1G 2B 3R"), 9)
    assert result.score == 36 + 10
    assert groups_text(result) == ["set of 5: 9R 9O 9G 9B WR(=9)", "set of 2: 5G 5B"]


def test_phase_10_trap_natural_fours_beat_wilds():
    result = evaluate(parse_roll("10R 10G 10B 10O 10G 10B 4R 4G 4B WR"), 10)
    assert result.score == 62
    assert groups_text(result) == ["set of 5: 10R 10O 10G 10G 10B", "set of 3: 4R 4G 4B"]
    # With only two fours, 9,W,W (9) beats 4,4,W (8).
    result = evaluate(parse_roll("10R 10G 10B 10O 10G 9B 4R 4G WR WB"), 10)
    assert result.score == 59
    assert groups_text(result)[1] == "set of 3: 9B WR(=9) WB(=9)"


def test_phase_2_needs_a_wild_in_the_run():
    result = evaluate(parse_roll("10R 10G 10B 10O 8R 9G WR 1G 2R 3O"), 2)
    assert result.score == 57
    assert groups_text(result) == ["set of 3: 10R 10O 10G", "run of 4: WR(=7) 8R 9G 10B"]


def test_two_sets_may_be_the_same_number():
    roll = parse_roll("9R 9G 9B 9O 9G 9B WR WG 1G 2R")
    assert evaluate(roll, 1).score == 54
    result = evaluate(roll, 7)
    assert result.score == 54
    assert groups_text(result) == ["set of 4: 9R 9O 9G 9G", "set of 4: 9B 9B WR(=9) WG(=9)"]


def test_runs_do_not_wrap_past_ten():
    roll = parse_roll("5R 5G 5B 9O 10G 7B 1G 2R 1O 2B")  # 9,10,1,2 is no run
    assert not evaluate(roll, 2).made
    assert best_score(roll.dice, get_phase(2)) is None


def test_groups_use_exactly_their_size():
    # Four 10s: phase 1 takes three; the fourth is unused and scores nothing.
    result = evaluate(parse_roll("10R 10G 10B 10O 9G 9B WR 2R 3O 4B"), 1)
    assert result.score == 30 + 18
    assert Die(10, "B") in result.unused
    assert all(len(group.dice) == 3 for group in result.groups)
    # Six 10s are no "set of 5 + set of 2" scoring 60 plus extras: exactly 7 dice.
    result = evaluate(parse_roll("10R 10G 10B 10O 10G 10B 4R 4G 4B WR"), 9)
    assert result.score == 60 + 0 and len(result.unused) == 3


def test_colour_phase_wild_counts_only_in_its_own_colour():
    assert not evaluate(parse_roll("5R 6R 7R 8R 9R 10R WB 1G 2O 3B"), 8).made
    result = evaluate(parse_roll("5R 6R 7R 8R 9R 10R WR 1G 2O 3B"), 8)
    assert result.made and result.score == 45
    assert result.groups[0].stands_for == (10, 9, 8, 7, 6, 5, None)


def test_colour_phase_takes_the_seven_best_of_a_colour():
    result = evaluate(parse_roll("5G 6G 7G 8G 9G 10G 1G WG 2G 3R"), 8)
    assert result.score == 5 + 6 + 7 + 8 + 9 + 10 + 2
    assert sorted(str(die) for die in result.unused) == ["1G", "3R", "WG"]


def test_partial_rolls():
    assert not evaluate(parse_roll("8R 8B 8G"), 1).made
    result = evaluate(parse_roll("8R 8B 8G WR WB 10O"), 1)
    assert result.made and result.score == 34 and result.unused == ()
    empty = evaluate(Roll(()), 3)
    assert not empty.made and empty.unused == ()


def test_not_made_result_shape():
    roll = parse_roll("5R 6G 7B 8O 9R 10G 1B 2G 3O 4R")
    result = evaluate(roll, 7)
    assert result == PhaseResult(get_phase(7), roll, False, 0, (), roll.dice)
    assert not result.is_made()


def test_all_wild_groups_are_allowed():
    # Four Wilds form a run of 4 (and a set of 3) by themselves, scoring 0.
    result = evaluate(parse_roll("5B 5O 5G WR WB WG WR"), 2)
    assert result.made and result.score == 15
    assert groups_text(result)[1] == "run of 4: WR(=7) WR(=8) WG(=9) WB(=10)"


def test_equal_scores_prefer_fewer_wilds_then_higher_groups():
    # 9,9,9 + 4,4,W and 9,9,9 + 8,W,W both score 35: the one with fewer Wilds wins.
    result = evaluate(parse_roll("9R 9B 9G 8R 4G 4B WR WO"), 1)
    assert result.score == 35
    assert groups_text(result) == ["set of 3: 9R 9G 9B", "set of 3: 4G 4B WR(=4)"]
    # A run of 4 from 5,6,7 + W: W=4 or W=8 score the same; the higher run wins.
    result = evaluate(parse_roll("9R 9G 9B 5O 6R 7G WR"), 2)
    assert groups_text(result)[1] == "run of 4: 5O 6R 7G WR(=8)"


def test_evaluate_all_is_evaluate_per_phase():
    roll = parse_roll("8R 8B 8G 10O 5G 7R WR WB 1G 3R")
    assert evaluate_all(roll) == tuple(evaluate(roll, phase) for phase in range(1, 11))
    assert evaluate(roll, get_phase(2)) == evaluate(roll, 2)


def test_bad_arguments():
    with pytest.raises(ValueError, match="not a phase"):
        evaluate(parse_roll("8R"), 11)
    with pytest.raises(TypeError, match="needs a Roll"):
        evaluate("8R 8B 8G", 1)  # type: ignore[arg-type]


def test_to_dict_is_json_safe():
    result = evaluate(parse_roll("8R 8B 8G 10O 5G 7R WR WB 1G 3R"), 1)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["made"] is True and data["score"] == 34 and data["phase"] == 1
    assert data["groups"][0] == {
        "kind": "set",
        "size": 3,
        "label": "set of 3",
        "dice": ["10O", "WR", "WB"],
        "stands_for": [10, 10, 10],
        "text": "10O WR(=10) WB(=10)",
        "score": 10,
    }
    assert data["unused"] == ["5G", "7R", "1G", "3R"]
    colour = evaluate(parse_roll("5R 6R 7R 8R 9R 10R WR"), 8).to_dict()
    assert json.loads(json.dumps(colour))["groups"][0]["stands_for"][-1] is None


def test_package_exports():
    for name in ("evaluate", "evaluate_all", "PhaseResult", "GroupResult"):
        assert name in scorer.__all__ and hasattr(scorer, name)
    assert GroupResult is scorer.solver.GroupResult


# --- golden table -----------------------------------------------------------------------


def golden_cases() -> list[tuple[str, int, bool, int]]:
    cases = []
    for line in CASES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        roll, phase, verdict, score = (field.strip() for field in line.split("|"))
        assert verdict in ("made", "missed"), line
        cases.append((roll, int(phase), verdict == "made", int(score)))
    return cases


def test_golden_table_covers_every_phase_both_ways():
    cases = golden_cases()
    assert len(cases) >= 400
    for phase in range(1, 11):
        verdicts = {made for _, number, made, _ in cases if number == phase}
        assert verdicts == {True, False}, phase


def test_golden_table():
    wrong = []
    for text, phase, made, score in golden_cases():
        result = evaluate(parse_roll(text), phase)
        if (result.made, result.score) != (made, score):
            wrong.append(f"{text} | {phase}: got {result.made} {result.score}, want {made} {score}")
    assert not wrong, "\n".join(wrong)


# --- phase maxima over every roll the real dice can show --------------------------------


def value_multisets() -> set[tuple[int, ...]]:
    """Every multiset of values that one face of each physical die can show."""
    shown: set[tuple[int, ...]] = {()}
    for die in PHYSICAL_DICE:
        values = {face.value for face in die.faces}
        shown = {tuple(sorted(done + (value,))) for done in shown for value in values}
    return shown


def best_colour_rolls() -> list[Roll]:
    """Per colour: each die shows its highest face of that colour (any face if it has none).

    A colour group's score depends only on the dice of its colour, so the best
    phase-8 roll is one of these.
    """
    rolls = []
    for letter in COLOUR_LETTERS:
        faces = []
        for die in PHYSICAL_DICE:
            of_colour = [face for face in die.faces if face.colour == letter]
            faces.append(max(of_colour, key=lambda face: face.value) if of_colour else die.faces[0])
        rolls.append(Roll(tuple(faces)))
    return rolls


@pytest.mark.slow
def test_phase_maxima_over_all_rolls_of_the_real_dice():
    multisets = value_multisets()
    assert len(multisets) == 462 * 70  # six high dice over 5..10, four low over 1..4/W
    best = dict.fromkeys(range(1, 11), 0)
    for values in multisets:
        roll = Roll(tuple(Die(value, "R") for value in values))
        for result in evaluate_all(roll):
            if result.phase.number != 8 and result.score > best[result.phase.number]:
                best[result.phase.number] = result.score
    for roll in best_colour_rolls():
        assert roll.is_explained_by_inventory()
        best[8] = max(best[8], evaluate(roll, 8).score)
    assert tuple(best.values()) == PHASE_MAXIMA
    assert sum(PHASE_MAXIMA) == 569 and sum(PHASE_MAXIMA) + 40 + 40 == 649


# --- property test against the brute force ----------------------------------------------

COLOURS = st.sampled_from(COLOUR_LETTERS)


@st.composite
def rolls(draw: st.DrawFn) -> Roll:
    """Valid rolls (at most six high and four low dice), biased towards made phases."""
    style = draw(st.sampled_from(("physical", "narrow", "free", "partial")))
    if style == "physical":  # one face of each real die
        faces = [draw(st.sampled_from(die.faces)) for die in PHYSICAL_DICE]
        return Roll(tuple(draw(st.permutations(faces))))
    high_count, low_count = (6, 4)
    if style == "partial":
        high_count = draw(st.integers(0, 6))
        low_count = draw(st.integers(0, 4))
    high_values = st.integers(5, 10)
    if style == "narrow":  # few distinct values: many sets and runs
        low = draw(st.integers(5, 8))
        high_values = st.integers(low, low + 2)
    low_values = st.sampled_from((1, 2, 3, 4, WILD, WILD))
    high = [Die(draw(high_values), draw(COLOURS)) for _ in range(high_count)]
    low_dice = [Die(draw(low_values), draw(COLOURS)) for _ in range(low_count)]
    return Roll(tuple(draw(st.permutations(high + low_dice))))


def check_grouping(result: PhaseResult) -> None:
    """The returned grouping is itself a valid way to make the phase, scored right."""
    assert len(result.groups) == len(result.phase.groups)
    left = Counter(result.roll.dice)
    for group, spec in zip(result.groups, result.phase.groups, strict=True):
        assert group.spec == spec
        assert is_valid_group(spec, group.dice)
        assert is_valid_stand_ins(spec, group.dice, group.stands_for)
        left.subtract(group.dice)
    assert all(count >= 0 for count in left.values()), "a die was used twice or invented"
    assert Counter(result.unused) == +left
    assert result.score == sum(die.value for group in result.groups for die in group.dice)


@pytest.mark.slow
@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolls())
def test_solver_matches_brute_force(roll):
    for result in evaluate_all(roll):
        expected = best_score(roll.dice, result.phase)
        assert result.made == (expected is not None), (str(roll), result.phase.number)
        if expected is None:
            assert result.score == 0 and result.groups == () and result.unused == roll.dice
            continue
        assert result.score == expected, (str(roll), result.phase.number)
        check_grouping(result)
        used = sum(die.is_wild() for group in result.groups for die in group.dice)
        assert used == fewest_wilds(roll.dice, result.phase), (str(roll), result.phase.number)


@settings(max_examples=examples(300), deadline=None)
@given(rolls(), st.sampled_from(PHASES))
def test_evaluate_is_deterministic_in_die_order(roll, phase):
    """The verdict and grouping depend on the dice, not the order they were read in."""
    first = evaluate(roll, phase)
    again = evaluate(Roll(tuple(reversed(roll.dice))), phase)
    assert (again.made, again.score, again.groups) == (first.made, first.score, first.groups)


# --- layering ---------------------------------------------------------------------------


def test_scorer_imports_only_the_standard_library():
    for path in sorted((ROOT / "scorer").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "scorer", f"{path.name}: {name}"


def test_colour_groups_stand_for_no_number_only_for_wilds():
    (group,) = evaluate(parse_roll("5G 6G 7G 8G 9G WG WG"), 8).groups
    assert group.spec.kind is GroupKind.COLOUR
    assert group.stands_for == (9, 8, 7, 6, 5, None, None)
    assert str(group) == "7 of one colour: 9G 8G 7G 6G 5G WG WG"
