"""The locate stage's thresholds (`vision.read.tops`): `LocateSettings`, a part of the
reader's settings (`vision.read.settings.ReaderSettings.locate`).

Apart from `vision.read.settings` because the locator reads them, and the settings of
the later stages import the locator's `Located`. How each was chosen, and on which
scenes, is in models/LOCATOR_CARD.md ("The locate stage's settings").
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.read.tops_input import NET_WIDTH, ExposureSettings


@dataclass(frozen=True)
class MapCut:
    """How the network's maps are cut into dice."""

    level: float = 0.5
    """A map's probability above which a cell is what the map shows (top, core, hand)."""
    core_peak: float = 0.7
    """A core must be at least this sure somewhere to be a die."""
    min_core_cells: int = 2
    """A core of fewer cells is noise, not a die."""
    box_scale: float = 0.94
    """A top cut at `level` comes out too big: its box is shrunk by this."""


@dataclass(frozen=True)
class HandCheck:
    """When a region of the hand map is a hand reaching over the tray, not a false alarm
    on the table (a glint, a bare patch of wood, a strip of tray wall)."""

    min_dice: float = 3.0
    """It covers, inside the tray, at least this many die tops (at the measured die
    size): a hand or forearm covers several dice, a false alarm one or two."""
    min_width: float = 1.5
    """It is at least this many die sides thick somewhere (twice its largest inner
    distance to its own edge, the frame's border counting as an edge): a palm is wider,
    a strip along the picture's edge, however long, is not."""
    border_cells: int = 2
    """It reaches this close (map cells) to the frame's border: a hand enters the
    picture from its edge, a region floating inside the frame is on the table."""


@dataclass(frozen=True)
class SideFaces:
    """When of two adjacent boxes one is the other die's side face, taken for a top: it
    is clearly darker and nearer the picture's centre (light from above leaves every
    side darker than the top, and the camera sees the centre-facing sides)."""

    near: float = 1.2
    """The two boxes' centres lie within this many die sides."""
    shade: float = 0.88
    """The side face's body is at most this bright relative to the top's."""
    radial: float = 0.6
    """The step from the side face to the top points outward from the picture's centre:
    the cosine of the angle between them is above this."""
    body_ring: tuple[float, float] = (0.6, 0.9)
    """The rim of a face, as shares of its box about its centre, whose commonest grey
    level is its body's: the numeral is printed inside (a bold one fills most of the
    middle), and the box's own edge may hold a little table or shadow."""


@dataclass(frozen=True)
class LocateSettings:
    """Where the dice's top faces are: which boxes of the locator's maps are dice, and
    when a frame is looked at again at another scale or with its levels changed."""

    side_fraction: tuple[float, float] = (0.03, 0.2)
    """A top face's side, as a fraction of the frame's shorter side at the network's
    trained scale, within which a box is a die (a look enlarged or shrunk scales it)."""
    fit_range: tuple[float, float] = (16.0, 32.0)
    """Measured die sides (network input pixels) at which a look fits: the trained size
    (`vision.read.tops.TRAINED_DIE_PX`) with a margin for a box's longest side
    (perspective, the box's own slack); below it dice small enough to come out merged in
    pairs are looked at again enlarged."""
    fit_score: float = 0.9
    """A look fits only when its dice's median score is at least this, and a die scored
    this is sure (`quality`): at the wrong scale the network sees parts or clusters of
    dice and is less sure, though their measured size may look right."""
    no_top: float = 0.25
    """A first look whose top map stays below this everywhere saw no dice of any size:
    no further looks (an empty tray, a blank frame)."""
    merged_pair_px: float = 18.0
    """A first look that fits but finds fewer dice than a roll measuring under this
    (network input pixels, where pairs of dice half the trained size come out as one
    box) is searched at other widths as one that does not fit; a searched look whose
    dice measure this or more keeps its width."""
    near_full_roll: int = 7
    """A first look that fits and finds this many dice, but fewer than a roll, is
    compared with a closer look (`closer_width`): the die or two missing are often on
    the tray wall, in a dim corner or pressed against another, which a closer look
    separates."""
    closer_width: int = NET_WIDTH * 5 // 4
    """The closer look's network input width: dice a quarter larger than at the first."""
    search_widths: tuple[int, ...] = (NET_WIDTH // 2, 2 * NET_WIDTH)
    """Further looks' widths when the first does not fit: half and twice the trained."""
    net_width_range: tuple[int, int] = (96, 1280)
    """Network input widths a rescaled look may use: the low end shows large dice of a
    small photo at the trained size, the high end bounds the work (16 times 320's)."""
    print_share: float = 0.2
    """A look whose boxes measure under this share of another look's sure boxes, and lie
    mostly inside them, found the print on those dice (a pip die's pips), not dice;
    two dice seen as one box measure about half of it."""
    print_pieces: int = 6
    """The most pieces of print one die shows (a six's pips): a box holding more is a
    cluster of small dice seen as one, not a die with its print."""
    maps: MapCut = MapCut()
    """How the network's maps are cut into dice."""
    hand: HandCheck = HandCheck()
    """When a region of the hand map is a hand."""
    side_faces: SideFaces = SideFaces()
    """When a box is a die's side face taken for a top."""
    exposure: ExposureSettings = ExposureSettings()
    """When and how a frame short of dice is looked at with its levels changed."""
