"""Every range of renderer seeds, in one table, so no two uses ever draw the same scenes.

A rendered scene or crop chunk is drawn from its seed alone, so a seed used for
training must never be used to measure. Each use owns a range:

| range                                  | used for                                           |
|----------------------------------------|----------------------------------------------------|
| 0 .. EVAL_SEED_BASE                    | classifier training chunks: run seed r, chunk i is |
|                                        | `r * FACE_RUN_SPAN + i`; its validation chunks add |
|                                        | FACE_VALIDATION_OFFSET                             |
| EVAL_SEED_BASE (10**9) ..              | the classifier's held-out evaluation crops         |
| LOCATOR_SEED_BASE (1.5 * 10**9) ..     | locator training scenes: run seed r starts at      |
|                                        | `LOCATOR_SEED_BASE + r * LOCATOR_RUN_SPAN`, its    |
|                                        | validation at + LOCATOR_VALIDATION_OFFSET          |
| FRAME_COLOUR_SEED_BASE (1.9 * 10**9) ..| the frame-colour network's training scenes:        |
|                                        | body group g, scene i is                           |
|                                        | `+ g * FRAME_COLOUR_GROUP_SPAN + i`                |
| HELD_OUT_SEED_BASE (2 * 10**9) ..      | whole-pipeline evaluation scenes (tests, benches)  |
| GOLDEN_SEED_BASE (2.1 * 10**9) ..      | the golden scenes, and the locator's model choice  |
| TUNING_SEED_BASE (2,006,000,000) ..   | scenes the reader's settings are tuned on (not reported) |
| CALIBRATION_SEED_BASE (2,007,000,000) .. | scenes the calibration is fitted on (not reported) |
| TRUST_REPORT_SEED_BASE (2,008,000,000) .. | scenes the trust figures are reported on         |
| PROFILE_SEED_BASE (2.4 * 10**9) ..     | dice-profile evaluation: set k, scene j is         |
|                                        | `+ k * PROFILE_SET_SPAN + j`                        |
| OTHER_DICE_SEED_BASE (2.5 * 10**9) ..  | trays of dice that are not Phase 10 dice (evaluation) |
| FACE_PROBE_SEED_BASE (2.6 * 10**9) ..  | the face probe's fit and threshold: part p of      |
|                                        | FACE_PROBE_PARTS starts at                         |
|                                        | `+ p * FACE_PROBE_PART_SPAN`                       |

Runs may use run seeds 0..LOCATOR_RUN_SEEDS - 1 for the locator, so its ranges end
below HELD_OUT_SEED_BASE; the classifier's stay below EVAL_SEED_BASE (checked where
they are drawn).
"""

from __future__ import annotations

from typing import Final

FACE_RUN_SPAN: Final[int] = 100_000
"""Classifier crop chunks per run seed (training and validation together)."""

FACE_VALIDATION_OFFSET: Final[int] = 50_000
"""Where a classifier run's validation chunks start within its span."""

EVAL_SEED_BASE: Final[int] = 10**9
"""Crop seeds at or above this are for evaluation only; training uses seeds below it."""

LOCATOR_SEED_BASE: Final[int] = 1_500_000_000
"""Locator training seeds start here: above the classifier's, below the held-out scenes."""

LOCATOR_RUN_SPAN: Final[int] = 1_000_000
"""Locator scenes per run seed; the last tenth of each span is validation."""

LOCATOR_VALIDATION_OFFSET: Final[int] = LOCATOR_RUN_SPAN * 9 // 10
"""Where a locator run's validation scenes start within its span (and its most scenes)."""

LOCATOR_RUN_SEEDS: Final[int] = 400
"""Locator run seeds 0..399: the last span ends at HELD_OUT_SEED_BASE - 100_000_000."""

HELD_OUT_SEED_BASE: Final[int] = 2_000_000_000
"""First seed of the pipeline's evaluation scenes, new to every part of the pipeline."""

GOLDEN_SEED_BASE: Final[int] = 2_100_000_000
"""First seed of the golden scenes (and of the scenes the shipped locator was chosen on)."""

FRAME_COLOUR_SEED_BASE: Final[int] = 1_900_000_000
"""First seed of the scenes `models.train_frame_colours` learns from: above every
locator run's last span, below the held-out scenes, and whole scenes the classifier
(trained on crop chunks below EVAL_SEED_BASE) never saw, so its readings of them are
what it makes of new dice."""

FRAME_COLOUR_GROUP_SPAN: Final[int] = 10_000_000
"""Scenes per body group (light, dark) in the frame-colour range."""

PROFILE_SEED_BASE: Final[int] = 2_400_000_000
"""First seed of the dice-profile evaluation (`benchmarks/eval_profile.py`): sets of scenes
that share one dice set, as a household's own dice."""

PROFILE_SET_SPAN: Final[int] = 1_000
"""Scenes per dice set in the profile evaluation (set k's scenes start at k * this)."""

OTHER_DICE_SEED_BASE: Final[int] = 2_500_000_000
"""First seed of the trays of other dice's faces (`vision.synth.other_dice`,
`benchmarks/eval_other_dice.py`), above every set of the profile evaluation."""

TUNING_SEED_BASE: Final[int] = 2_006_000_000
"""First seed of the scenes a threshold of the reader (`vision.read.settings`) is tuned on:
sweeps read these, and a figure reported for the chosen setting is read elsewhere (from
TRUST_REPORT_SEED_BASE, or another range never swept). Ends at CALIBRATION_SEED_BASE."""

CALIBRATION_SEED_BASE: Final[int] = 2_007_000_000
"""First seed of the scenes the reader's calibration is fitted on (`benchmarks/calibrate.py`,
`vision.read.trust`): inside the held-out range, but never a scene whose figures are reported.
Reported trust figures start at TRUST_REPORT_SEED_BASE."""

TRUST_REPORT_SEED_BASE: Final[int] = 2_008_000_000
"""First seed of the scenes the calibrated reader's trust figures are reported on."""


FACE_PROBE_SEED_BASE: Final[int] = 2_600_000_000
"""First seed of the scenes the face probe (`vision.read.face_probe`,
`models.train_face_probe`) is fitted and its threshold chosen on, above the trays of
other dice reported on."""

FACE_PROBE_PART_SPAN: Final[int] = 10_000_000
"""Scenes per part of the face probe's range (`FACE_PROBE_PARTS`)."""

FACE_PROBE_PARTS: Final[tuple[str, ...]] = (
    "fit-phase10-light", "fit-phase10-dark", "fit-other",
    "threshold-phase10-light", "threshold-phase10-dark", "threshold-other",
)
"""The parts of the face probe's range, in seed order: Phase 10 scenes and trays of other
dice in the training fonts to fit it on, then in the held-out fonts to choose its
threshold on."""
