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
from enum import Enum

from vision.read.body_check import BodyCheck
from vision.read.die_shape import DieShape
from vision.read.focus import FocusSettings
from vision.read.locate_settings import LocateSettings


@dataclass(frozen=True)
class TopSearchSettings:
    """Which boxes are searched for the top they hold, and where (`vision.read.top_search`):
    a die seen at a slant boxed with its sides. Off as shipped (`above` None)."""

    above: float | None = None
    """A box more than this times the side the dice have where it lies
    (`vision.read.die_shape.SizeByPlace`) is searched; None (shipped): never. Measured at
    1.1, not shipped (models/MODEL_CARD.md, "A die boxed with its sides")."""
    scales: tuple[float, ...] = (0.7, 0.8)
    """The sizes, as shares of the box, of the closer quads tried inside it."""
    steps: int = 3
    """Places tried along each of the box's two axes for each size."""
    gain: float = 0.0
    """How much more surely (`vision.read.top_search.face_scores`) a closer quad must read
    as one face than the box as found to be kept in its place."""
    read_there: bool = False
    """Whether the die is also read from the quad found (True), or only placed there, its
    reading the box's as found (False). Read there, a leaning die's side face, boxed with
    its top and tightened onto, is read more surely than from its box, and more such dice
    were shown as sure (models/MODEL_CARD.md, "A die boxed with its sides")."""
    most: int = 4
    """The most boxes of one frame searched, the largest first: a frame whose every box
    is that large is seen too close or too steep for a closer look to pay."""

    def __post_init__(self) -> None:
        if self.above is not None and self.above < 1.0:
            raise ValueError(f"above must be at least 1 (or None), got {self.above}")
        if not self.scales or not all(0.3 <= scale < 1.0 for scale in self.scales):
            raise ValueError(f"scales must each be 0.3 to under 1, got {self.scales}")
        if not 0.0 <= self.gain < 1.0:
            raise ValueError(f"gain must be 0 to under 1, got {self.gain}")
        if self.steps < 1 or self.most < 0:
            raise ValueError(f"steps must be at least 1 and most not negative, got "
                             f"{self.steps}, {self.most}")


class KeptLook(Enum):
    """Which of two readings of the same picture a second look keeps."""

    SURER = "surer"
    """More dice found, then the one with fewer dice in doubt: the surer of two
    readings, whose confidence the calibration (fitted on single readings) overstates."""
    MORE_DICE = "more dice"
    """The later reading only where it finds more dice (a roll where the first found
    more than ten, fewer); else the first: which reading is kept says nothing about how
    sure it is."""


@dataclass(frozen=True)
class SecondLookSettings:
    """When a reading that is not a whole roll read sure is read once more, with the
    locator looking at the dice's own size (`vision.read.looks`)."""

    frames: bool = False
    """Whether the camera's frames (`DiceReader.read`) take the second look; off as
    shipped: measured, not shipped (models/MODEL_CARD.md, "A second look at the dice's
    size for the camera's frames"). Photos take theirs in `vision.read.photo`, as
    `PhotoSettings` says."""
    first_look_range: tuple[float, float] = (19.0, 23.5)
    """Dice measuring within this (pixels of the locator's usual 320-wide input) are
    looked at again `finer_look` finer; outside it, at the width that shows them at the
    locator's trained size."""
    finer_look: float = 1.5
    """Small dice, and a reading within `first_look_range`, are looked at again at least
    this much finer than the first look: a look that missed small dice measures the ones
    it found too large."""
    keeps: KeptLook = KeptLook.SURER
    """Which reading is kept (`vision.read.looks.better_reading`)."""

    def __post_init__(self) -> None:
        low, high = self.first_look_range
        if not 0 < low <= high or self.finer_look < 1.0:
            raise ValueError(f"first_look_range must be positive and ordered and finer_look "
                             f"at least 1, got {self.first_look_range}, {self.finer_look}")


