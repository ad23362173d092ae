"""The odds advisor's hint in plain words for the page: which dice to keep, for what.

`scorer.advise` says "keep 8R 8B 5G 5R, re-roll 6 dice: 94.1 % to make Phase 1";
at the table that reads better as "Keep the two 8s and the two 5s for 2 sets of 3,
and re-roll the other 6 dice: 94 % chance to make Phase 1 this turn."
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from scorer import WILD, Advice, Die
from scorer.odds_spare import spare_dice

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _wilds(count: int) -> list[str]:
    """The kept Wilds: "the Wild", "the two Wilds" (none: nothing)."""
    if not count:
        return []
    return ["the Wild" if count == 1 else f"the {_count(count)} Wilds"]


def _values(keep: Sequence[Die], run: bool = False) -> list[str]:
    """The kept dice by number: "the two 8s", "the 5", "the Wild"; for a run phase, numbers
    in a row as "the 4 to 10"."""
    counts = Counter(die.value for die in keep)
    numbers = sorted((value for value in counts if value != WILD),
                     key=lambda v: (-counts[v], -v))
    if run and numbers and all(counts[v] == 1 for v in numbers):
        low, high = min(numbers), max(numbers)
        if len(numbers) >= 3 and high - low + 1 == len(numbers):
            parts = [f"the {low} to {high}"]
        else:
            parts = ["the " + _join([str(v) for v in sorted(numbers)])]
        return parts + _wilds(counts[WILD])
    parts = [f"the {_count(counts[v])} {v}s" if counts[v] > 1 else f"the {v}" for v in numbers]
    return parts + _wilds(counts[WILD])


def _colours(keep: Sequence[Die]) -> list[str]:
    """The kept dice by colour (the colour phase): "the four orange dice", "the Wild"."""
    counts = Counter(die.colour_name for die in keep if not die.is_wild())
    parts = [f"the {_count(n)} {name} {'die' if n == 1 else 'dice'}"
             for name, n in counts.most_common()]
    return parts + _wilds(sum(die.is_wild() for die in keep))


def _split(keep: Sequence[Die], spare: Sequence[Die],
           used: Sequence[Die] | None) -> tuple[list[Die], list[Die]]:
    """The kept dice that matter, split into those for the phase and those kept to try
    for more points (beyond the dice `used` by a phase the roll already makes)."""
    drop = Counter(spare)
    mattering = []
    for die in keep:
        if drop[die] > 0:
            drop[die] -= 1
        else:
            mattering.append(die)
    if used is None:
        return mattering, []
    left = Counter(used)
    for_phase, for_more = [], []
    for die in mattering:
        if left[die] > 0:
            left[die] -= 1
            for_phase.append(die)
        else:
            for_more.append(die)
    return for_phase, for_more


def plain_hint(advice: Advice, used: Sequence[Die] | None = None) -> str:
    """One or two sentences from the advisor's `Advice`.

    `used`: the dice the phase uses when the roll already makes it. Only dice that
    matter are named: kept dice that change neither the chance nor the expected score
    (`scorer.odds_spare.spare_dice`) join the dice to re-roll, since dice the phase
    does not use score nothing and Wilds score 0; a die kept beyond `used` that does
    matter is kept "to try for more points" (a better way to make the phase).
    """
    phase, label = advice.phase.number, advice.phase.label
    made = advice.made_now
    chance = f"{100 * advice.probability:.0f} %"
    if advice.rolls_left == 0 or not advice.reroll:
        if made.made:
            return (f"Take the score: this roll makes Phase {phase} ({label}) "
                    f"for {made.score} points.")
        return f"No re-rolls left: this roll does not make Phase {phase} ({label})."
    spare = spare_dice(advice)
    rerolls = len(advice.reroll) + len(spare)
    for_phase, for_more = _split(advice.keep, spare, used)
    if not for_phase and not for_more:
        action = f"Re-roll all {rerolls} dice: none of these helps {label} yet"
    else:
        colour_phase = "colour" in label
        kept = _join(_colours(for_phase) if colour_phase
                     else _values(for_phase, run="run" in label and "set" not in label))
        other = "die" if rerolls == 1 else f"{rerolls} dice"
        action = f"Keep {kept} for {label}" if for_phase else f"Keep {_join(_values(for_more))}"
        if for_more and for_phase:
            action += f" (and {_join(_values(for_more))} to try for more points)"
        elif for_more:
            action += " to try for more points"
        action += f", and re-roll the other {other}"
    sentence = f"{action}: {chance} chance to make Phase {phase} this turn."
    if made.made:
        sentence += f" (This roll already makes it for {made.score} points.)"
    return sentence
