"""Fit (or check) the reader's calibration: how often dice and rolls read with given
evidence are right, and the roll threshold under which dice are marked (`vision.read.trust`).

    .venv/bin/python benchmarks/calibrate.py --fit                  # writes models/calibration.json
    .venv/bin/python benchmarks/calibrate.py --first-seed 2008000000  # reliability on other scenes

Scenes are drawn in the held-out font families, light and dark bodies, upright and
steep views (`eval_pipeline.py --view`), 150 of each by default. `--fit` reads the
calibration seeds (CALIBRATION_SEED_BASE, never reported on), fits the die and roll
maps (isotonic), chooses the lowest roll threshold whose sure-but-wrong rolls stay
under `--target` of the rolls of each view (upright, steep), with dice whose box is too
large for its place marked (`--max-size-ratio`) and the dice whose face the classifier
did not favour judged by a map of their own (`--overruled-below`), and writes the
file. Without `--fit`, the shipped calibration is checked on the scenes asked for: a
reliability table per die and per roll (confidence bins against the share right) and
the expected calibration error.
The values are fitted and reported apart too (`fit_values`, `report_values`): their
maps, and the value threshold under which the dice marked for their face and their value
are the ones a phase that does not count colour asks for, held to the same target.
The rolls of readings that carry a flag (the dice table cannot explain the roll, a soft
picture) get roll maps of their own, faces' and values' (`--one-roll-map`: one for all).
`--records FILE` keeps what was read (an .npz), so a fit can be tried again in seconds.
`--at-roll-sure T ...` reads the marking again at other roll thresholds, nothing refitted
(`at_roll_thresholds`): two classifiers compared at equal errors, not each where its
own fit put it.
Beside the rolls sure but wrong, every report gives the most they may be at 95 %
(`rolls_sure_but_wrong_at_most`, `vision.evaluation.share_upper_bound`) and those of
them with a die read where no true die lies (`rolls_sure_off_box`: the locator's error,
not the classifier's).
Dice the face probe doubts as another numeral die's face (`vision.read.face_probe`) are
marked whatever the roll, as the reader marks them; `--no-face-probe` leaves them to the
roll, as the reader read before it had a probe.
`--ink-spread N` draws the same scenes with each die's ink at most N grey levels from its
set's (the renderer's 12 unless told; 0: a set's dice printed alike); records of such
scenes may be fitted on beside the others, each of their views held to the target apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from eval_pipeline import (
    ReadAsPhotos,
    add_as_photos,
    add_box_scale,
    add_flatten,
    add_frame_second_look,
    photo_settings,
)
from foreign_scenes import FIRST_SEEDS as TRAY_FIRST_SEEDS
from foreign_scenes import VIEWS as TRAY_VIEWS
from foreign_scenes import foreign_scene

from models.options import npz_path
from scorer import PHASES, Phase, Roll, dice_to_check
from scorer.dice import COLOUR_NAMES, FULL_ROLL, Die
from scorer.dice_set import PRINTED_DICE
from vision.evaluation import (
    COLOUR_PHASE,
    EVALUATION_VIEWS,
    evaluation_scene,
    match_dice,
    roll_of,
    same_score,
    share_upper_bound,
)
from vision.read.classifier import FaceClassifier
from vision.read.face_probe import PROBE_FILE, FaceProbe
from vision.read.pipeline import DiceReader, evidence_of, size_ratios
from vision.read.settings import (
    ClassifySettings,
    FlattenSettings,
    ReaderSettings,
    SecondLookSettings,
)
from vision.read.tops import TopFinder
from vision.read.trust import (
    CALIBRATION_FILE,
    PHOTO_CALIBRATION_FILE,
    Calibration,
    DieEvidence,
    MonotoneMap,
    TrustSettings,
    ValueTrust,
    fit_weights,
)
from vision.reading import Reading
from vision.synth.looks import eval_group
from vision.synth.scene import Scene
from vision.synth.seeds import CALIBRATION_SEED_BASE, TRUST_REPORT_SEED_BASE

GROUPS = ("held-out-light", "held-out-dark")
#: The second look (`TrustSettings.second_look_below`) a fit takes unless told: none. Tried
#: at 0.999 and measured no better on the reported scenes (MODEL_CARD.md).
SECOND_LOOK_BELOW = 0.0
#: The box size, against the other dice's where it lies, over which a fit marks a die
#: (`TrustSettings.max_size_ratio`); chosen on the calibration seeds (MODEL_CARD.md).
MAX_SIZE_RATIO = 1.3
#: The classifier's belief in the face read under which a fit judges a die by a map of its
#: own (`TrustSettings.overruled_below`); chosen on the calibration seeds (MODEL_CARD.md).
OVERRULED_BELOW = 0.2
#: The locator's score of a box under which a fit marks its die
#: (`TrustSettings.min_locator_score`); 0: never. 0.85, the best on the calibration seeds,
#: was measured and not kept (MODEL_CARD.md, "The locator's score of a die's box").
MIN_LOCATOR_SCORE = 0.0
#: A box narrower than this (shortest side over longest) and more than MERGED_SIZE_RATIO
#: times its place's side is taken for a leaning die's top and side face boxed as one, and
#: its die marked (`TrustSettings.merged_aspect`); 0: never. Chosen on the calibration
#: seeds: right dice's boxes lie above 0.82 (one in twenty under) and within 1.07 of their
#: place (one in twenty over) (MODEL_CARD.md, "Two faces of a leaning die boxed as one").
MERGED_ASPECT = 0.8
MERGED_SIZE_RATIO = 1.2
VIEWS = tuple(EVALUATION_VIEWS)
DIE_BINS = 40
#: Bins of the overruled dice's map (a few hundred dice in 4,800 scenes).
OVERRULED_BINS = 8
ROLL_BINS = 20
#: The widest spread of die scores (log-odds) one knot of a die map may stand for
#: (`--die-span`, `MonotoneMap.fit`); None: equal counts alone. Equal counts give the few
#: hundred doubtful dice one knot (a die at even odds the probability of one at 0.98);
#: cut at 1.0 the maps are better calibrated but mark no better (MODEL_CARD.md).
DIE_SPAN: float | None = None
#: The fewest dice a knot cut by `--die-span` holds.
MIN_GROUP = 20
#: Readings that carry a flag (the dice table does not explain the roll, a soft picture)
#: are judged by a roll map of their own (`Calibration.flagged_roll`), of this many bins
#: (a few hundred such rolls in 4,800 scenes), when there are MIN_FLAGGED_ROLLS or more:
#: at the same roll probability they were wrong twenty times as often (MODEL_CARD.md).
FLAGGED_ROLL_BINS = 8
MIN_FLAGGED_ROLLS = 100
#: The roll thresholds a fit tries (the faces' and the values'), lowest first.
ROLL_THRESHOLDS = tuple(float(t) for t in np.round(np.arange(0.50, 0.99951, 0.0005), 4))
#: Confidence bins of the reliability tables.
TABLE_EDGES = (0.0, 0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999, 1.0001)


@dataclass
class Records:
    """What was read: per read die its scene, raw evidence and whether it was right; per
    scene whether its reading could be shown as sure (ten dice read, none unreadable, as
    the players see it: a box on a die's side face read in place of its top still shows
    ten dice, and counts as wrong, since that die matches no true one)."""

    scene: np.ndarray  # (D,) scene index of each read die
    confidence: np.ndarray  # (D,)
    face_prob: np.ndarray  # (D,)
    right: np.ndarray  # (D,) bool
    complete: np.ndarray  # (S,) bool: shown complete, ten dice read and none unreadable
    slices: np.ndarray  # (S,) str: group-view of each scene
    read_as: np.ndarray | None = None  # (D,) str: the face read
    truth: np.ndarray | None = None  # (D,) str: the true face ("" for an extra die)
    runner_up: np.ndarray | None = None  # (D,) str: the most likely other face
    network_prob: np.ndarray | None = None  # (D,) the classifier's own belief in the face
    side: np.ndarray | None = None  # (D,) the die's top side, pixels
    aspect: np.ndarray | None = None  # (D,) shortest over longest side of its box
    found: np.ndarray | None = None  # (S,) dice found in the scene, read or not
    flagged: np.ndarray | None = None  # (S,) bool: the reading carries any flag
    agreement: np.ndarray | None = None  # (D,) the looks' mean belief in the value read
    size_ratio: np.ndarray | None = None  # (D,) box side over the side dice have there
    ink_spread: np.ndarray | None = None  # (S,) the dice's ink spread asked (NaN: the renderer's)
    locator_score: np.ndarray | None = None  # (D,) the locator's confidence in the die's box
    phase10_odds: np.ndarray | None = None  # (D,) the face probe's odds (NaN: not probed)
    value_confidence: np.ndarray | None = None  # (D,) the posterior of the value read
    true_roll: np.ndarray | None = None  # (S,) str: the scene's true dice ("8R 5O ...")
    likely: np.ndarray | None = None  # (D,) str: the other faces it may show ("*": any)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{k: v for k, v in self.__dict__.items() if v is not None})

    @classmethod
    def load(cls, path: Path) -> Records:
        with np.load(path) as stored:
            return cls(**{name: stored[name] for name in stored.files})


#: `Records.likely` of a die that may show any face (`ReadDie.likely` None).
ANY_FACE = "*"


def likely_faces(records: Records, marking: ValueMarking, dice: np.ndarray,
                 values: np.ndarray, marked: np.ndarray,
                 settings: ReaderSettings = ReaderSettings()) -> dict[int, tuple[Die, ...]]:
    """The likely faces of `dice`' marked ones (`marked`, `values`: those doubted for their
    value), by index among `dice`, as the reader keeps them (`pipeline.likely_told`): not
    for a die whose box, kind or faint face is doubted, nor where the posterior of what is
    in doubt reaches `DecodeSettings.likely_below` (records without them: none)."""
    if records.likely is None:
        return {}
    value_posterior = (records.value_confidence if records.value_confidence is not None
                       else records.confidence)
    told = {}
    for j, index in enumerate(dice):
        posterior = value_posterior[index] if values[j] else records.confidence[index]
        if (not marked[j] or marking.doubted[index] or marking.kind_doubted[index]
                or records.likely[index] == ANY_FACE
                or records.face_prob[index] < settings.sort.min_face_prob
                or posterior >= settings.decode.likely_below):
            continue
        told[j] = tuple(Die.from_text(face) for face in str(records.likely[index]).split())
    return told


def die_outcomes(truth, reading: Reading) -> tuple[list[bool], bool, list[str]]:
    """Whether each read die (in reading order) names the face of the true die it lies on
    (an extra die is wrong), whether every true die was read (none lost), and the true
    face of each read die ("" for an extra)."""
    truth = list(truth)
    right = [False] * len(reading.dice)
    faces = [""] * len(reading.dice)
    matched = match_dice(truth, reading)
    for die, index in zip(truth, matched, strict=True):
        if index is not None:
            right[index] = reading.dice[index].die == die.die
            faces[index] = str(die.die)
    found = [index for index in matched if index is not None]
    return right, len(found) == len(truth) == len(reading.dice), faces


def shown_complete(reading: Reading) -> bool:
    """Whether the players see a full roll: ten dice read, none unreadable. Whether the
    dice are the true ones is each die's `right` (an extra die is wrong); a roll shown
    complete with a die on the wrong spot is shown as sure when none is marked, as
    `vision.evaluation.SceneScore.shown_sure` counts it."""
    return len(reading.dice) == FULL_ROLL and not reading.unreadable


def drawn_scenes(first_seed: int, scenes: int, ink_spread: float | None = None,
                 views: Sequence[str] = VIEWS) -> Iterator[tuple[str, Scene]]:
    """The scenes as the calibration draws them, each with its slice ("held-out-dark-steep"):
    each of `views` and groups, `scenes` of each from `first_seed` on (`--ink-spread` as
    asked), a line on stderr after each slice."""
    for number, (view, key) in enumerate((v, g) for v in views for g in GROUPS):
        look = eval_group(key).mix()
        first = first_seed + number * scenes
        for seed in range(first, first + scenes):
            yield f"{key}-{view}", evaluation_scene(
                seed, look, steep=EVALUATION_VIEWS[view], ink_spread=ink_spread)
        print(f"read {key}, {view} views: {scenes} scenes", file=sys.stderr, flush=True)


def second_renderer_trays(first_seed: int, scenes: int, view: str
                          ) -> Iterator[tuple[str, Any]]:
    """Trays of the second renderer (`benchmarks/foreign_scenes.py`) seen from `view`, each
    with its slice ("second-renderer-dark-phone"): `scenes` with light bodies from
    `first_seed` on, then as many dark ones, a line on stderr after each. For reading and
    reporting only: nothing is fitted on them."""
    for number, shade in enumerate(("light", "dark")):
        first = first_seed + number * scenes
        for seed in range(first, first + scenes):
            yield f"second-renderer-{shade}-{view}", foreign_scene(
                seed, dark=shade == "dark", view=TRAY_VIEWS[view])
        print(f"read the second renderer's {shade} trays, {view} view: {scenes} trays",
              file=sys.stderr, flush=True)


def read_records(reader: DiceReader | ReadAsPhotos, drawn: Iterable[tuple[str, Any]],
                 ink_spread: float | None = None) -> Records:
    """What `reader` makes of each of the `drawn` scenes (slice, scene with `image` and
    `dice`), `ink_spread` as they were drawn with (None: the renderer's own)."""
    scene_of, confidence, face_prob, right, complete, slices = [], [], [], [], [], []
    read_as, truth, runner_up, network_prob, side, aspect, found, flagged, agreement = (
        [] for _ in range(9))
    size_ratio: list[float] = []
    spreads: list[float] = []
    locator_score: list[float] = []
    phase10_odds: list[float] = []
    value_confidence: list[float] = []
    true_rolls: list[str] = []
    likely: list[str] = []
    by_place = reader.settings.sort.doubtful_face.by_place
    for index, (slice_key, scene) in enumerate(drawn):
        reading = reader.read(scene.image)
        outcomes, _, true_faces = die_outcomes(scene.dice, reading)
        size_ratio.extend(float(r) for r in size_ratios(reading.dice, by_place))
        for die, ok, true in zip(reading.dice, outcomes, true_faces, strict=True):
            scene_of.append(index)
            confidence.append(die.confidence)
            face_prob.append(die.face_prob)
            right.append(ok)
            read_as.append(str(die.die))
            truth.append(true)
            runner_up.append(str(die.alternatives[0][0]) if die.alternatives else "")
            evidence = evidence_of(die)
            network_prob.append(evidence.network_prob)
            side.append(evidence.side)
            aspect.append(evidence.aspect)
            agreement.append(evidence.agreement)
            locator_score.append(die.locator_score)
            phase10_odds.append(np.nan if die.phase10_odds is None else die.phase10_odds)
            value_confidence.append(die.confidence if die.value_confidence is None
                                    else die.value_confidence)
            likely.append(ANY_FACE if die.likely is None
                          else " ".join(str(face) for face in die.likely))
        found.append(reading.found_count())
        flagged.append(bool(reading.flags))
        complete.append(shown_complete(reading))
        slices.append(slice_key)
        spreads.append(np.nan if ink_spread is None else float(ink_spread))
        true_rolls.append(" ".join(str(die.die) for die in scene.dice))
    return Records(np.array(scene_of, int), np.array(confidence), np.array(face_prob),
                   np.array(right, bool), np.array(complete, bool), np.array(slices),
                   np.array(read_as), np.array(truth), np.array(runner_up),
                   np.array(network_prob), np.array(side), np.array(aspect),
                   np.array(found), np.array(flagged, bool), np.array(agreement),
                   np.array(size_ratio), np.array(spreads), np.array(locator_score),
                   np.array(phase10_odds, np.float64), np.array(value_confidence),
                   np.array(true_rolls), np.array(likely))


def evidences(records: Records) -> list[DieEvidence]:
    """Each read die's evidence as the reader has it (older records: posterior and face)."""
    count = len(records.confidence)
    network = records.network_prob if records.network_prob is not None else np.ones(count)
    side = records.side if records.side is not None else np.full(count, 60.0)
    aspect = records.aspect if records.aspect is not None else np.ones(count)
    agreement = records.agreement if records.agreement is not None else np.ones(count)
    value = (records.value_confidence if records.value_confidence is not None
             else records.confidence)
    return [DieEvidence(float(c), float(f), float(n), float(d), float(a), float(g), float(v))
            for c, f, n, d, a, g, v in zip(records.confidence, records.face_prob, network, side,
                                           aspect, agreement, value, strict=True)]


def value_right(records: Records) -> np.ndarray:
    """(D,) whether each read die's value is its true die's, whatever the colours (a die on
    no true die: wrong)."""
    if records.read_as is None or records.truth is None:
        raise ValueError("these records keep no faces read and true: read them again")
    return np.array([bool(true) and Die.from_text(true).value == Die.from_text(read).value
                     for read, true in zip(records.read_as, records.truth, strict=True)], bool)


def as_values(records: Records) -> Records:
    """The records as the values alone see them: each die's posterior the value's (whatever
    the colour), right when its value is, no die overruled (the classifier's belief in the
    face is of its colour too). Every fit and figure of the faces then holds for values."""
    if records.value_confidence is None:
        raise ValueError("these records keep no value posteriors: read them again")
    return replace(records, confidence=records.value_confidence, right=value_right(records),
                   network_prob=np.ones(len(records.confidence)))


def values_calibration(calibration: Calibration) -> Calibration | None:
    """`calibration` with the value maps and threshold in place of the face's (its box and
    die thresholds kept): what the value view of records is judged by."""
    if calibration.value is None:
        return None
    values = calibration.value
    return Calibration(values.die, values.roll,
                       replace(calibration.settings, roll_sure=values.roll_sure,
                               overruled_below=None),
                       calibration.classifier_sha256, flagged_roll=values.flagged_roll)


@dataclass(frozen=True)
class ValueMarking:
    """What the value marking of each scene starts from: the dice marked for their face
    (fixed), the dice's value probabilities and the dice marked whatever the roll."""

    face_marks: list[np.ndarray]
    value_probs: np.ndarray
    doubted: np.ndarray
    kind_doubted: np.ndarray  # (D,) the probe's odds keep the value in doubt


def marks_by_scene(records: Records, calibration: Calibration,
                   probs: np.ndarray | None = None, probe: FaceProbe | None = None
                   ) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """Each scene's dice (`dice_of_scenes`), which of them `calibration` marks for their face
    with `probe`'s doubts (`probs`: the dice's probabilities under it, when already known),
    and the dice doubted for their box whatever the roll (`doubted_boxes`)."""
    if probs is None:
        probs = die_probabilities(records, calibration)
    doubted = doubted_boxes(records, calibration, probe)
    flagged = scene_flagged(records)
    scenes = dice_of_scenes(records)
    marks = [np.array(calibration.marked(list(probs[dice]), list(doubted[dice]),
                                         bool(flagged[scene])), bool)
             for scene, dice in enumerate(scenes)]
    return scenes, marks, doubted


def value_marking(records: Records, calibration: Calibration, values: ValueTrust,
                  probe: FaceProbe | None = None) -> ValueMarking:
    """The face marks under `calibration` (with `probe`'s), the value probabilities under
    `values` and the dice whose probe odds keep their value in doubt, for
    `simulate_values`."""
    _, face_marks, doubted = marks_by_scene(records, calibration, probe=probe)
    value_probs = np.array([values.die_probability(e) for e in evidences(records)])
    count = len(records.scene)
    odds = records.phase10_odds if records.phase10_odds is not None else np.full(count, np.nan)
    kind = np.array([values.kind_doubted(None if np.isnan(o) else float(o)) for o in odds],
                    bool)
    return ValueMarking(face_marks, value_probs, doubted, kind)


def simulate_values(records: Records, calibration: Calibration, marking: ValueMarking,
                    roll_sure: float) -> dict[str, float]:
    """`simulate` for a phase that does not count colour: a die is checked when marked for
    its face and for its value (`vision.read.pipeline`, the value threshold `roll_sure`) or
    for the probe's odds, a roll is shown as sure of its values when complete with none
    checked, and right when every value is."""
    trust = with_value_threshold(calibration, roll_sure)
    right = value_right(records)
    flagged = scene_flagged(records)
    sure = sure_wrong = off_box = right_unmarked = silent = 0
    for scene, dice in enumerate(dice_of_scenes(records)):
        checked = value_doubts(trust, marking, scene, dice, bool(flagged[scene]))
        ok = right[dice]
        right_unmarked += int((ok & ~checked).sum())
        silent += int((~ok & ~checked).sum())
        if records.complete[scene] and not checked.any():
            sure += 1
            sure_wrong += not ok.all()
            off_box += off_a_true_die(records, dice)
    return marking_figures(records, sure, sure_wrong, off_box, right_unmarked, silent)


def with_value_threshold(calibration: Calibration, roll_sure: float) -> Calibration:
    """`calibration` with the value threshold `roll_sure`."""
    assert calibration.value is not None
    return replace(calibration, value=replace(calibration.value, roll_sure=roll_sure))


def value_doubts(trust: Calibration, marking: ValueMarking, scene: int, dice: np.ndarray,
                 flagged: bool) -> np.ndarray:
    """Which of `scene`'s `dice` have their value doubted under `trust`: marked for their
    face and for their value (`vision.read.pipeline`), or for the probe's odds."""
    value_marks = trust.value_marked(list(marking.value_probs[dice]),
                                     list(marking.doubted[dice]), flagged)
    return marking.face_marks[scene] & (np.array(value_marks, bool) | marking.kind_doubted[dice])


def simulate_pad(records: Records, calibration: Calibration, marking: ValueMarking,
                 roll_sure: float, phase: Phase, narrow: bool = True) -> dict[str, float]:
    """The rolls as the scorepad takes them for `phase` (`pad_figures`)."""
    return pad_figures(records, calibration, marking, roll_sure, [phase],
                       narrow)[phase.number]


def pad_figures(records: Records, calibration: Calibration, marking: ValueMarking,
                roll_sure: float, phases: Sequence[Phase], narrow: bool = True
                ) -> dict[int, dict[str, float]]:
    """The rolls as the scorepad takes them, for each of `phases` by its number
    (`scorer.dice_to_check`): a die marked for its face and its value, or for its face
    alone, is checked only where some face it could show changes the score (with `narrow`,
    only its likely faces where the reader tells them: `likely_faces`), and a die read as a
    face the table's dice cannot show with the others in every phase, as the scorepad asks
    (`web.service`; the scenes are rolls of the printed table's dice). Of all scenes,
    the rolls shown complete with nothing to check, and those of them whose verdict or
    points as read are not the true roll's (records without the true rolls: a die read
    where no true die lies is wrong); of all read dice, those right (their face in phase 8,
    else their value) and not asked for. Each scene's marks and rolls are found once, for
    every phase."""
    if records.read_as is None or records.truth is None:
        raise ValueError("these records keep no faces read and true: read them again")
    trust = with_value_threshold(calibration, roll_sure)
    flagged = scene_flagged(records)
    rights = {False: value_right(records), True: records.right}
    counts = {phase.number: [0, 0, 0] for phase in phases}  # sure, sure but wrong, dice
    for scene, dice in enumerate(dice_of_scenes(records)):
        read = roll_of(Die.from_text(face) for face in records.read_as[dice])
        values = value_doubts(trust, marking, scene, dice, bool(flagged[scene]))
        colours = marking.face_marks[scene] & ~values
        likely = likely_faces(records, marking, dice, values, values | colours) if narrow else None
        unread = 0 if records.found is None else max(0, int(records.found[scene]) - len(dice))
        truth: Roll | None = None
        # Faces the table's dice cannot show together: asked for in every phase.
        impossible = [] if read is None else list(PRINTED_DICE.impossible(read))
        for phase in phases:
            asked = np.zeros(len(dice), bool)
            if read is None:  # faces no ten dice show together: every mark is looked at
                asked = values | colours
            else:
                asked[impossible] = True
                asked[list(dice_to_check(read, phase,
                                         value_doubts=np.flatnonzero(values).tolist(),
                                         colour_doubts=np.flatnonzero(colours).tolist(),
                                         unread=unread, likely=likely))] = True
            count = counts[phase.number]
            count[2] += int((rights[phase.is_colour_phase()][dice] & ~asked).sum())
            if not records.complete[scene] or read is None or asked.any():
                continue
            if truth is None:
                truth = true_roll(records, scene, dice)
            count[0] += 1
            count[1] += not same_score(read, truth, phase)
    scenes, read_dice = len(records.complete), max(1, len(records.right))
    return {number: {"rolls_shown_sure": sure / scenes, "rolls_sure_but_wrong": wrong / scenes,
                     "dice_right_not_asked": unasked / read_dice}
            for number, (sure, wrong, unasked) in counts.items()}


def true_roll(records: Records, scene: int, dice: np.ndarray) -> Roll | None:
    """The true roll of `scene`: from the records where they keep it, else its read
    `dice`' true faces (None where one lies on no true die)."""
    if records.true_roll is not None:
        return roll_of(Die.from_text(face) for face in str(records.true_roll[scene]).split())
    faces = records.truth[dice] if records.truth is not None else np.array([""])
    return None if (faces == "").any() else roll_of(Die.from_text(face) for face in faces)


def simulate_pad_phases(records: Records, calibration: Calibration, marking: ValueMarking,
                        roll_sure: float, narrow: bool = True) -> dict[str, float]:
    """`pad_figures` for phase 8 and for the mean of the other nine phases."""
    figures = pad_figures(records, calibration, marking, roll_sure, PHASES, narrow)
    eight = figures.pop(COLOUR_PHASE.number)
    rest = list(figures.values())
    return {"phase_8_no_check": eight["rolls_shown_sure"],
            "phase_8_taken_wrong": eight["rolls_sure_but_wrong"],
            "other_phases_no_check": float(np.mean([r["rolls_shown_sure"] for r in rest])),
            "other_phases_taken_wrong": float(np.mean([r["rolls_sure_but_wrong"]
                                                       for r in rest])),
            "worst_phase_taken_wrong": max([eight["rolls_sure_but_wrong"]]
                                           + [r["rolls_sure_but_wrong"] for r in rest]),
            "phase_8_dice_right_not_asked": eight["dice_right_not_asked"],
            "other_phases_dice_right_not_asked": float(np.mean([r["dice_right_not_asked"]
                                                                for r in rest]))}


#: How far over the face probe's threshold (log-odds) a die marked for its face must lie
#: to be doubted for its colour alone (`ValueTrust.min_phase10_odds`). Chosen on tuning
#: trays of other dice (OTHER_DICE_SEED_BASE + 5,000,000 on) and the calibration scenes:
#: 3 keeps 3 of the 40 other dice's faces that were doubted for their colour alone there,
#: for 0.2 % of the rolls sure of their values (MODEL_CARD.md).
COLOUR_DOUBT_ODDS_MARGIN = 3.0


def fit_values(records: Records, calibration: Calibration, target: float,
               probe: FaceProbe | None = None,
               min_phase10_odds: float | None = None,
               die_span: float | None = DIE_SPAN, flagged_apart: bool = True) -> ValueTrust:
    """The value maps (isotonic, `fit_maps` on each die's value posterior and whether its
    value is right; `die_span` as `fit_maps` takes it), and the lowest value threshold
    keeping the rolls shown as sure of their values (no die marked for both its face and
    its value) but with a value wrong within `target` of the rolls of each view. A higher
    threshold marks more dice, so the lowest one that holds is found by halving."""
    fitted = fit_maps(as_values(records), die_span=die_span, flagged_apart=flagged_apart)
    values = ValueTrust(fitted.die, fitted.roll, ROLL_THRESHOLDS[-1], min_phase10_odds,
                        fitted.flagged_roll)
    trust = replace(calibration, value=values)
    marking = value_marking(records, trust, values, probe)
    views = scene_views(records)

    def worst(roll_sure: float) -> float:
        return max(simulate_values(part(records, np.flatnonzero(views == key)), trust,
                                   _part_marking(marking, records, views == key), roll_sure
                                   )["rolls_sure_but_wrong"] for key in set(views))

    low, high = 0, len(ROLL_THRESHOLDS) - 1
    while low < high:
        middle = (low + high) // 2
        if worst(ROLL_THRESHOLDS[middle]) <= target:
            high = middle
        else:
            low = middle + 1
    chosen = ROLL_THRESHOLDS[low]
    figures = simulate_values(records, trust, marking, chosen)
    print(f"value threshold {chosen}: {json.dumps(rounded(figures))}, every view within "
          f"{target}" if worst(chosen) <= target else
          "no value threshold reaches the target; the strictest kept", file=sys.stderr)
    return replace(values, roll_sure=chosen)


def _part_marking(marking: ValueMarking, records: Records, scenes: np.ndarray) -> ValueMarking:
    """`marking` of the scenes where `scenes` (a mask) holds, as `part` takes them."""
    dice = np.isin(records.scene, np.flatnonzero(scenes))
    return ValueMarking([m for m, keep in zip(marking.face_marks, scenes, strict=True) if keep],
                        marking.value_probs[dice], marking.doubted[dice],
                        marking.kind_doubted[dice])


def part(records: Records, scenes: np.ndarray) -> Records:
    """The records of `scenes` (indices), renumbered from 0."""
    scenes = np.asarray(scenes, int)
    dice = np.isin(records.scene, scenes)
    fields = {}
    for name, value in records.__dict__.items():
        if value is None:
            fields[name] = None
        elif name == "scene":
            fields[name] = np.searchsorted(scenes, value[dice])
        elif name in SCENE_FIELDS:
            fields[name] = value[scenes]
        else:
            fields[name] = value[dice]
    return Records(**fields)


def joined(parts: list[Records]) -> Records:
    """Records read apart, as one: each part's scenes numbered after the last's."""
    fields: dict[str, np.ndarray | None] = {}
    for name in parts[0].__dict__:
        values = [getattr(p, name) for p in parts]
        if any(value is None for value in values):
            fields[name] = None
        elif name == "scene":
            offsets = np.cumsum([0] + [len(p.complete) for p in parts[:-1]])
            fields[name] = np.concatenate([v + o for v, o in zip(values, offsets, strict=True)])
        else:
            fields[name] = np.concatenate(values)
    return Records(**fields)


#: The fields of `Records` held per scene (the others per die).
SCENE_FIELDS = ("complete", "slices", "found", "flagged", "ink_spread", "true_roll")


def die_probabilities(records: Records, calibration: Calibration) -> np.ndarray:
    return np.array([calibration.die_probability(e) for e in evidences(records)])


def roll_rows(records: Records, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray, list]:
    """For each complete scene: log of its dice's probability product, all right, and its
    dice's probabilities and outcomes."""
    x, y, dice = [], [], []
    for scene in np.flatnonzero(records.complete):
        mine = records.scene == scene
        x.append(float(np.log(np.clip(probs[mine], 1e-6, 1.0)).sum()))
        y.append(bool(records.right[mine].all()))
        dice.append((probs[mine], records.right[mine]))
    return np.array(x), np.array(y, bool), dice


def dice_of_scenes(records: Records) -> list[np.ndarray]:
    """The indices of each scene's dice, scene by scene."""
    order = np.argsort(records.scene, kind="stable")
    bounds = np.searchsorted(records.scene[order], np.arange(len(records.complete) + 1))
    return [order[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def scene_flagged(records: Records) -> np.ndarray:
    """(S,) whether each scene's reading carries a flag (older records: none)."""
    if records.flagged is None:
        return np.zeros(len(records.complete), bool)
    return records.flagged.astype(bool)


def complete_flagged(records: Records) -> np.ndarray:
    """Whether each complete scene's reading carries a flag, in `roll_rows`' order."""
    return scene_flagged(records)[records.complete.astype(bool)]


def doubted_boxes(records: Records, calibration: Calibration,
                  probe: FaceProbe | None = None) -> np.ndarray:
    """(D,) whether each die is marked whatever the roll under `calibration` and `probe`:
    its box too large for its place, or long and large like two faces of one die, or scored
    low by the locator, or its face doubted by the probe as another die's (records without
    a field: never for that)."""
    count = len(records.scene)
    ratios = records.size_ratio if records.size_ratio is not None else np.ones(count)
    scores = records.locator_score if records.locator_score is not None else np.ones(count)
    aspects = records.aspect if records.aspect is not None else np.ones(count)
    odds = records.phase10_odds if records.phase10_odds is not None else np.full(count, np.nan)
    return np.array([calibration.settings.box_doubted(float(r), float(s), float(a))
                     or (probe is not None and probe.doubts(None if np.isnan(o) else float(o)))
                     for r, s, a, o in zip(ratios, scores, aspects, odds, strict=True)], bool)


def simulate(records: Records, calibration: Calibration,
             probs: np.ndarray | None = None, probe: FaceProbe | None = None
             ) -> dict[str, float]:
    """Rolls shown as sure and sure but wrong (of all scenes), dice right and unmarked and
    wrong and unmarked (of all read dice), under `calibration`'s marking and `probe`'s
    (`probs`: the dice's probabilities under the calibration, when already known).
    Records that keep the true faces also give the sure-but-wrong rolls with a die read
    where no true die lies (`rolls_sure_off_box`: a box on a leaning die's side face, the
    locator's error rather than the classifier's)."""
    scenes, scene_marks, _ = marks_by_scene(records, calibration, probs, probe)
    sure = sure_wrong = off_box = right_unmarked = silent = 0
    for scene, (mine, marks) in enumerate(zip(scenes, scene_marks, strict=True)):
        ok = records.right[mine]
        right_unmarked += int((ok & ~marks).sum())
        silent += int((~ok & ~marks).sum())
        if records.complete[scene] and not marks.any():
            sure += 1
            sure_wrong += not ok.all()
            off_box += off_a_true_die(records, mine)
    return marking_figures(records, sure, sure_wrong, off_box, right_unmarked, silent)


#: A marked die whose face belief lies under this while its posterior reaches it is held
#: back for the belief that it is a Phase 10 face at all, not for its reading.
FACE_DOUBT = 0.98
#: The names `doubt_of` gives a marked die's doubt, beside a colour pair's ("orange or red").
BOX_DOUBT, FACE_BELIEF, VALUE_DOUBT, NO_RIVAL = "box", "face belief", "value", "no rival face"


def doubt_of(records: Records, die: int, box_doubted: bool) -> str:
    """Why a marked die is in doubt, for `held_back`: its box (`doubted_boxes`), the belief
    that it is a face at all (`FACE_DOUBT`), its colour against its runner-up's where the
    two share the value (the colours' names in order: "orange or red"), else its value (or
    no rival face, where the reader named none or the records keep no runners-up)."""
    if box_doubted:
        return BOX_DOUBT
    if records.face_prob[die] < FACE_DOUBT <= records.confidence[die]:
        return FACE_BELIEF
    rival = "" if records.runner_up is None else str(records.runner_up[die])
    if not rival or records.read_as is None:
        return NO_RIVAL
    read = Die.from_text(str(records.read_as[die]))
    other = Die.from_text(rival)
    if other.value != read.value:
        return VALUE_DOUBT
    return " or ".join(sorted((COLOUR_NAMES[read.colour], COLOUR_NAMES[other.colour])))


def held_back(records: Records, calibration: Calibration, probs: np.ndarray | None = None,
              probe: FaceProbe | None = None) -> dict[str, float]:
    """The rolls read complete and all right that the marking does not show as sure, as
    shares of all scenes, by what their marked dice are in doubt for (`doubt_of`, the
    reasons of one roll joined by " + "), most first: where the rolls a better reading
    would show as sure are lost (`probs` as `simulate` takes them)."""
    scenes, scene_marks, doubted = marks_by_scene(records, calibration, probs, probe)
    counts: dict[str, int] = {}
    for scene, (mine, marks) in enumerate(zip(scenes, scene_marks, strict=True)):
        if not records.complete[scene] or not records.right[mine].all():
            continue
        reasons = sorted({doubt_of(records, int(die), bool(doubted[die]))
                          for die, marked in zip(mine, marks, strict=True) if marked})
        if reasons:
            key = " + ".join(reasons)
            counts[key] = counts.get(key, 0) + 1
    scenes = max(1, len(records.complete))
    return {key: count / scenes
            for key, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))}


def off_a_true_die(records: Records, dice: np.ndarray) -> bool:
    """Whether any of a scene's `dice` was read where no true die lies."""
    return records.truth is not None and bool((records.truth[dice] == "").any())


def marking_figures(records: Records, sure: int, sure_wrong: int, off_box: int,
                    right_unmarked: int, silent: int) -> dict[str, float]:
    """The counts of `simulate` as shares: rolls of all scenes, dice of all read dice
    (`rolls_sure_off_box` only where the records keep the true faces)."""
    scenes, dice = len(records.complete), max(1, len(records.right))
    figures = {"rolls_shown_sure": sure / scenes, "rolls_sure_but_wrong": sure_wrong / scenes,
               "rolls_sure_but_wrong_at_most": share_upper_bound(sure_wrong, scenes),
               "dice_right_unmarked": right_unmarked / dice, "dice_silent": silent / dice}
    if records.truth is not None:
        figures["rolls_sure_off_box"] = off_box / scenes
    return figures


def sure_at(records: Records, calibration: Calibration, probs: np.ndarray,
            probe: FaceProbe | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per scene: whether any roll threshold could show it as sure (shown complete, no die
    under `die_sure`, none doubted for its box or by `probe`), the probability of its roll with
    every die unmarked, and whether every die read is right. At threshold t a scene is
    shown as sure exactly when the first holds and the second reaches t (`simulate`,
    `Calibration.marked`): so a threshold is tried in one comparison, not a re-marking."""
    doubted = doubted_boxes(records, calibration, probe)
    scenes = dice_of_scenes(records)
    eligible = np.array([bool(records.complete[s]) and not doubted[dice].any()
                         and not (probs[dice] < calibration.settings.die_sure).any()
                         for s, dice in enumerate(scenes)], bool)
    flagged = scene_flagged(records)
    roll = np.array([calibration.roll_probability(list(probs[dice]), bool(flagged[s]))
                     for s, dice in enumerate(scenes)])
    all_right = np.array([bool(records.right[dice].all()) for dice in scenes], bool)
    return eligible, roll, all_right


def fit_maps(records: Records, weighted: bool = False,
             overruled_below: float | None = None,
             die_span: float | None = DIE_SPAN, flagged_apart: bool = True) -> Calibration:
    """The die score's weights (logistic, on every feature `DieEvidence` has; `weighted`
    False: the raw score), its map to the share right (isotonic; the dice the classifier
    believes less than `overruled_below` apart, on a map of their own) and the roll's
    map (`die_span`: the die maps' groups cut no wider, `MonotoneMap.fit`; the rolls of
    readings with a flag on a map of their own when `flagged_apart` and there are enough);
    no threshold chosen (`fit` chooses the face's, `fit_values` the values')."""
    dice = evidences(records)
    weights = None
    if weighted:
        weights = fit_weights(np.stack([e.features() for e in dice]), records.right)
        print(f"die score weights: {np.round(weights, 3).tolist()}", file=sys.stderr)
    scorer = Calibration(MonotoneMap((0.0,), (0.0,)), MonotoneMap((0.0,), (0.0,)),
                         weights=weights)
    scores = np.array([scorer.die_score(e) for e in dice])
    apart = (np.array([e.network_prob < overruled_below for e in dice], bool)
             if overruled_below is not None else np.zeros(len(dice), bool))
    overruled = None
    if apart.any():
        overruled = MonotoneMap.fit(scores[apart], records.right[apart], OVERRULED_BINS,
                                    die_span, MIN_GROUP)
        print(f"{int(apart.sum())} dice the classifier believed less than {overruled_below}: "
              f"{float(records.right[apart].mean()):.3f} right", file=sys.stderr)
    die_map = MonotoneMap.fit(scores[~apart], records.right[~apart], DIE_BINS, die_span,
                              MIN_GROUP)
    plain = Calibration(die_map, MonotoneMap((-1.0, 0.0), (0.0, 1.0)),
                        TrustSettings(overruled_below=overruled_below), weights=weights,
                        overruled=overruled)
    x, y, _ = roll_rows(records, die_probabilities(records, plain))
    flagged = complete_flagged(records)
    if not flagged_apart or flagged.sum() < MIN_FLAGGED_ROLLS:
        return replace(plain, roll=MonotoneMap.fit(x, y, ROLL_BINS))
    print(f"{int(flagged.sum())} rolls read with a flag: {float(y[flagged].mean()):.3f} all "
          f"right, against {float(y[~flagged].mean()):.3f}", file=sys.stderr)
    return replace(plain, roll=MonotoneMap.fit(x[~flagged], y[~flagged], ROLL_BINS),
                   flagged_roll=MonotoneMap.fit(x[flagged], y[flagged], FLAGGED_ROLL_BINS))


def fit(records: Records, target: float, die_sure: float, sha256: str,
        weighted: bool = False, second_look_below: float | None = None,
        max_size_ratio: float | None = None,
        overruled_below: float | None = None,
        min_locator_score: float | None = None, probe: FaceProbe | None = None,
        die_span: float | None = DIE_SPAN, merged_aspect: float | None = None,
        merged_size_ratio: float = MERGED_SIZE_RATIO, flagged_apart: bool = True
        ) -> Calibration:
    """The maps of `fit_maps` (`die_span` as it takes it), and the lowest roll threshold
    keeping sure-but-wrong rolls within `target` of the rolls of each view (upright,
    steep, aside), dice whose box is more than `max_size_ratio` times the size at its place, or
    narrower than `merged_aspect` and more than `merged_size_ratio` times that size, or
    scored under `min_locator_score` by the locator, or doubted by the face `probe`,
    marked whatever the roll (`flagged_apart`: the flagged rolls on a map of their own)."""
    maps = fit_maps(records, weighted, overruled_below, die_span, flagged_apart)
    settings = TrustSettings(0.5, die_sure, second_look_below, max_size_ratio, overruled_below,
                             min_locator_score, merged_aspect, merged_size_ratio)

    def at(roll_sure: float) -> Calibration:
        return replace(maps, settings=replace(settings, roll_sure=roll_sure),
                       classifier_sha256=sha256)

    probs = die_probabilities(records, maps)
    # Each view (upright, steep, aside; light and dark together) must keep within the target
    # on its own: a pooled figure could hide the steep views' errors behind the upright
    # ones'. Light and dark apart, 1,200 scenes a slice, let a roll or two decide it. Scenes
    # read with their dice printed otherwise (`--ink-spread`) are views of their own.
    views = scene_views(records)
    eligible, roll, all_right = sure_at(records, at(settings.roll_sure), probs, probe)
    for roll_sure in ROLL_THRESHOLDS:
        sure_wrong = eligible & (roll >= roll_sure) & ~all_right
        worst = max((float(sure_wrong[views == key].mean()) for key in set(views)), default=0.0)
        if worst <= target:
            figures = simulate(records, at(roll_sure), probs, probe)
            print(f"roll threshold {roll_sure}: {json.dumps(rounded(figures))}, every slice "
                  f"within {target}", file=sys.stderr)
            return at(roll_sure)
    print("no threshold reaches the target; the strictest kept", file=sys.stderr)
    return at(ROLL_THRESHOLDS[-1])


def view_of(slice_key: str) -> str:
    """The view of a slice ("held-out-dark-steep" -> "steep")."""
    return slice_key.rsplit("-", 1)[-1]


def printed(records: Records) -> list[str]:
    """Per scene, how its dice were printed: "" as the renderer draws them, else
    " printed N" (`--ink-spread` N)."""
    if records.ink_spread is None:
        return [""] * len(records.complete)
    return ["" if np.isnan(spread) else f" printed {spread:g}" for spread in records.ink_spread]


def with_print(records: Records, labels: list[str] | np.ndarray) -> np.ndarray:
    """Per-scene `labels`, each followed by how its dice were printed when not as the
    renderer draws them ("steep printed 0")."""
    return np.array([str(label) + how for label, how in
                     zip(labels, printed(records), strict=True)])


def scene_views(records: Records) -> np.ndarray:
    """Per scene, its view and print (`with_print`): what a fit holds to the target."""
    return with_print(records, [view_of(key) for key in records.slices])


def rounded(figures: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 5) for k, v in figures.items()}


def reliability(probs: np.ndarray, right: np.ndarray) -> tuple[list[dict], float]:
    """Rows (bin, count, mean probability, share right) and the expected calibration error."""
    rows, error = [], 0.0
    for low, high in zip(TABLE_EDGES, TABLE_EDGES[1:], strict=False):
        inside = (probs >= low) & (probs < high)
        if not inside.any():
            continue
        mean, share = float(probs[inside].mean()), float(right[inside].mean())
        rows.append({"bin": f"{low:.3f}-{min(high, 1.0):.3f}", "count": int(inside.sum()),
                     "mean_probability": round(mean, 4), "share_right": round(share, 4)})
        error += inside.sum() / len(probs) * abs(mean - share)
    return rows, round(float(error), 5)


def report(records: Records, calibration: Calibration, probe: FaceProbe | None = None) -> dict:
    probs = die_probabilities(records, calibration)
    die_rows, die_ece = reliability(probs, records.right)
    _, y, dice = roll_rows(records, probs)
    roll_probs = np.array([calibration.roll_probability(list(p), bool(f))
                           for (p, _), f in zip(dice, complete_flagged(records), strict=True)])
    roll_rows_, roll_ece = reliability(roll_probs, y)
    by_slice = {}
    views, slices = scene_views(records), with_print(records, records.slices)
    for labels in (views, slices):  # each view, then each slice
        for key in sorted(set(labels)):
            by_slice[str(key)] = rounded(simulate(part(records, np.flatnonzero(labels == key)),
                                                  calibration, probe=probe))
    overruled = np.array([calibration.is_overruled(e) for e in evidences(records)], bool)
    judged_apart = {"dice": int(overruled.sum()),
                    "mean_probability": round(float(probs[overruled].mean()), 4),
                    "share_right": round(float(records.right[overruled].mean()), 4)
                    } if overruled.any() else {"dice": 0}
    return {"dice": {"table": die_rows, "ece": die_ece}, "overruled": judged_apart,
            "rolls": {"table": roll_rows_, "ece": roll_ece},
            "marking": rounded(simulate(records, calibration, probs, probe)),
            "by_slice": by_slice,
            "held_back": rounded(held_back(records, calibration, probs, probe))}


def at_roll_thresholds(records: Records, calibration: Calibration, thresholds: Sequence[float],
                       probe: FaceProbe | None = None) -> list[dict[str, Any]]:
    """The marking at each roll threshold in place of the calibration's (nothing refitted),
    with the slice whose rolls are most often sure but wrong there. Two classifiers are
    compared so at equal thresholds, or at equal rolls sure but wrong: each at the threshold
    its own fit chose, one may show more rolls as sure only by moving along the same trade
    (more of them wrong), and look better without being so. A comparison, never a way to
    choose a shipped threshold on the scenes reported on."""
    probs = die_probabilities(records, calibration)
    slices = with_print(records, records.slices)
    parts = {str(key): part(records, np.flatnonzero(slices == key)) for key in sorted(set(slices))}
    # The dice's probabilities do not depend on the roll threshold: found once per part.
    part_probs = {key: die_probabilities(records_of, calibration)
                  for key, records_of in parts.items()}
    rows: list[dict[str, Any]] = []
    for threshold in thresholds:
        at = replace(calibration, settings=replace(calibration.settings, roll_sure=threshold))
        by_slice = {key: simulate(records_of, at, part_probs[key], probe)
                    for key, records_of in parts.items()}
        worst = max(by_slice, key=lambda key: by_slice[key]["rolls_sure_but_wrong"])
        rows.append({"roll_sure": threshold, **rounded(simulate(records, at, probs, probe)),
                     "worst_slice": worst, "worst_slice_sure_but_wrong":
                         round(by_slice[worst]["rolls_sure_but_wrong"], 5)})
    return rows


def report_values(records: Records, calibration: Calibration,
                  probe: FaceProbe | None = None) -> dict:
    """`report` for the values alone: reliability of the value maps per die and per roll,
    and the rolls a phase that does not count colour shows as sure (`simulate_values`),
    in all and by view and slice; and the rolls as the scorepad takes them
    (`simulate_pad_phases`), likewise."""
    values = values_calibration(calibration)
    assert values is not None and calibration.value is not None
    seen = as_values(records)
    probs = die_probabilities(seen, values)
    die_rows, die_ece = reliability(probs, seen.right)
    _, y, dice = roll_rows(seen, probs)
    roll_probs = np.array([values.roll_probability(list(p), bool(f))
                           for (p, _), f in zip(dice, complete_flagged(seen), strict=True)])
    roll_table, roll_ece = reliability(roll_probs, y)
    marking = value_marking(records, calibration, calibration.value, probe)
    threshold = calibration.value.roll_sure
    by_slice, pad_by_slice = {}, {}
    views, slices = scene_views(records), with_print(records, records.slices)
    for labels in (views, slices):
        for key in sorted(set(labels)):
            inside = labels == key
            by_slice[str(key)] = rounded(simulate_values(
                part(records, np.flatnonzero(inside)), calibration,
                _part_marking(marking, records, inside), threshold))
            pad_by_slice[str(key)] = rounded(simulate_pad_phases(
                part(records, np.flatnonzero(inside)), calibration,
                _part_marking(marking, records, inside), threshold))
    return {"dice": {"table": die_rows, "ece": die_ece},
            "rolls": {"table": roll_table, "ece": roll_ece},
            "marking": rounded(simulate_values(records, calibration, marking, threshold)),
            "by_slice": by_slice,
            "pad": rounded(simulate_pad_phases(records, calibration, marking, threshold)),
            "pad_every_face": rounded(simulate_pad_phases(records, calibration, marking,
                                                          threshold, narrow=False)),
            "pad_by_slice": pad_by_slice}


def print_table(title: str, rows: list[dict], ece: float) -> None:
    print(f"== {title} (expected calibration error {ece:.4f})")
    print(f"{'probability':<14}{'count':>7}{'mean':>9}{'right':>9}")
    for row in rows:
        print(f"{row['bin']:<14}{row['count']:>7}{row['mean_probability']:>9.4f}"
              f"{row['share_right']:>9.4f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=150, help="scenes per slice (150)")
    parser.add_argument("--first-seed", type=int, default=None,
                        help="the first scene's seed (default: the calibration's seeds, or "
                        "the second renderer's view's)")
    parser.add_argument("--fit", action="store_true", help="fit and write the calibration")
    parser.add_argument("--target", type=float, default=0.004,
                        help="sure-but-wrong rolls allowed when fitting, of the rolls of each "
                        "view (0.4 %%, under the 0.5 %% aimed at on fresh scenes)")
    parser.add_argument("--die-sure", type=float, default=TrustSettings().die_sure)
    parser.add_argument("--weighted", action="store_true",
                        help="score each die by fitted weights of all its evidence (logistic) "
                        "instead of its posterior times its face belief")
    parser.add_argument("--second-look", type=float, default=SECOND_LOOK_BELOW,
                        help="read a crop again at two other quarter turns when its likeliest "
                        "value is believed less than this, and weigh how the looks agree "
                        "(with --fit; 0, the default: one look)")
    parser.add_argument("--max-size-ratio", type=float, default=MAX_SIZE_RATIO,
                        help="with --fit: mark a die whose box is more than this times the side "
                        "the other dice have where it lies (a top seen with its side face; "
                        "1.3); 0: never")
    parser.add_argument("--overruled-below", type=float, default=OVERRULED_BELOW,
                        help="with --fit: judge a die whose face the classifier itself believes "
                        f"less than this by a map of its own ({OVERRULED_BELOW}); 0: one map")
    parser.add_argument("--min-locator-score", type=float, default=MIN_LOCATOR_SCORE,
                        help="with --fit: mark a die whose box the locator scored under this (a "
                        f"die leaning on the tray's wall; {MIN_LOCATOR_SCORE}); 0: never")
    parser.add_argument("--merged-aspect", type=float, default=MERGED_ASPECT,
                        help="with --fit: mark a die whose box is narrower than this (shortest "
                        "side over longest) and larger than --merged-size-ratio times its "
                        f"place's side (a leaning die's top and side boxed as one; "
                        f"{MERGED_ASPECT}); 0: never")
    parser.add_argument("--merged-size-ratio", type=float, default=MERGED_SIZE_RATIO)
    parser.add_argument("--die-span", type=float, default=DIE_SPAN,
                        help="cut the die maps' equal-count groups wider than this many "
                             "log-odds (default: equal counts alone)")
    parser.add_argument("--one-roll-map", action="store_true",
                        help="with --fit: judge the rolls of readings with a flag by the same "
                             "roll map as the others (as before they had one of their own)")
    parser.add_argument("--face-probe", type=Path, default=PROBE_FILE,
                        help="the face probe whose doubts mark dice (models/face_probe.json)")
    parser.add_argument("--no-face-probe", action="store_true",
                        help="no die marked for the face probe's doubt (as before it)")
    parser.add_argument("--ink-spread", type=float, default=None,
                        help="draw each die's ink this many grey levels at most from its set's "
                        "(the renderer's 12 unless told; 0: every die of a colour printed "
                        "alike), to measure how much of the doubt the dice's own print makes; "
                        "with --records, such records may be fitted on beside the others, each "
                        "view of them held to the target on its own")
    parser.add_argument("--views", nargs="+", choices=VIEWS, default=list(VIEWS),
                        help="the views drawn, each in both groups, their seeds in turn from "
                        "--first-seed (default: all; upright, steep and aside)")
    parser.add_argument("--second-renderer", choices=sorted(TRAY_VIEWS), default=None,
                        help="read the second renderer's trays (benchmarks/foreign_scenes.py) "
                        "seen from this view instead, --scenes light and as many dark ones, "
                        "from the view's own seeds unless --first-seed says; to report, "
                        "never to fit")
    parser.add_argument("--model", type=Path, default=None, help="face classifier (.onnx)")
    parser.add_argument("--locator", type=Path, default=None,
                        help="top-face locator (.onnx; default: shipped)")
    add_box_scale(parser)
    add_flatten(parser)
    add_frame_second_look(parser)
    add_as_photos(parser)
    parser.add_argument("--output", type=Path, default=None,
                        help="the calibration written by --fit, or else checked (default: "
                        "models/calibration.json; with --as-photos the photos' own, models/"
                        "photo_calibration.json, where there is one or one is fitted); a "
                        "photo read to check one is marked by it")
    parser.add_argument("--records", type=npz_path, default=None, nargs="+",
                        help="an .npz of what was read: loaded if it exists, else written; "
                        "several that exist are read together")
    parser.add_argument("--at-roll-sure", type=float, nargs="+", default=[], metavar="T",
                        help="read the marking again at these roll thresholds in place of the "
                        "calibration's, nothing refitted: to compare classifiers at equal "
                        "thresholds or equal errors, never to choose the shipped one")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.scenes < 1:
        parser.error("--scenes must be at least 1")
    if not all(0.0 < t <= 1.0 for t in args.at_roll_sure):
        parser.error("--at-roll-sure: each threshold is a probability, over 0 and at most 1")
    if args.output is None:  # the calibration a reading is marked by, or the one to write
        args.output = (PHOTO_CALIBRATION_FILE if args.as_photos and (
            args.fit or PHOTO_CALIBRATION_FILE.is_file()) else CALIBRATION_FILE)
    if args.first_seed is None:
        args.first_seed = (CALIBRATION_SEED_BASE if args.second_renderer is None
                           else TRAY_FIRST_SEEDS[args.second_renderer])
    if args.fit and not CALIBRATION_SEED_BASE <= args.first_seed < TRUST_REPORT_SEED_BASE:
        parser.error("fit on the calibration seeds (from CALIBRATION_SEED_BASE, below "
                     "TRUST_REPORT_SEED_BASE), never on scenes whose figures are reported")
    if args.second_renderer is not None and (args.fit or args.ink_spread is not None):
        parser.error("--second-renderer: its trays are read and reported, never fitted on, "
                     "and drawn with their own inks (no --fit, no --ink-spread)")
    if args.ink_spread is not None and args.ink_spread < 0:
        parser.error("--ink-spread must be 0 or more")
    cv2.setNumThreads(1)
    classifier = FaceClassifier.load(args.model)
    second_look = args.second_look or None
    photo_calibration: Calibration | bool = True  # the photos': the one shipped for them
    if not args.fit:  # checking a calibration: read as the reader will with it
        shipped = Calibration.load(args.output, classifier.sha256)
        second_look = None if shipped is None else shipped.settings.second_look_below
        photo_calibration = shipped or True
    # The probe's odds are recorded whenever there is one; its doubts mark dice unless told.
    loaded = FaceProbe.load(args.face_probe, classifier.sha256)
    probe = None if args.no_face_probe else loaded
    if args.records is not None and all(path.exists() for path in args.records):
        records = joined([Records.load(path) for path in args.records])
    else:
        if args.records is not None and len(args.records) > 1:
            parser.error("--records: several files are read together only when all exist")
        try:
            # A photo's reader marks its dice by the photos' calibration (the one checked,
            # or else the shipped one): which of its looks it keeps rests on the marks.
            # The records keep each die's own evidence either way.
            reader = DiceReader(classifier, threads=1, finder=TopFinder.load(args.locator),
                                calibration=True if args.as_photos else None,
                                second_look_below=second_look,
                                photo_calibration=photo_calibration,
                                face_probe=loaded or False, settings=ReaderSettings(
                                    classify=ClassifySettings(box_scale=args.box_scale),
                                    flatten=FlattenSettings(above_degrees=args.flatten),
                                    second_look=SecondLookSettings(frames=args.frame_second_look)))
            drawn = (drawn_scenes(args.first_seed, args.scenes, args.ink_spread, args.views)
                     if args.second_renderer is None else
                     second_renderer_trays(args.first_seed, args.scenes, args.second_renderer))
            records = read_records(
                ReadAsPhotos(reader, photo_settings(args.kept_look)) if args.as_photos
                else reader, drawn, args.ink_spread)
        except RuntimeError as error:  # the held-out fonts are not installed
            parser.error(str(error))
        if args.records is not None:
            records.save(args.records[0])
    if args.fit:
        calibration = fit(records, args.target, args.die_sure, classifier.sha256, args.weighted,
                          second_look, args.max_size_ratio or None,
                          args.overruled_below or None, args.min_locator_score or None, probe,
                          args.die_span, args.merged_aspect or None, args.merged_size_ratio,
                          not args.one_roll_map)
        if records.value_confidence is not None:
            print("the values alone:", file=sys.stderr)
            odds = None if probe is None else probe.min_odds + COLOUR_DOUBT_ODDS_MARGIN
            calibration = replace(calibration, value=fit_values(
                records, calibration, args.target, probe, odds, args.die_span,
                not args.one_roll_map))
        calibration.save(args.output)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        calibration = Calibration.load(args.output, classifier.sha256)
        if calibration is None:
            parser.error(f"no calibration for this classifier at {args.output}; fit one first")
    result = report(records, calibration, probe)
    if calibration.value is not None and records.value_confidence is not None:
        result["values"] = report_values(records, calibration, probe)
    if args.at_roll_sure:
        result["at_roll_sure"] = at_roll_thresholds(records, calibration, args.at_roll_sure, probe)
    if args.json:
        print(json.dumps(result))
        return 0
    print_table("dice", result["dice"]["table"], result["dice"]["ece"])
    print_table("rolls (ten read)", result["rolls"]["table"], result["rolls"]["ece"])
    if result["overruled"]["dice"]:
        print(f"dice whose face the classifier did not favour, judged apart: "
              f"{json.dumps(result['overruled'])}")
    print(f"roll threshold {calibration.settings.roll_sure}, die threshold "
          f"{calibration.settings.die_sure}: {json.dumps(result['marking'])}")
    for key, figures in result["by_slice"].items():
        print(f"  {key}: {json.dumps(figures)}")
    print("rolls read right but not shown as sure (of all rolls), by what their marked dice "
          "are in doubt for:")
    for key, share in result["held_back"].items():
        print(f"  {key}: {share:.2%}")
    if "values" in result:
        print_values(result["values"], calibration)
    if "at_roll_sure" in result:
        print_at_thresholds(result["at_roll_sure"])
    return 0


def print_at_thresholds(rows: list[dict[str, Any]]) -> None:
    """`at_roll_thresholds`' rows, one line each."""
    print("at other roll thresholds (nothing refitted; to compare classifiers, not to choose "
          "one):")
    for row in rows:
        print(f"  {row['roll_sure']}: rolls shown as sure {row['rolls_shown_sure']:.2%}, sure "
              f"but wrong {row['rolls_sure_but_wrong']:.3%} (at most "
              f"{row['rolls_sure_but_wrong_at_most']:.3%}), dice right and unmarked "
              f"{row['dice_right_unmarked']:.2%}; most in {row['worst_slice']}: "
              f"{row['worst_slice_sure_but_wrong']:.3%}")


def print_values(result: dict, calibration: Calibration) -> None:
    """The values alone (what a phase that does not count colour rests on): reliability
    tables, and the rolls shown as sure of their values (no die marked for both its face
    and its value) and those with a value wrong."""
    print_table("dice, values alone", result["dice"]["table"], result["dice"]["ece"])
    print_table("rolls, values alone", result["rolls"]["table"], result["rolls"]["ece"])
    assert calibration.value is not None
    print(f"value roll threshold {calibration.value.roll_sure}: {json.dumps(result['marking'])}")
    for key, figures in result["by_slice"].items():
        print(f"  {key}: {json.dumps(figures)}")
    print("as the scorepad takes the rolls (a doubt checked only where a face the die could "
          f"show changes the score; of all rolls): {json.dumps(result['pad'])}")
    print("the same, every face of a doubted die tried (its likely faces not told): "
          f"{json.dumps(result['pad_every_face'])}")
    for key, figures in result["pad_by_slice"].items():
        print(f"  {key}: {json.dumps(figures)}")


if __name__ == "__main__":
    sys.exit(main())