@dataclass(frozen=True)
class FlattenSettings:
    """When a frame taken at a slant is put back flat before it is read, from the sizes of
    its dice (`vision.read.flatten`). Off as shipped (`above_degrees` None)."""

    above_degrees: float | None = None
    """A frame whose dice show a camera tipped more than this is read flat; None
    (shipped): never. Measured at 12, not shipped (models/MODEL_CARD.md, "A steep frame
    put back flat from its own dice")."""
    focal_widths: float = 1.0
    """The lens assumed, its focal length over the frame's width (a phone's main camera
    is about 0.7 to 0.9, this project's renderer 1.2, the second renderer's 0.86)."""
    min_dice: int = 5
    """Fewer boxes than this tell no tilt."""
    rounds: int = 4
    """Rounds of the reweighted fit of the dice's sizes."""
    margin: float = 1.0
    """Die sides kept round the dice in the flat frame."""

    def __post_init__(self) -> None:
        if self.above_degrees is not None and not 0.0 <= self.above_degrees < 90.0:
            raise ValueError(f"above_degrees must be 0 to under 90 (or None), got "
                             f"{self.above_degrees}")
        if self.focal_widths <= 0 or self.min_dice < 3 or self.rounds < 1 or self.margin < 0:
            raise ValueError("focal_widths must be positive, min_dice at least 3, rounds at "
                             "least 1 and margin not negative")


@dataclass(frozen=True)
class ClassifySettings:
    """How the classifier reads each located box."""

    turns: int = 1
    """Quarter turns of each crop read and averaged (1 to 4)."""
    box_scale: float = 0.9
    """Each located box scaled by this about its centre before its crop is cut. The
    locator's boxes run a little past the top, onto the sides a tipped camera sees, while
    the classifier learnt from crops cut at the true top."""
    whole_box_kept: bool = True
    """A box the scaled crop's reading would leave out (neither a die nor an unreadable
    one) is read again from the whole box: off the top, the numeral may lie at its edge."""
    second_look_turns: tuple[int, ...] = (1, 3)
    """The quarter turns of a doubtful crop's second look (the first look is turn 0)."""
    focus: FocusSettings = FocusSettings()
    """When a frame is soft, and how its crops are sharpened for the classifier."""
    top_search: TopSearchSettings = TopSearchSettings()
    """Which oversized boxes are searched for the top they hold (off as shipped)."""

    def __post_init__(self) -> None:
        if not 1 <= self.turns <= 4:
            raise ValueError(f"turns must be 1 to 4, got {self.turns}")
        if not 0.5 <= self.box_scale <= 1.5:
            raise ValueError(f"box_scale must be 0.5 to 1.5, got {self.box_scale}")


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
class FrameInkSettings:
    """How each die's ink is weighed against the inks of the frame's other dice
    (`vision.read.frame_inks.frame_ink_evidence`). The frame network
    (`vision.read.frame_colours`) reads this evidence among its inputs; it was trained on
    the shipped values."""

    sigma: float = 0.2
    """Spread of one ink's chroma between the dice of one frame (log units): a die's ink
    this far from a colour's frame reference costs that colour 0.5 in log-likelihood."""
    unseen: float = -1.125
    """Evidence for a colour no other die of the frame carries (-1.125: as if 1.5 sigma
    from it), so a lone die's reading stays near the classifier's."""
    min_weight: float = 0.8
    """A colour's frame reference needs this much classifier belief among the other dice."""
    rounds: int = 2
    """Rounds of re-weighting the references by the updated colour beliefs."""
    degrees: float = 10.0
    """Degrees of freedom of every ink likelihood (`vision.read.ink_likelihood`): small is
    heavy-tailed, so an ink lost to glare or a side face says little; large is the
    Gaussian."""


