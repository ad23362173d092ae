"""Score the whole pipeline (locate, classify, decode) on rendered scenes with known truth.

Used by `benchmarks/eval_pipeline.py` (the full figures) and by a small CI test.
Seeds start at HELD_OUT_SEED_BASE (`vision.synth.seeds`), far above any seed the classifier or the
top-face locator trained or was evaluated on, so the scenes are new to every
part of the pipeline.

Every rendered die counts. The renderer keeps each die's whole top face inside
the picture (in the product the tray lies inside the camera's view, and the
set-up page marks it), so no die is counted that no camera could read; the
locator is not asked to find dice whose top is cut off by the frame's edge.

Locator training seeds lie below HELD_OUT_SEED_BASE; the shipped locator was chosen on
scenes from GOLDEN_SEED_BASE. Its figures by first seed are in models/LOCATOR_CARD.md.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from scorer import (
    FULL_ROLL,
    PHASES,
    Die,
    InvalidRollError,
    Phase,
    PhaseResult,
    Roll,
    dice_to_check,
    evaluate,
)
from scorer.dice_set import PRINTED_DICE, DiceSet
from vision.reading import Reading, ReadingFlag
from vision.synth.views import SteepView

logger = logging.getLogger(__name__)

#: The one phase that counts colour: phase 8, "7 of all one colour".
COLOUR_PHASE = next(phase for phase in PHASES if phase.is_colour_phase())
#: The phase numbers, in order: what `SceneScore.pad_sure` and `pad_right` are indexed by.
PHASE_NUMBERS = tuple(phase.number for phase in PHASES)
MATCH_RADIUS = 0.35  # of a face side: a read die this close to a true one is that die


@dataclass(frozen=True)
class SceneScore:
    """How one scene was read: dice missed, extra dice, dice read right (and sure)."""

    seed: int
    dice: int
    missed: int
    extra: int
    right: int
    unsure: int
    seconds: float
    flags: tuple[ReadingFlag, ...] = ()
    by_colour: tuple[tuple[str, int, int], ...] = ()  # (true colour letter, dice, read right)
    read_right: int = 0
    """Dice whose reading names their true face, sure or not (`right` counts the sure ones)."""
    silent: int = 0
    """Dice read wrong and not marked: the errors a family scores without looking."""
    marked_wrong: int = 0
    """Dice read wrong but marked unsure, or found and listed unreadable: one tap each."""
    shown_sure: bool = False
    """The reading showed the roll as sure: complete, no die marked, none unreadable."""
    values_shown_sure: bool = False
    """The reading showed every die's value as sure (`Reading.values_complete`): a phase
    that does not count colour would be scored without a check."""
    values_read_right: int = 0
    """Dice whose reading names their true value, whatever the colour, marked or not."""
    value_silent: int = 0
    """Dice whose value is read wrong and not marked for it: what a phase that does not
    count colour would score wrong without a check."""
    pad_sure: tuple[bool, ...] = ()
    """Per phase (`PHASE_NUMBERS`): the scorepad would take the roll as read, ten dice read,
    no face the printed table's dice cannot show with the others, and none it asks to check
    for that phase (`scorer.dice_to_check`: a doubt only where some face the die could show
    changes the score)."""
    pad_right: tuple[bool, ...] = ()
    """Per phase: the verdict and points of the dice as read are the true roll's."""

    @property
    def marked_right(self) -> int:
        """Dice read right but marked unsure anyway."""
        return self.read_right - self.right

    @property
    def not_found(self) -> int:
        """True dice neither read nor listed unreadable."""
        return self.dice - self.right - self.marked_right - self.marked_wrong - self.silent

    def sure_but_wrong(self) -> bool:
        """Shown as sure, yet some die is wrong or missing (a silently wrong score)."""
        return self.shown_sure and not self.all_read_right()

    def values_sure_but_wrong(self) -> bool:
        """Every value shown as sure, yet some die's value is wrong or a die is missing."""
        return self.values_shown_sure and not (
            self.all_found() and self.values_read_right == self.dice)

    def pad_sure_but_wrong(self, phase: int) -> bool:
        """Nothing to check for `phase`, yet its verdict or points as read are wrong."""
        index = PHASE_NUMBERS.index(phase)
        return self.pad_sure[index] and not self.pad_right[index]

    def all_found(self) -> bool:
        return self.missed == 0 and self.extra == 0

    def all_right(self) -> bool:
        return self.all_found() and self.right == self.dice

    def all_read_right(self) -> bool:
        """Every die found and its reading right, whether or not the reader was sure."""
        return self.all_found() and self.read_right == self.dice


