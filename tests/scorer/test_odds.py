"""The odds advisor against brute force, enumeration, simulation and the solver.

Full table checks use phases 1, 4 and 7 (about a second each to build); the
other phases get light checks, plus one test that builds every table.
"""

from __future__ import annotations

import collections
import itertools
import math
import random
import statistics

import pytest

from scorer import Roll, advise, turn_odds
from scorer.dice import HIGH_VALUES, PHYSICAL_DICE, WILD
from scorer.odds import Advice, InvalidRollsLeftError, MadeNow
from scorer.odds_cache import odds_table
from scorer.odds_colour import (
    InvalidPlacementError,
    at_least,
    best_target,
    die_models,
    made_score,
    placements,
    target_value,
)
from scorer.odds_tables import TOLERANCE, counts_of, sides
from scorer.phases import PHASES, GroupKind, get_phase
from scorer.solver import best_score, evaluate

SET_RUN_PHASES = [p.number for p in PHASES if not p.is_colour_phase()]
FULL_PHASES = [1, 4, 7]
HIGH_FACES = HIGH_VALUES
LOW_FACES = (1, 2, 3, 4, WILD, WILD)


def random_roll(rng: random.Random) -> Roll:
    """One face of each physical die, as the table shows them."""
    return Roll(tuple(rng.choice(die.faces) for die in PHYSICAL_DICE))


def value_score(values: list[int], phase: int) -> int | None:
    """best_score of bare values (0 = Wild)."""
    counts = [0] * 11
    for value in values:
        if value:
            counts[value] += 1
    return best_score(counts, values.count(WILD), get_phase(phase))


# --- the solver's best score over counts ---------------------------------------------


def brute_force_score(values: list[int], phase: int) -> int | None:
    """Best score by trying every choice of dice for every group (independent of the solver)."""

    def valid(group: tuple[int, ...], kind: GroupKind) -> bool:
        naturals = [v for v in group if v]
        if kind is GroupKind.SET:
            return len(set(naturals)) <= 1
        return len(set(naturals)) == len(naturals) and (
            not naturals or max(naturals) - min(naturals) < len(group)
        )

    def search(left: tuple[int, ...], specs) -> int | None:
        if not specs:
            return 0
        best = None
        for chosen in itertools.combinations(range(len(left)), specs[0].size):
            group = tuple(left[i] for i in chosen)
            if valid(group, specs[0].kind):
                rest = search(tuple(v for i, v in enumerate(left) if i not in chosen), specs[1:])
                if rest is not None and (best is None or sum(group) + rest > best):
                    best = sum(group) + rest
        return best

    return search(tuple(values), get_phase(phase).groups)


@pytest.mark.parametrize("phase", SET_RUN_PHASES)
def test_best_score_over_counts_matches_brute_force_on_random_rolls(phase):
    rng = random.Random(phase)
    for _ in range(40):
        values = [die.value for die in random_roll(rng)]
        assert value_score(values, phase) == brute_force_score(values, phase), values


def test_best_score_over_counts_is_for_set_and_run_phases_only():
    with pytest.raises(ValueError, match="only set and run phases"):
        best_score([0] * 11, 7, get_phase(8))
    with pytest.raises(ValueError, match="each number 1-10"):
        best_score([0] * 10, 0, get_phase(1))


@pytest.mark.slow
def test_rulebook_example_and_design_maxima():
    assert value_score([8, 8, 8, 10, WILD, WILD, 5, 7, 1, 3], 1) == 34
    high, low = sides()
    best = dict.fromkeys(SET_RUN_PHASES, 0)
    for hk in high.fulls:
        for lk in low.fulls:
            counts, wilds = counts_of(high.keeps[hk], low.keeps[lk])
            for phase in SET_RUN_PHASES:
                best[phase] = max(best[phase], best_score(counts, wilds, PHASES[phase - 1]) or 0)
    assert best == {1: 60, 2: 57, 3: 59, 4: 49, 5: 52, 6: 54, 7: 60, 9: 60, 10: 62}


