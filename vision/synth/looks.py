"""Dice sets of any look: outline-font numerals, inks spread around the palette, many bodies.

`random_look` takes a table's `Conditions` and gives it one dice set as a
maker might have made it: a font from the given files in an `OutlineStyle`,
the four inks drawn around the palette's colours (each hue kept closer to its
own palette colour than to any other), a body from `BODIES`, a mat that
contrasts with it, and a room light whose white balance is off by up to
`WHITE_BALANCE_SPREAD`. Training passes the training fonts; evaluation passes
fonts training never saw.
"""

from __future__ import annotations

import colorsys
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scorer.dice import COLOUR_LETTERS, COLOUR_RGB
from vision.synth.conditions import Conditions, bgr_tuple, pick_mat
from vision.synth.font_library import Split, font_files
from vision.synth.outline_glyphs import MARKS, OutlineStyle

#: Dice bodies as (name, BGR, dark, share). Light bodies carry the palette's inks;
#: dark ones brighter inks.
BODIES: tuple[tuple[str, tuple[float, float, float], bool, float], ...] = (
    ("white", (245, 245, 245), False, 0.18),
    ("ivory", (222, 240, 248), False, 0.1),
    ("cream", (200, 228, 238), False, 0.07),
    ("light grey", (200, 200, 198), False, 0.06),
    ("pink tint", (228, 226, 250), False, 0.03),
    ("blue tint", (250, 236, 222), False, 0.03),
    ("green tint", (228, 248, 230), False, 0.03),
    ("black", (28, 28, 28), True, 0.2),
    ("charcoal", (55, 52, 50), True, 0.12),
    ("navy", (70, 36, 22), True, 0.1),
    ("dark green", (40, 60, 25), True, 0.04),
    ("wine", (30, 25, 70), True, 0.04),
)

WHITE_BALANCE_SPREAD = 0.25
"""Largest error of the room light's colour, as a gain on blue and red (±25 %)."""

_HUE_SHARE = 0.4
"""An ink's hue stays within this share of the way to the nearest other palette hue."""


@dataclass(frozen=True)
class InkRange:
    """How far a set's inks may stray from the palette: the largest hue offset (degrees;
    never more than `_HUE_SHARE` of the way to the nearest other colour), and the
    saturation as a share of the palette's on dark and on light bodies."""

    hue_cap: float
    dark_saturation: tuple[float, float]
    light_saturation: tuple[float, float]


TABLE_INKS = InkRange(hue_cap=30.0, dark_saturation=(0.55, 1.0), light_saturation=(0.65, 1.1))
"""The inks every evaluation draws (and all the fourth classifier learnt)."""
WIDE_INKS = InkRange(hue_cap=45.0, dark_saturation=(0.35, 1.0), light_saturation=(0.5, 1.1))
"""Wider inks for training only (the fifth classifier drew half its sets in them):
printers' teals, pale yellow-greens on dark bodies and paler inks on light ones, as in
the second renderer's greens the fourth misread. Evaluations keep `TABLE_INKS`, so
their figures stay comparable."""


def _palette_hsv() -> dict[str, tuple[float, float, float]]:
    return {
        letter: colorsys.rgb_to_hsv(*(c / 255.0 for c in COLOUR_RGB[letter]))
        for letter in COLOUR_LETTERS
    }


def _hue_distance(a: float, b: float) -> float:
    d = abs(a - b) % 1.0
    return min(d, 1.0 - d)


def ink_hue_spreads(inks: InkRange = TABLE_INKS) -> dict[str, float]:
    """How far (in degrees) each colour's ink hue may stray from its palette hue."""
    hsv = _palette_hsv()
    spreads = {}
    for letter, (hue, _, _) in hsv.items():
        nearest = min(_hue_distance(hue, h) for other, (h, _, _) in hsv.items() if other != letter)
        spreads[letter] = min(_HUE_SHARE * nearest * 360.0, inks.hue_cap)
    return spreads