@dataclass(frozen=True)
class InkOrderSettings:
    """When distinct inks read as one colour are mended (`vision.read.ink_order`)."""

    min_ink: float = 0.15
    """Dice whose ink lies at least this far from the body (`ink_chroma` plane units) are
    grouped by ink direction; a paler print's direction is too noisy to tell inks apart."""
    solid_ink: float = 0.3
    """A group's mean ink must lie this far from the body to count in a contradiction or
    to be moved."""
    split_degrees: float = 25.0
    """Ink directions this far apart (degrees) or more start a new group of inks."""
    min_moved: int = 2
    """The fewest dice a group must hold to be moved to another colour: one die's ink is
    too weak a witness against the classifier."""
    contradicted_confidence: float = 0.5
    """The most a moved die's posterior may be: even odds between the colour read and the
    one it was moved to, whatever the dice table makes of them, so the die is marked
    (models/MODEL_CARD.md, "Dice whose inks contradict the set, marked")."""
    moved_margin: float = 0.0
    """A moved die's belief in its new colour is raised until it beats every other family
    by this much (log-odds). At 0 it draws level with the colour read: the frame's order
    says the reading contradicts the set, not for sure which ink is which (a glint or a
    body near the ink's own hue turns an ink's direction), so the decoder weighs the two
    (and `contradicted_confidence` marks the die). Made sure at 19 to 1 instead, the moves
    that went wrong on rendered scenes were read wrong without a mark."""


@dataclass(frozen=True)
class ColourSettings:
    """What weighs each die's colour besides the classifier."""

    frame_inks: bool = True
    """Weigh each die's ink against the frame's other dice (`vision.read.frame_colours`)."""
    ink_order: bool = True
    """Mend distinct inks read as one colour (`vision.read.ink_order`; only with frame_inks)."""
    frame: FrameInkSettings = FrameInkSettings()
    """How a die's ink is weighed against the frame's other dice."""
    order: InkOrderSettings = InkOrderSettings()
    """When distinct inks read as one colour are mended."""


@dataclass(frozen=True)
class DecodeSettings:
    """How the decoder turns each die's face probabilities into a face (`vision.read.decode`)."""

    unsure_below: float = 0.8
    """Below this posterior a face is reported unsure (shown to the players to confirm)."""
    min_matched_face_prob: float = 0.01
    """A matching to the dice table that needs a face the classifier gave less than this
    is not believed: the table is an unconfirmed transcription, and a set laid out
    otherwise must not be bent to fit it."""
    min_composed_face_prob: float = 0.002
    """The same for the composition (at most six high, four low dice), which holds for
    every Phase 10 set, so it is trusted down to faces given far less."""
    overturn_sure: float | None = 0.95
    """A die the table's matching reads otherwise than the composition alone does, where
    the composition's reading of it has at least this posterior, is doubted: a face the
    die's own evidence (and the frame's) is sure of is not overturned by the unconfirmed
    table without the players' look (models/MODEL_CARD.md, "Dice laid out otherwise than
    the table"). None: the table's matching is taken as it is."""
    overturned_confidence: float = 0.5
    """The most such a die's posterior may be: even odds, so it is marked."""
    alternatives: int = 3
    """Runner-up faces reported with each die, at most."""
    min_alternative: float = 0.01
    """A runner-up face is reported only with at least this posterior."""
    likely_floor: float = 1e-4
    """A face with at least this posterior is one a doubted die may truly show
    (`ReadDie.likely`): the scorepad tries only those where the posterior can tell. Chosen
    on the calibration scenes, where 1 doubted die in 1,441 showed a face under it
    (MODEL_CARD.md)."""
    likely_below: float = 0.999
    """The posterior tells which faces a doubted die may show only where it doubts the die
    itself (the value's posterior for a value doubt, the face's for a colour doubt, under
    this), the box is not doubted and the face is legible. A die marked for its box or its
    kind, or read at this or more, is read as surely when it is wrong as when it is right,
    and may show any face."""


@dataclass(frozen=True)
class ReaderSettings:
    """Every stage's settings: locate, classify, sort out, colour, decode."""

    classify: ClassifySettings = ClassifySettings()
    locate: LocateSettings = LocateSettings()
    sort: SortSettings = SortSettings()
    colour: ColourSettings = ColourSettings()
    decode: DecodeSettings = DecodeSettings()
    use_inventory: bool = True
    """Decode the roll against the dice table (False: each die on its own)."""
    flatten: FlattenSettings = FlattenSettings()
    """Whether a steep frame is put back flat before it is read (off as shipped)."""
    second_look: SecondLookSettings = SecondLookSettings()
    """Whether a frame not read as a whole roll sure is looked at again at its dice's size
    (off as shipped)."""
