"""The reader's thresholds, stage by stage, in one place.

`DiceReader` takes a `ReaderSettings`; each stage reads only its own part. The defaults
are the shipped reader's. How each was chosen, and on which scenes (the tuning seeds,
`vision.synth.seeds.TUNING_SEED_BASE`, and the desk photos of ../shared/realdata), is
in models/MODEL_CARD.md ("The reader's settings"), never in the code; the locate
stage's (`vision.read.locate_settings`, apart because the locator reads them) in
models/LOCATOR_CARD.md ("The locate stage's settings").
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.read.body_check import BodyCheck
from vision.read.die_shape import DieShape
from vision.read.focus import FocusSettings
from vision.read.locate_settings import LocateSettings


@dataclass(frozen=True)
class ClassifySettings:
    """How the classifier reads each located box."""

    turns: int = 1
    """Quarter turns of each crop read and averaged (1 to 4)."""
    second_look_turns: tuple[int, ...] = (1, 3)
    """The quarter turns of a doubtful crop's second look (the first look is turn 0)."""
    focus: FocusSettings = FocusSettings()
    """When a frame is soft, and how its crops are sharpened for the classifier."""

    def __post_init__(self) -> None:
        if not 1 <= self.turns <= 4:
            raise ValueError(f"turns must be 1 to 4, got {self.turns}")


@dataclass(frozen=True)
class SortSettings:
    """Which located boxes are dice to decode, dice to list unreadable, or not dice."""

    min_face_prob: float = 0.5
    """A box the classifier believes a Phase 10 face less than this is not read as one."""
    legible_below_face: float = 0.9
    """A die found for sure that the classifier doubts as a face (a die at the frame's
    edge, its sides in the crop), whose value and colour it reads at least this surely,
    is read, marked unsure, rather than listed unreadable."""
    sure_face: float = 0.9
    """A box read as one face with at least this probability is never judged by its
    shape or its body."""
    unreadable: DieShape = DieShape(min_score=0.8, max_aspect=1.4, side_range=(0.7, 1.7))
    """A box the classifier rejects is listed as an unreadable die when it fits this."""
    doubtful_face: DieShape = DieShape(min_score=0.75, max_aspect=1.5, side_range=(0.7, 1.4),
                                       long_score=0.9)
    """A box read as a face, not for sure, is a die only when it fits this."""
    body: BodyCheck = BodyCheck()
    """When a box's body is unlike the set's (`vision.read.body_check`)."""


@dataclass(frozen=True)
class ColourSettings:
    """What weighs each die's colour besides the classifier."""

    frame_inks: bool = True
    """Weigh each die's ink against the frame's other dice (`vision.read.frame_colours`)."""
    ink_order: bool = True
    """Mend distinct inks read as one colour (`vision.read.ink_order`; only with frame_inks)."""


@dataclass(frozen=True)
class ReaderSettings:
    """Every stage's settings: locate, classify, sort out, colour, decode."""

    classify: ClassifySettings = ClassifySettings()
    locate: LocateSettings = LocateSettings()
    sort: SortSettings = SortSettings()
    colour: ColourSettings = ColourSettings()
    use_inventory: bool = True
    """Decode the roll against the dice table (False: each die on its own)."""