def random_inks(
    rng: np.random.Generator, dark_body: bool, inks: InkRange = TABLE_INKS
) -> tuple[tuple[float, float, float], ...]:
    """One set's four inks (BGR, palette order): hue, saturation and lightness all varied."""
    spreads = ink_hue_spreads(inks)
    drawn = []
    for letter, (hue, sat, val) in _palette_hsv().items():
        h = (hue + rng.uniform(-1, 1) * spreads[letter] / 360.0) % 1.0
        if dark_body:
            s = sat * rng.uniform(*inks.dark_saturation)
            v = min(val * rng.uniform(0.95, 1.3), 1.0)
        else:
            s = min(sat * rng.uniform(*inks.light_saturation), 1.0)
            v = min(val * rng.uniform(0.6, 1.12), 1.0)
        r, g, b = colorsys.hsv_to_rgb(h, s, v)
        drawn.append((b * 255.0, g * 255.0, r * 255.0))
    return tuple(drawn)


def random_outline_style(rng: np.random.Generator, font: Path | str) -> OutlineStyle:
    """How one maker sets numerals on a face: size, place, weight, width, slant, marks, wear."""
    return OutlineStyle(
        font=str(font),
        height=float(rng.uniform(0.38, 0.62)),
        weight=float(rng.choice([0.0, rng.uniform(-0.03, 0.06)], p=[0.4, 0.6])),
        width=float(np.exp(rng.normal(0.0, 0.1))),
        slant=float(rng.choice([0.0, rng.uniform(-0.08, 0.2)], p=[0.75, 0.25])),
        dx=float(rng.normal(0.0, 0.02)),
        dy=float(rng.normal(0.0, 0.02)),
        ten_gap=float(rng.uniform(-0.04, 0.2)),
        mark=str(rng.choice(MARKS, p=[0.6, 0.25, 0.15])),
        mark_length=float(rng.uniform(0.35, 1.05)),
        mark_thickness=float(rng.uniform(0.05, 0.14)),
        mark_gap=float(rng.uniform(0.03, 0.16)),
        engraved=float(rng.choice([0.0, rng.uniform(0.15, 0.45)], p=[0.7, 0.3])),
        wear=float(rng.choice([0.0, rng.uniform(0.05, 0.35)], p=[0.8, 0.2])),
        wear_seed=int(rng.integers(1 << 30)),
    )


def random_body(rng: np.random.Generator) -> tuple[tuple[float, float, float], bool]:
    """A body colour from BODIES (by share), jittered a little, and whether it is dark."""
    shares = np.array([share for *_, share in BODIES])
    _, bgr, dark, _ = BODIES[int(rng.choice(len(BODIES), p=shares / shares.sum()))]
    jittered = np.clip(np.asarray(bgr, np.float64) + rng.uniform(-10, 10, 3), 0, 255)
    return bgr_tuple(jittered), dark


def random_white_balance(rng: np.random.Generator) -> tuple[float, float, float]:
    """BGR gains of a room light up to WHITE_BALANCE_SPREAD warm or cool, slightly tinted."""
    temperature = rng.uniform(-WHITE_BALANCE_SPREAD, WHITE_BALANCE_SPREAD)
    tint = rng.uniform(-0.06, 0.06)
    return (1.0 + temperature, 1.0 + tint, 1.0 - temperature)


def random_look(
    rng: np.random.Generator,
    conditions: Conditions,
    fonts: Sequence[Path | str],
    *,
    dark: bool | None = None,
    inks: InkRange = TABLE_INKS,
) -> Conditions:
    """`conditions` with one dice set of random look drawn in one of `fonts`.

    `dark` forces a dark (True) or light (False) body; None draws it from BODIES.
    """
    if not fonts:
        raise ValueError("random_look needs at least one font file")
    body, body_dark = random_body(rng)
    while dark is not None and body_dark != dark:
        body, body_dark = random_body(rng)
    mat, texture = pick_mat(rng, np.asarray(body))
    font = fonts[int(rng.integers(len(fonts)))]
    return dataclasses.replace(
        conditions,
        body_bgr=body,
        body_dark=body_dark,
        mat_bgr=bgr_tuple(mat),
        mat_texture=texture,
        wall_bgr=bgr_tuple(np.clip(mat * rng.uniform(0.6, 1.3), 0, 255)),
        white_balance=random_white_balance(rng),
        glare=float(rng.uniform(0.0, 0.6)),
        artwork=random_outline_style(rng, font),
        inks=random_inks(rng, body_dark, inks),
    )