@pytest.mark.parametrize("phase", range(1, 11))
def test_made_now_and_rolls_left_zero_agree_with_the_solver(phase):
    rng = random.Random(100 + phase)
    for _ in range(300):
        roll = random_roll(rng)
        verdict = evaluate(roll, phase)
        advice = advise(roll, phase, 0)
        assert advice.made_now == MadeNow(verdict.made, verdict.score), roll
        assert advice.probability == (1.0 if verdict.made else 0.0)
        assert advice.expected_score == verdict.score
        assert advice.keep == roll.dice and advice.reroll == ()


# --- the tables against explicit enumeration ------------------------------------------


def explicit_keep_value(kept: list[int], rerolled: list[int], phase: int) -> tuple[float, float]:
    """(chance, expected score) of one last re-roll, enumerating every face of every die."""
    faces = [HIGH_FACES if v in HIGH_VALUES else LOW_FACES for v in rerolled]
    chance = score = 0.0
    weight = 1 / math.prod(len(f) for f in faces)
    for outcome in itertools.product(*faces):
        made = value_score(kept + list(outcome), phase)
        if made is not None:
            chance += weight
            score += weight * made
    return chance, score


def split(values: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    high = tuple(values.count(v) for v in HIGH_VALUES)
    low = tuple(values.count(v) for v in (1, 2, 3, 4, WILD))
    return high, low


@pytest.mark.parametrize("phase", FULL_PHASES)
def test_one_roll_left_table_equals_enumeration_of_every_outcome(phase):
    rng = random.Random(phase)
    table = odds_table(get_phase(phase))
    for _ in range(60):
        values = [die.value for die in random_roll(rng)]
        rerolled_at = rng.sample(range(10), rng.randint(1, 3))
        kept = [v for i, v in enumerate(values) if i not in rerolled_at]
        rerolled = [values[i] for i in rerolled_at]
        expected = explicit_keep_value(kept, rerolled, phase)
        assert table.keep_value(1, *split(kept)) == pytest.approx(expected, abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("phase", FULL_PHASES)
def test_two_rolls_left_table_equals_enumeration_then_best_keep(phase):
    """Level two: every outcome of the re-roll, then the best of all sub-multisets (or stop)."""
    rng = random.Random(10 + phase)
    table = odds_table(get_phase(phase))
    for _ in range(12):
        values = [die.value for die in random_roll(rng)]
        rerolled_at = rng.sample(range(10), 2)
        kept = [v for i, v in enumerate(values) if i not in rerolled_at]
        faces = [HIGH_FACES if values[i] in HIGH_VALUES else LOW_FACES for i in rerolled_at]
        chance = score = 0.0
        for outcome in itertools.product(*faces):
            showing = kept + list(outcome)
            made = value_score(showing, phase)
            best = (1.0 if made is not None else 0.0, float(made or 0))
            for mask in itertools.product((0, 1), repeat=10):
                sub = [v for v, m in zip(showing, mask, strict=True) if m]
                if len(sub) < 10:
                    p, e = table.keep_value(1, *split(sub))
                    if p > best[0] + TOLERANCE or (p > best[0] - TOLERANCE and e > best[1]):
                        best = (p, e)
            chance += best[0] / 36
            score += best[1] / 36
        assert table.keep_value(2, *split(kept)) == pytest.approx((chance, score), abs=1e-12)


@pytest.mark.parametrize("phase", FULL_PHASES)
def test_advice_is_the_best_keep_and_beats_keeping_all_or_nothing(phase):
    rng = random.Random(20 + phase)
    table = odds_table(get_phase(phase))
    for trial in range(12):
        roll = random_roll(rng)
        values = [die.value for die in roll]
        for rolls_left in (1, 2):
            advice = advise(roll, phase, rolls_left)
            kept = [die.value for die in advice.keep]
            assert sorted(kept + [d.value for d in advice.reroll]) == sorted(values)
            if advice.reroll:
                value = table.keep_value(rolls_left, *split(kept))
                assert (advice.probability, advice.expected_score) == value
            nothing = table.keep_value(rolls_left, (0,) * 6, (0,) * 5)
            stop = (float(advice.made_now.made), float(advice.made_now.score))
            for other in (nothing, stop):
                assert advice.probability >= other[0] - TOLERANCE
                if advice.probability <= other[0] + TOLERANCE:
                    assert advice.expected_score >= other[1] - 1e-9
            # with one roll left, no keep re-rolling at most 3 dice does better
            if rolls_left == 1 and trial < 3:
                for n in (1, 2, 3):
                    for at in itertools.combinations(range(10), n):
                        p, _ = explicit_keep_value(
                            [v for i, v in enumerate(values) if i not in at],
                            [values[i] for i in at],
                            phase,
                        )
                        assert p <= advice.probability + 1e-12


def test_more_rolls_never_lower_the_chance():
    rng = random.Random(5)
    for _ in range(30):
        roll = random_roll(rng)
        chances = [advise(roll, 1, k).probability for k in (0, 1, 2)]
        assert chances[0] <= chances[1] + TOLERANCE <= chances[2] + 2 * TOLERANCE


# --- simulated turns ------------------------------------------------------------------


def reroll(roll: Roll, advice: Advice, rng: random.Random) -> Roll:
    """Re-roll the advised dice: each comes back as a random face of its physical die."""
    faces = [rng.choice(die.faces) for die in PHYSICAL_DICE]
    owner = {id(face): n for n, die in enumerate(PHYSICAL_DICE) for face in die.faces}
    rerolled = {id(die) for die in advice.reroll}
    return Roll(tuple(faces[owner[id(d)]] if id(d) in rerolled else d for d in roll))


def keep_colour(roll: Roll, colour: str) -> Advice:
    """The target-colour keep without re-asking: keep `colour`, re-roll the rest."""
    advice = advise(roll, 8, 0)
    keep = tuple(d for d in roll if d.colour == colour)
    reroll_ = tuple(d for d in roll if d.colour != colour)
    return Advice(advice.phase, 1, 0.0, keep, reroll_, 0.0, advice.made_now, False)


def simulate(phase: int, turns: int, seed: int, re_ask: bool = True) -> tuple[float, list[int]]:
    """Rate of making the phase and each turn's score, following the advice.

    re_ask=False (colour phase): the first advice's colour is kept on the last roll too.
    """
    rng = random.Random(seed)
    made, scores = 0, []
    for _ in range(turns):
        roll = random_roll(rng)
        first = advise(roll, phase, 2)
        roll = reroll(roll, first, rng)
        second = advise(roll, phase, 1) if re_ask else keep_colour(roll, first.keep[0].colour)
        roll = reroll(roll, second, rng)
        verdict = evaluate(roll, phase)
        made += verdict.made
        scores.append(verdict.score)
    return made / turns, scores


def target_policy_turn_chance() -> float:
    """Chance of one turn under the target-colour policy (no re-asking), exactly.

    A walk over the ten dice's first roll keeping, per colour, the dice showing it
    and how many faces of it each other die carries (all the policy's chance
    depends on, ignoring the rare success of another colour).
    """
    colours = "ROGB"
    states = {tuple((0, (0,) * 7) for _ in colours): 1.0}
    for die in PHYSICAL_DICE:
        faces_of = [sum(face.colour == c for face in die.faces) for c in colours]
        nxt: dict = collections.defaultdict(float)
        for state, weight in states.items():
            for shown_colour, faces in enumerate(faces_of):
                new = []
                for c, (shown, others) in enumerate(state):
                    if c == shown_colour:
                        new.append((shown + 1, others))
                    else:
                        bumped = list(others)
                        bumped[faces_of[c]] += 1
                        new.append((shown, tuple(bumped)))
                nxt[tuple(new)] += weight * faces / 6
        states = nxt

    def chance(shown: int, others: tuple[int, ...]) -> float:
        ends = [1 - (1 - n / 6) ** 2 for n, count in enumerate(others) for _ in range(count)]
        return at_least(7 - shown, ends)

    return sum(w * max(chance(n, o) for n, o in state) for state, w in states.items())


TURNS = 3000


@pytest.mark.slow
@pytest.mark.parametrize("phase", [7, 10])
def test_simulated_turns_make_the_phase_at_the_predicted_rate(phase):
    rate, scores = simulate(phase, TURNS, seed=phase)
    table = odds_table(get_phase(phase))
    assert turn_odds(phase) == table.turn_chance
    error = math.sqrt(table.turn_chance * (1 - table.turn_chance) / TURNS)
    assert abs(rate - table.turn_chance) <= 4 * error
    score_error = statistics.stdev(scores) / math.sqrt(TURNS)
    assert abs(statistics.mean(scores) - table.turn_score) <= 4 * score_error


@pytest.mark.slow
def test_colour_phase_simulations_match_the_exact_chance_and_the_policy():
    predicted = turn_odds(8)  # the exact optimum
    error = math.sqrt(predicted * (1 - predicted) / TURNS)
    re_asked, _ = simulate(8, TURNS, seed=88)
    assert abs(re_asked - predicted) <= 4 * error
    # keeping the first colour on the last roll too: the target-colour policy's chance
    policy = target_policy_turn_chance()
    assert policy < predicted - 0.003
    kept_colour, _ = simulate(8, TURNS, seed=8, re_ask=False)
    assert abs(kept_colour - policy) <= 4 * error


# --- the colour phase -----------------------------------------------------------------


def explicit_colour_keep(roll: Roll, keep: tuple[int, ...]) -> tuple[float, float]:
    """Every face of every re-rolled physical die, judged by the solver's rule, weighed
    over the ways the faces shown lie on the dice."""
    rerolled = [i for i in range(10) if i not in keep]
    chance = score = 0.0
    for placement in placements(roll):
        models = die_models(roll, placement)
        for outcome in itertools.product(*(models[i] for i in rerolled)):
            dice = [roll.dice[i] for i in keep] + [face for face, _ in outcome]
            weight = placement.weight * math.prod(w for _, w in outcome)
            made = made_score(dice)
            if made is not None:
                chance += weight
                score += weight * made
    return chance, score


def test_colour_target_value_equals_enumeration_with_one_roll_left():
    rng = random.Random(8)
    checked = 0
    while checked < 6:
        roll = random_roll(rng)
        choice = best_target(roll, 1, TOLERANCE)
        if len(choice.keep) < 5:
            continue  # keep enumeration small: at most 6**5 outcomes
        assert (choice.chance, choice.expected_score) == pytest.approx(
            explicit_colour_keep(roll, choice.keep), abs=1e-12
        )
        checked += 1


def any_keep_chance(roll: Roll, keep: tuple[int, ...]) -> float:
    """Exact chance with one roll left for any keep: colours' successes are disjoint."""
    return sum(
        placement.weight * _placed_keep_chance(roll, keep, die_models(roll, placement))
        for placement in placements(roll)
    )


def _placed_keep_chance(roll: Roll, keep: tuple[int, ...], models) -> float:
    total = 0.0
    for colour in "ROGB":
        dist = [1.0]
        shown = sum(roll.dice[i].colour == colour for i in keep)
        for i in range(10):
            if i in keep:
                continue
            p = sum(w for face, w in models[i] if face.colour == colour)
            dist = [
                (dist[j] if j < len(dist) else 0) * (1 - p) + (dist[j - 1] * p if j else 0)
                for j in range(len(dist) + 1)
            ]
        total += sum(dist[max(7 - shown, 0) :])
    return total


@pytest.mark.slow
def test_colour_target_is_the_best_of_all_1024_keeps_with_one_roll_left():
    rng = random.Random(88)
    for _ in range(25):
        roll = random_roll(rng)
        advice = advise(roll, 8, 1)
        best = max(
            any_keep_chance(roll, keep)
            for n in range(11)
            for keep in itertools.combinations(range(10), n)
        )
        assert advice.probability == pytest.approx(best, abs=1e-12)


def test_colour_phase_policy_keeps_one_colour():
    roll = Roll.from_text("5R 6R 7R 9R 9R WR 10O 2B 4B 3B")
    advice = advise(roll, 8, 2)
    assert [str(die) for die in advice.keep] == ["5R", "6R", "7R", "9R", "9R", "WR"]
    assert advice.exact
    chance, score = target_value(advice.keep, [die_models(roll)[i] for i in range(6, 10)], "R", 2)
    assert advice.expected_score == score
    assert chance <= advice.probability + 1e-12  # re-asking after the next roll can switch


# --- the interface --------------------------------------------------------------------


def test_all_tables_build_and_turn_odds_order_harder_phases_lower():
    odds = {phase: turn_odds(phase) for phase in range(1, 11)}
    assert all(0 < chance < 1 for chance in odds.values())
    assert odds[5] < odds[4] and odds[6] < odds[5]  # longer runs
    assert odds[3] < odds[2] and odds[7] < odds[1] and odds[10] < odds[9]


def test_advice_text_and_dict():
    roll = Roll.from_text("8R 8B 8G 10O 5G 7R WR WB 1G 3R")
    advice = advise(roll, 1, 2)
    assert str(advice).startswith("keep 8R 8B 8G 10O")
    assert "% to make Phase 1" in str(advice)
    data = advice.to_dict()
    assert data["phase"] == 1 and data["made_now"] == {"made": True, "score": 34}
    assert data["probability"] == pytest.approx(1.0)
    assert data["expected_score"] >= 34
    assert data["keep"][:3] == ["8R", "8B", "8G"]
    assert str(advise(roll, 1, 0)).startswith("keep 8R 8B 8G 10O 5G 7R WR WB 1G 3R, stop: 100.0 %")


@pytest.mark.parametrize("rolls_left", [-1, 3, 1.0, True, "2"])
def test_bad_rolls_left_is_named(rolls_left):
    with pytest.raises(InvalidRollsLeftError, match="expected 0, 1 or 2"):
        advise(Roll.from_text("8R 8B 8G 10O 5G 7R WR WB 1G 3R"), 1, rolls_left)


def test_partial_roll_is_refused():
    with pytest.raises(ValueError, match="needs all 10 dice"):
        advise(Roll.from_text("8R 8B"), 1, 2)


def test_phase_object_or_number():
    roll = Roll(tuple(die.faces[0] for die in PHYSICAL_DICE))
    assert advise(roll, get_phase(4), 1) == advise(roll, 4, 1)


def test_colour_advice_for_a_roll_the_inventory_cannot_explain():
    roll = Roll.from_text("5O 5O 6O 7O 9O 10O 3O WR 1B 2G")  # only one die carries 5O
    assert not roll.is_explained_by_inventory()
    advice = advise(roll, 8, 1)
    assert [str(d) for d in advice.keep] == ["5O", "5O", "6O", "7O", "9O", "10O", "3O"]
    assert advice.probability == pytest.approx(1.0) and not advice.exact
    assert advice.expected_score >= advice.made_now.score == 45


#: 10O and 9G are on H3 and on H6: the faces lie on the dice two ways, whose chances
#: differ (26.2 % and 32.4 % with two rolls left).
ROLL8 = Roll.from_text("3O WO 3R WR 10G 7G 10O 8B 5B 9G")
MATCHED = ("L1", "L2", "L3", "L4", "H1", "H2", "H3", "H4", "H5", "H6")


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        (MATCHED[:9], "9 physical dice named for the 10 dice"),
        (("H7", *MATCHED[1:]), "'H7' is not a die of the inventory"),
        ((*MATCHED[:9], "H3"), "H3 is named for 2 dice"),
        ((*MATCHED[:4], "H2", "H1", *MATCHED[6:]), "H2 has no face 10G: its faces are 5G"),
    ],
)
def test_matched_dice_that_cannot_show_the_roll_are_refused_by_name(dice, message):
    with pytest.raises(InvalidPlacementError, match=message):
        advise(ROLL8, 8, 1, dice=dice)


def test_a_roll_whose_faces_lie_on_the_dice_two_ways_weighs_both():
    found = placements(ROLL8)
    assert [p.weight for p in found] == [0.5, 0.5]
    assert {p.dice[6] for p in found} == {"H3", "H6"}
    chances = [advise(ROLL8, 8, 2, dice=p.dice).probability for p in found]
    assert chances == pytest.approx([0.26155416977, 0.32392564919])
    advice = advise(ROLL8, 8, 2)
    # One keep for both ways: a hair below the mean of each way's own best keep.
    assert advice.exact and advice.probability == pytest.approx(0.29272991185)
    assert sum(chances) / 2 - 1e-4 < advice.probability < sum(chances) / 2