@dataclass(frozen=True)
class PipelineScore:
    """The three figures over many scenes, and the scenes that fell short."""

    scenes: tuple[SceneScore, ...] = field(default=())

    @property
    def found_rate(self) -> float:
        """Share of scenes where every die was found and nothing else."""
        return _share(sum(s.all_found() for s in self.scenes), len(self.scenes))

    @property
    def all_right_rate(self) -> float:
        """Share of scenes where all dice were read right and none was unsure."""
        return _share(sum(s.all_right() for s in self.scenes), len(self.scenes))

    @property
    def die_accuracy(self) -> float:
        """Share of all true dice read right and sure."""
        return _share(sum(s.right for s in self.scenes), sum(s.dice for s in self.scenes))

    @property
    def first_reading_accuracy(self) -> float:
        """Share of all true dice whose reading names their face, marked unsure or not: what
        a player who confirms every unsure die without changing it would keep. Reported
        beside `die_accuracy`, which counts an unsure die as not right."""
        return _share(sum(s.read_right for s in self.scenes), sum(s.dice for s in self.scenes))

    @property
    def first_reading_all_right_rate(self) -> float:
        """Share of scenes whose every die was found and read right, unsure or not."""
        return _share(sum(s.all_read_right() for s in self.scenes), len(self.scenes))

    def _per_die(self, count: int) -> float:
        return _share(count, sum(s.dice for s in self.scenes))

    @property
    def trust(self) -> dict[str, float]:
        """Per die: right and unmarked, right but marked, wrong but marked, wrong and
        unmarked (silent), not found; per roll: all right (first readings), shown as
        sure, sure but wrong (of all rolls, and of the rolls shown as sure; and the most
        of all rolls they may be at 95 %, `share_upper_bound`). And the values
        alone, what the nine phases that do not count colour rest on: dice whose value is
        wrong and unmarked for it, rolls whose every value is shown as sure, and those of
        them with a value wrong (of all rolls). And the rolls as the scorepad takes them, for
        phase 8 and for the other nine (their mean): with no die to check, and with none
        to check but their verdict or points wrong (of all rolls)."""
        scenes = self.scenes
        sure = sum(s.shown_sure for s in scenes)
        sure_wrong = sum(s.sure_but_wrong() for s in scenes)
        return {
            "right_unmarked": self._per_die(sum(s.right for s in scenes)),
            "right_marked": self._per_die(sum(s.marked_right for s in scenes)),
            "wrong_marked": self._per_die(sum(s.marked_wrong for s in scenes)),
            "wrong_unmarked": self._per_die(sum(s.silent for s in scenes)),
            "not_found": self._per_die(sum(s.not_found for s in scenes)),
            "rolls_all_right": self.first_reading_all_right_rate,
            "rolls_shown_sure": _share(sure, len(scenes)),
            "rolls_sure_but_wrong": _share(sure_wrong, len(scenes)),
            "rolls_sure_but_wrong_at_most": share_upper_bound(sure_wrong, len(scenes)),
            "sure_rolls_wrong": _share(sure_wrong, sure),
            "dice_value_wrong_unmarked": self._per_die(sum(s.value_silent for s in scenes)),
            "rolls_values_shown_sure": _share(sum(s.values_shown_sure for s in scenes),
                                              len(scenes)),
            "rolls_values_sure_but_wrong": _share(
                sum(s.values_sure_but_wrong() for s in scenes), len(scenes)),
            **self._pad_figures(),
        }

    def _pad_figures(self) -> dict[str, float]:
        """`pad_shares` of the scenes scored per phase (none: no figure)."""
        scenes = [s for s in self.scenes if s.pad_sure]
        if not scenes:
            return {}
        return pad_shares([s.pad_sure for s in scenes], [s.pad_right for s in scenes])

    @property
    def median_ms(self) -> float:
        return float(np.median([s.seconds for s in self.scenes]) * 1000) if self.scenes else 0.0

    def colour_accuracy(self) -> dict[str, float]:
        """Share of the dice of each true colour read right (value and colour, sure)."""
        dice: dict[str, int] = {}
        right: dict[str, int] = {}
        for scene in self.scenes:
            for letter, count, hits in scene.by_colour:
                dice[letter] = dice.get(letter, 0) + count
                right[letter] = right.get(letter, 0) + hits
        return {letter: _share(right[letter], dice[letter]) for letter in sorted(dice)}

    def failures(self) -> list[SceneScore]:
        return [s for s in self.scenes if not s.all_right()]

    def sure_but_wrong(self) -> list[SceneScore]:
        """The scenes shown as sure yet read wrong: the silent errors, the few worth a look
        among the failures (most of which are only marked)."""
        return [s for s in self.scenes if s.sure_but_wrong()]

    def to_dict(self) -> dict[str, object]:
        return {
            "scenes": len(self.scenes),
            "all_found": round(self.found_rate, 4),
            "all_read_right": round(self.all_right_rate, 4),
            "per_die_accuracy": round(self.die_accuracy, 5),
            "unsure_dice": sum(s.unsure for s in self.scenes),
            "per_die_first_reading": round(self.first_reading_accuracy, 5),
            "all_first_readings_right": round(self.first_reading_all_right_rate, 4),
            "median_read_ms": round(self.median_ms, 1),
            "per_die_accuracy_by_colour": {
                k: round(v, 5) for k, v in self.colour_accuracy().items()
            },
            "trust": {k: round(v, 5) for k, v in self.trust.items()},
            "failed_seeds": [s.seed for s in self.failures()],
            "sure_but_wrong_seeds": [s.seed for s in self.sure_but_wrong()],
        }