@dataclass(frozen=True)
class LookMix:
    """Which dice sets a run of scenes shows: a share drawn in `fonts` with `random_look`
    (bodies forced dark or light by `dark`, or drawn), the rest in the Hershey fonts."""

    fonts: tuple[str, ...] = ()
    outline_share: float = 1.0
    dark: bool | None = None
    pip_share: float = 0.0  # sets of pip dice instead (not Phase 10 faces)
    world: bool = False  # tables like real photographs (`random_world`)
    dark_share: float | None = None  # with `dark` None: this share of bodies dark (None: BODIES')
    wide_ink_share: float = 0.0  # share of outline sets with WIDE_INKS (training only)
    steep_share: float = 0.0  # share of training scenes seen by a phone's tipped camera
    lean_share: float | None = None  # share of scenes with dice leaning on the wall (None: the
    # renderer's `placement.TILT_SHARE`; training only)
    aside_share: float = 0.0  # share of the steep views seen from the tray's side (training only)
    handwritten: tuple[str, ...] = ()  # script and hand fonts, drawn `handwritten_share` of
    handwritten_share: float = 0.0  # the outline sets instead of `fonts` (training only)

    def apply(self, rng: np.random.Generator, conditions: Conditions) -> Conditions:
        """`conditions` as one scene of this mix shows them."""
        looked = conditions
        if self.pip_share and rng.random() < self.pip_share:
            looked = random_pip_look(rng, conditions)
        elif self.fonts and rng.random() < self.outline_share:
            dark = self.dark
            if dark is None and self.dark_share is not None:
                dark = bool(rng.random() < self.dark_share)
            wide = bool(self.wide_ink_share) and rng.random() < self.wide_ink_share
            inks = WIDE_INKS if wide else TABLE_INKS
            fonts = self.fonts
            if self.handwritten_share and rng.random() < self.handwritten_share:
                fonts = self.handwritten
            looked = random_look(rng, conditions, fonts, dark=dark, inks=inks)
        return random_world(rng, looked) if self.world else looked


@dataclass(frozen=True)
class EvalGroup:
    """A slice of the evaluation: fonts of one split (None: the Hershey renderer), bodies."""

    key: str
    title: str
    split: Split | None
    dark: bool | None

    def mix(self) -> LookMix:
        """The scenes of this group (MissingFontError naming the package when fonts lack)."""
        if self.split is None:
            return LookMix()
        return LookMix(tuple(str(path) for path in font_files(self.split)), 1.0, self.dark)


#: The groups figures are reported by: fonts never trained on first.
EVAL_GROUPS: tuple[EvalGroup, ...] = (
    EvalGroup("held-out-light", "held-out fonts, light bodies", Split.HELD_OUT, False),
    EvalGroup("held-out-dark", "held-out fonts, dark bodies", Split.HELD_OUT, True),
    EvalGroup("train-light", "training fonts, light bodies", Split.TRAIN, False),
    EvalGroup("train-dark", "training fonts, dark bodies", Split.TRAIN, True),
    EvalGroup("hershey", "Hershey fonts (the first renderer)", None, None),
    EvalGroup("handwritten-light", "scripts and hands never trained on, light bodies",
              Split.HANDWRITTEN, False),
    EvalGroup("handwritten-dark", "scripts and hands never trained on, dark bodies",
              Split.HANDWRITTEN, True),
)