def pad_shares(pad_sure: Sequence[Sequence[bool]], pad_right: Sequence[Sequence[bool]]
               ) -> dict[str, float]:
    """Of rolls scored per phase (`pad_readings`, one row each): those the scorepad takes
    without a check, and those taken wrong, for phase 8 and the mean of the other nine."""
    sure = np.array(pad_sure, bool)  # (rolls, phases)
    wrong = sure & ~np.array(pad_right, bool)
    eight = PHASE_NUMBERS.index(COLOUR_PHASE.number)
    others = [i for i in range(len(PHASE_NUMBERS)) if i != eight]
    return {"pad_phase_8_no_check": float(sure[:, eight].mean()),
            "pad_phase_8_taken_wrong": float(wrong[:, eight].mean()),
            "pad_other_phases_no_check": float(sure[:, others].mean()),
            "pad_other_phases_taken_wrong": float(wrong[:, others].mean())}


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


#: The normal quantile of a one-sided 95 % bound.
ONE_SIDED_95 = 1.6449


def share_upper_bound(part: int, whole: int, z: float = ONE_SIDED_95) -> float:
    """The highest true share that `part` of `whole` still allows (one-sided Wilson score
    bound; 95 % by default). A few rolls sure but wrong in a few hundred cannot tell 0.3 %
    from 0.8 %: the bound says what a figure shows against a target, and stays above zero
    when nothing went wrong. All (or none of nothing): 1.0."""
    if not 0 <= part <= whole:
        raise ValueError(f"expected 0 <= part <= whole, got {part} of {whole}")
    if part == whole:
        return 1.0
    share = part / whole
    z2 = z * z
    centre = share + z2 / (2 * whole)
    spread = z * float(np.sqrt(share * (1 - share) / whole + z2 / (4 * whole * whole)))
    return min(1.0, (centre + spread) / (1 + z2 / whole))


def match_dice(truth: Iterable, reading: Reading) -> list[int | None]:
    """For each true die in order, the index of the read die that is it (the nearest
    free one whose centre lies within MATCH_RADIUS of a face side), or None."""
    truth = list(truth)
    sides = [float(np.linalg.norm(die.corners[0] - die.corners[1])) for die in truth]
    radius = MATCH_RADIUS * (float(np.median(sides)) if sides else 0.0)
    free = list(range(len(reading.dice)))
    matched: list[int | None] = []
    for die in truth:
        centre = np.asarray(die.centre, np.float64)
        distances = [np.hypot(*(np.asarray(reading.dice[j].centre) - centre)) for j in free]
        if not distances or min(distances) > radius:
            matched.append(None)
            continue
        matched.append(free.pop(int(np.argmin(distances))))
    return matched


def score_reading(seed: int, truth: Iterable, reading: Reading, seconds: float) -> SceneScore:
    """Match read dice to the true ones (`match_dice`) and count; a true die no read die
    matches but an unreadable one lies on counts as found and marked."""
    truth = list(truth)
    sides = [float(np.linalg.norm(die.corners[0] - die.corners[1])) for die in truth]
    radius = MATCH_RADIUS * (float(np.median(sides)) if sides else 0.0)
    matched = match_dice(truth, reading)
    unread = [np.asarray(die.centre, np.float64) for die in reading.unreadable]
    missed = right = unsure = read_right = silent = marked_wrong = 0
    values_right = value_silent = 0
    colours: dict[str, list[int]] = {}
    for die, index in zip(truth, matched, strict=True):
        tally = colours.setdefault(die.die.colour, [0, 0])
        tally[0] += 1
        if index is None:
            missed += 1
            centre = np.asarray(die.centre, np.float64)
            listed = [float(np.hypot(*(point - centre))) for point in unread]
            if listed and min(listed) <= radius:  # found, listed unreadable: marked
                unread.pop(int(np.argmin(listed)))
                marked_wrong += 1
            continue
        read = reading.dice[index]
        unsure += read.unsure
        read_right += read.die == die.die
        hit = read.die == die.die and not read.unsure
        right += hit
        tally[1] += hit
        if read.die != die.die:
            marked_wrong += read.unsure
            silent += not read.unsure
        value_right = read.die.value == die.die.value
        values_right += value_right
        value_silent += not value_right and not read.value_doubtful
    free = len(reading.dice) - sum(index is not None for index in matched)
    pad_sure, pad_right = pad_readings(reading, roll_of(die.die for die in truth))
    return SceneScore(
        seed,
        len(truth),
        missed,
        free,
        right,
        unsure,
        seconds,
        tuple(reading.flags),
        tuple((letter, count, hits) for letter, (count, hits) in sorted(colours.items())),
        read_right,
        silent,
        marked_wrong,
        reading.is_complete(),
        reading.values_complete(),
        values_right,
        value_silent,
        pad_sure,
        pad_right,
    )


def pad_readings(reading: Reading, truth: Roll | None, dice: int = FULL_ROLL,
                 dice_set: DiceSet = PRINTED_DICE) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Per phase (`PHASE_NUMBERS`): whether the scorepad would take `reading` as read
    (`dice` dice read, none unreadable, no face `dice_set`'s dice cannot show with the
    others, none it asks to check for that phase, trying the likely faces of a doubted
    die where the reader told them), and whether the verdict and points of the dice as
    read are `truth`'s (the true roll; None: none, never right)."""
    roll = reading.roll()
    if roll is None:  # no ten dice show these faces together: the players fix it first
        return (False,) * len(PHASES), (False,) * len(PHASES)
    # A face the dice cannot show with the others is confirmed in every phase (`web.service`).
    complete = (len(reading.dice) == dice and not reading.unreadable
                and not dice_set.impossible(roll))
    doubted = [i for i, die in enumerate(reading.dice) if die.unsure]
    values = [i for i in doubted if reading.dice[i].value_doubtful]
    colours = [i for i in doubted if not reading.dice[i].value_doubtful]
    sure = tuple(complete and not dice_to_check(roll, phase, value_doubts=values,
                                                colour_doubts=colours,
                                                unread=len(reading.unreadable),
                                                likely=reading.likely_faces())
                 for phase in PHASES)
    right = tuple(same_score(roll, truth, phase) for phase in PHASES)
    return sure, right


def same_score(read: Roll, truth: Roll | None, phase: Phase) -> bool:
    """Whether `phase`'s verdict and points of the roll `read` are those of `truth`."""
    return truth is not None and _verdict(evaluate(read, phase)) == _verdict(
        evaluate(truth, phase))


def roll_of(dice: Iterable[Die]) -> Roll | None:
    """The dice as a Roll, None where no Roll has them (more than six high dice)."""
    try:
        return Roll(tuple(dice))
    except InvalidRollError:
        return None


def _verdict(result: PhaseResult) -> tuple[bool, int]:
    return result.is_made(), result.score