def eval_group(key: str) -> EvalGroup:
    """The EVAL_GROUPS entry named `key` (ValueError listing the keys otherwise)."""
    for group in EVAL_GROUPS:
        if group.key == key:
            return group
    known = ", ".join(group.key for group in EVAL_GROUPS)
    raise ValueError(f"unknown evaluation group {key!r}: expected one of {known}")


#: Surfaces of tables in real photographs, with their shares: the first renderer's
#: mats and more (woven cloth, stone, and photographs scikit-image ships).
WORLD_SURFACES: tuple[tuple[str, float], ...] = (
    ("felt", 0.15),
    ("wood", 0.2),
    ("speckle", 0.1),
    ("plain", 0.1),
    ("cloth", 0.15),
    ("marble", 0.1),
    ("photo", 0.2),
)
TABLETOP_SHARE = 0.5
"""Share of real-world scenes with no tray: the dice lie on the table itself."""
OBLIQUE_SHARE = 0.4
"""Share of real-world scenes seen by a camera standing off to one side of the dice."""
LOW_CONTRAST_SHARE = 0.3
"""Share of real-world scenes whose table is close to the dice's colour (a pale desk)."""


def random_pip_look(rng: np.random.Generator, conditions: Conditions) -> Conditions:
    """A set of pip dice (not Phase 10 dice): white with dark pips, or coloured with white."""
    from vision.synth.pips import PipStyle

    if rng.random() < 0.7:
        body, dark = random_body(rng)
        while dark:
            body, dark = random_body(rng)
        ink = bgr_tuple(rng.uniform(10, 60, 3))
    else:
        body = bgr_tuple(rng.uniform(20, 200, 3))
        dark = True
        ink = (240.0, 240.0, 240.0)
    mat, texture = pick_mat(rng, np.asarray(body))
    style = PipStyle(
        radius=float(rng.uniform(0.07, 0.11)),
        spread=float(rng.uniform(0.85, 1.05)),
        engraved=float(rng.uniform(0.0, 0.5)),
    )
    return dataclasses.replace(
        conditions,
        body_bgr=body,
        body_dark=dark,
        mat_bgr=bgr_tuple(mat),
        mat_texture=texture,
        artwork=style,
        inks=(ink,) * 4,
    )


def random_world(rng: np.random.Generator, conditions: Conditions) -> Conditions:
    """`conditions` on a table like those in real photographs: many surfaces, often no
    tray, things at the edges, dice from 30 to 120 pixels across at 1280x960."""
    names = [name for name, _ in WORLD_SURFACES]
    shares = np.array([share for _, share in WORLD_SURFACES])
    surface = names[int(rng.choice(len(names), p=shares / shares.sum()))]
    short = 960.0
    scale = float(np.exp(rng.uniform(np.log(0.04 * short), np.log(0.12 * short))))
    changes: dict = {
        "mat_texture": surface,
        "mat_texture_strength": float(rng.uniform(0.05, 0.2)),
        "scale": scale,
        "clutter": int(rng.choice([0, 1, 2, 3], p=[0.35, 0.35, 0.2, 0.1])),
    }
    if rng.random() < TABLETOP_SHARE:
        changes["tray_inset"] = -(conditions.wall_width * scale) / short - 0.05
    if rng.random() < OBLIQUE_SHARE:  # a webcam on the desk: every die shows its near sides
        direction = rng.uniform(0, 2 * np.pi)
        height = float(rng.uniform(8.0, 20.0))  # die edges above the table
        off = height * np.tan(np.radians(rng.uniform(15, 40))) * scale  # pixels aside
        changes["camera_shift"] = (
            float(np.cos(direction) * off / 1280.0),
            float(np.sin(direction) * off / short),
        )
        changes["camera_height"] = height
    if rng.random() < LOW_CONTRAST_SHARE:  # white dice on a pale desk, dark on dark
        body = np.asarray(conditions.body_bgr)
        changes["mat_bgr"] = tuple(
            float(c)
            for c in np.clip(body * rng.uniform(0.6, 0.95) + rng.uniform(-25, 25, 3), 0, 255)
        )
    return dataclasses.replace(conditions, **changes)