#: The frame size scenes are rendered at unless asked otherwise: the tray camera's.
SCENE_SIZE: tuple[int, int] = (1280, 960)


STEEP_VIEW = SteepView()
"""The steep views the evaluation draws: the camera turned about its own centre above the
tray, so the dice show the sides a camera above sees."""

ASIDE_VIEW = SteepView(camera_aside=True)
"""Steep views as a phone held at the tray's side sees it: tipped as `STEEP_VIEW`, but
standing where that tilt aims it at the tray's middle, so every die shows the sides that
face it (larger, all on one side), as other software's pictures and real photos do."""

EVALUATION_VIEWS: dict[str, SteepView | None] = {
    "upright": None, "steep": STEEP_VIEW, "aside": ASIDE_VIEW,
}
"""The views the evaluation reads scenes in, by name (None: the tray camera, upright)."""


def evaluation_scene(
    seed: int,
    look=None,
    *,
    size: tuple[int, int] = SCENE_SIZE,
    die_scale: float = 1.0,
    steep: SteepView | None = None,
    ink_spread: float | None = None,
):
    """The full scene of `seed` that `evaluate_pipeline` reads (a `synth.Scene`).

    `look` (a `synth.looks.LookMix`) draws its dice set; None, the first renderer's
    Hershey dice. `size` (width, height) and `die_scale` (the dice's size times this) ask
    how the reader holds up where a camera sees the tray otherwise: the same draw, drawn
    at another size, or with larger or smaller dice. `steep`: the scene as a phone held
    over the tray sees it (`SteepView`), the tilt applied after rendering
    (`vision.synth.views`). `ink_spread`: how far each die's ink strays from its set's
    (`Conditions.ink_spread`; None: as the renderer draws it), every other draw unchanged,
    so the same scene can be read with its dice printed alike."""
    from vision.synth import random_conditions, render_scene  # the renderer: evaluation only

    if ink_spread is not None and ink_spread < 0:
        raise ValueError(f"ink_spread must be 0 or more, got {ink_spread}")
    if look is None and size == SCENE_SIZE and die_scale == 1.0 and steep is None:
        if ink_spread is None:
            return render_scene(seed)
        from vision.synth.scene import seed_conditions

        return render_scene(seed, conditions=replace(seed_conditions(seed, size),
                                                     ink_spread=ink_spread))
    if die_scale <= 0:
        raise ValueError(f"die_scale must be above 0, got {die_scale}")
    rng = np.random.default_rng([seed, 7])
    conditions = random_conditions(rng, size)
    if look is not None:
        conditions = look.apply(rng, conditions)
    if steep is not None:
        from vision.synth.views import steep_conditions, steep_scene

        # The view's own draws, apart from the scene's: the same scene seen upright or steep.
        conditions, degrees, azimuth = steep_conditions(
            np.random.default_rng([seed, 35]), conditions, size, steep)
    if die_scale != 1.0:
        conditions = replace(conditions, scale=conditions.scale * die_scale)
    if ink_spread is not None:
        conditions = replace(conditions, ink_spread=ink_spread)
    scene = render_scene(seed, conditions=conditions, size=size)
    return scene if steep is None else steep_scene(scene, degrees, azimuth)


def evaluate_pipeline(
    reader,
    seeds: Iterable[int],
    look=None,
    *,
    size: tuple[int, int] = SCENE_SIZE,
    die_scale: float = 1.0,
    steep: SteepView | None = None,
    ink_spread: float | None = None,
) -> PipelineScore:
    """Render each seed's full scene (`evaluation_scene`), read it with `reader` (a
    DiceReader) and score it.

    `look` (a `synth.looks.LookMix`) draws each scene's dice set, e.g. in fonts training
    never saw; None renders the first renderer's Hershey dice. `size`, `die_scale`, `steep`
    and `ink_spread` as `evaluation_scene` takes them.
    """
    scores = []
    for seed in seeds:
        scene = evaluation_scene(seed, look, size=size, die_scale=die_scale, steep=steep,
                                 ink_spread=ink_spread)
        start = time.perf_counter()
        reading = reader.read(scene.image)
        seconds = time.perf_counter() - start
        score = score_reading(seed, scene.dice, reading, seconds)
        if not score.all_right():
            logger.info("seed %d: %s", seed, score)
        scores.append(score)
    return PipelineScore(tuple(scores))
