"""Trays of ten dice drawn by a second, independent renderer: evaluation only.

Every model here was trained on `vision.synth` scenes, so figures measured on that
renderer, even in held-out fonts, cannot tell a reader that learnt dice from one
that learnt the renderer. This module draws a tray by other means and shares no
drawing code with `vision.synth`: numerals set by Pillow straight onto a face tile
(no stroke weights, marks or wear of `OutlineStyle`), inks taken from printers'
reference colours rather than spread around the palette, a cube seen from above
as its top face plus the side faces the camera's offset shows, table cloths
(felt, wood, paper, slate) and lamps (a gradient, soft shadows, a highlight,
white balance, blur, noise, JPEG) of its own. Fonts are the held-out split
(`Split.HELD_OUT`) less the files too thin for a die, never a reserved family.
Nothing is tuned on these scenes: `benchmarks/eval_foreign.py` reads them and
reports.

Pillow and the held-out font packages are needed (the dev extra; `models/install_fonts.sh
--held-out`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from scorer.dice import (
    COLOUR_LETTERS,
    HIGH_DICE,
    HIGH_VALUES,
    LOW_DICE,
    LOW_VALUES,
    PHYSICAL_DICE,
    Die,
)
from vision.synth.font_library import Split, font_files, is_reserved
from vision.synth.outline_glyphs import MIN_STROKE, stroke_width

SIZE = (1280, 960)
"""Frame width and height, as the Pi camera gives them."""

#: Printers' reference inks per colour letter (RGB): what a maker picks from a swatch
#: book, not the palette spread. A set takes one of each, jittered a little.
INKS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "R": ((200, 16, 46), (218, 41, 28), (186, 12, 47), (228, 0, 43), (166, 25, 46)),
    "O": ((255, 130, 0), (244, 123, 32), (255, 106, 19), (237, 139, 0), (250, 100, 0)),
    "G": ((0, 154, 68), (0, 132, 61), (67, 176, 42), (0, 122, 83), (80, 158, 47)),
    "B": ((0, 51, 160), (30, 90, 168), (0, 114, 206), (0, 56, 168), (20, 70, 140)),
}

#: Dice bodies (RGB) and whether they are dark (inks printed brighter on them).
BODIES: tuple[tuple[tuple[int, int, int], bool], ...] = (
    ((250, 250, 246), False),
    ((244, 236, 214), False),
    ((232, 232, 228), False),
    ((20, 20, 22), True),
    ((30, 36, 64), True),
    ((58, 58, 60), True),
)

#: Table cloths: (kind, RGB).
CLOTHS: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("felt", (20, 90, 50)),
    ("felt", (40, 60, 120)),
    ("felt", (120, 30, 40)),
    ("wood", (150, 100, 60)),
    ("wood", (90, 60, 40)),
    ("paper", (215, 215, 210)),
    ("slate", (60, 64, 70)),
)

SIDES = (52.0, 78.0)
"""Smallest and largest side of a die's top in pixels (the Pi camera over a tray)."""

FOCAL = 1100.0
"""The camera's focal length in pixels (about 60 degrees across the frame's width)."""


@dataclass(frozen=True)
class ForeignView:
    """How the camera sees the tray: from straight above as the Pi does, or as a phone held
    over it, tipped up to `max_tilt` degrees towards a side drawn at random.

    `sides`: a die top's side before the tilt foreshortens it (None: `SIDES`);
    `white_balance`: each channel's gain is drawn within 1 +- this; `spacing`: the least
    distance between dice, in sides (a tipped camera shows more of each die's side)."""

    name: str
    sides: tuple[float, float] | None = None
    max_tilt: float = 0.0
    white_balance: float = 0.15
    spacing: float = 1.9


UPRIGHT = ForeignView("upright")
"""The Pi camera straight above the tray (the trays every earlier figure was read on)."""

PHONE = ForeignView("phone", sides=(44.0, 70.0), max_tilt=35.0, white_balance=0.3,
                    spacing=2.2)
"""A phone held over the tray: tipped up to 35 degrees, dice tops about 40 to 72 px, the
white balance off by up to 30 %, as the issue on trust asks the reader to be measured."""

VIEWS = {view.name: view for view in (UPRIGHT, PHONE)}

FIRST_SEEDS = {"upright": 7_000_000, "phone": 7_800_000}
"""Each view's first reported seed: trays seen as a phone sees them have a range of their
own (those from 7,850,000 are for looking into what goes wrong, never reported)."""

_TILE = 192
"""Side of a face tile before it is warped onto the frame (supersampled)."""


@dataclass(frozen=True)
class ForeignDie:
    """Ground truth for one die, as `vision.evaluation.score_reading` reads it."""

    die: Die
    centre: tuple[float, float]
    corners: np.ndarray  # (4, 2) top face corners, reading order of the numeral


@dataclass(frozen=True)
class ForeignSet:
    """One maker's dice: font, body, inks (RGB by colour letter) and how faces are set."""

    font: str
    body: tuple[float, float, float]
    dark: bool
    inks: tuple[tuple[str, tuple[float, float, float]], ...]
    glyph: float  # numeral height, share of the face
    bar: bool  # 6 and 9 underlined (else a dot)
    bar_half: float  # half the underline's length, share of the numeral's width
    corner: float  # corner radius, share of the face

    def ink(self, letter: str) -> np.ndarray:
        return np.asarray(dict(self.inks)[letter], np.float32)


@dataclass(frozen=True)
class ForeignScene:
    """A frame (BGR uint8), its dice and the look it was drawn with."""

    image: np.ndarray
    dice: tuple[ForeignDie, ...]
    font: str
    dark: bool


@lru_cache(maxsize=1)
def fonts() -> tuple[str, ...]:
    """The held-out fonts whose digits a maker could print: strokes at least MIN_STROKE
    of the digit height (Hairline and Thin files vanish at a die's size)."""
    from PIL import Image, ImageDraw

    printable = []
    for path in map(str, font_files(Split.HELD_OUT)):
        if is_reserved(path):  # font_files refuses them; say so again
            raise ValueError(f"{path} is reserved and may not be drawn")
        canvas = Image.new("L", (800, 320), 0)
        ImageDraw.Draw(canvas).text((20, 20), "1470", fill=255, font=_pil_font(path, 200))
        ink = np.asarray(canvas)
        rows = np.flatnonzero(ink.max(axis=1) > 127)
        if rows.size and stroke_width(ink) >= MIN_STROKE * (rows[-1] - rows[0] + 1):
            printable.append(path)
    return tuple(printable)


@lru_cache(maxsize=64)
def _pil_font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def _face_tile(value_text: str, marked: bool, dice_set: ForeignSet, ink: np.ndarray, rng):
    """(T, T, 4) float32 RGBA face: body with rounded corners, the numeral in ink."""
    from PIL import Image, ImageDraw

    body = np.asarray(dice_set.body, np.float32)
    pil = _pil_font(dice_set.font, int(_TILE * dice_set.glyph))
    canvas = Image.new("L", (_TILE, _TILE), 0)
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = draw.textbbox((0, 0), value_text, font=pil)
    width, height = right - left, bottom - top
    mark_room = int(0.16 * height) if marked else 0
    x = (_TILE - width) / 2 - left + rng.normal(0, 2)
    y = (_TILE - height - mark_room) / 2 - top + rng.normal(0, 2)
    draw.text((x, y), value_text, fill=255, font=pil)
    if marked:  # an underline or a dot, so 6 and 9 read the right way up
        y0 = y + top + height + 0.06 * height
        if dice_set.bar:
            half = width * dice_set.bar_half
            draw.rectangle(
                (_TILE / 2 - half, y0, _TILE / 2 + half, y0 + max(0.08 * height, 3)), fill=255
            )
        else:
            r = max(0.06 * height, 3)
            draw.ellipse((_TILE / 2 - r, y0, _TILE / 2 + r, y0 + 2 * r), fill=255)
    cover = np.asarray(canvas, np.float32)[..., None] / 255.0
    rgb = body[None, None, :] * (1 - cover) + ink[None, None, :] * cover
    alpha = np.zeros((_TILE, _TILE), np.uint8)
    radius = int(_TILE * dice_set.corner)
    cv2.rectangle(alpha, (radius, 0), (_TILE - 1 - radius, _TILE - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (_TILE - 1, _TILE - 1 - radius), 255, -1)
    for cx in (radius, _TILE - 1 - radius):
        for cy in (radius, _TILE - 1 - radius):
            cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    # a soft bevel: the face darkens towards its rim
    rim = cv2.GaussianBlur(alpha.astype(np.float32) / 255.0, (0, 0), _TILE * 0.04)
    shade = 0.8 + 0.2 * rim[..., None]
    return np.dstack([rgb * shade, alpha.astype(np.float32) / 255.0]).astype(np.float32)


def _cloth(kind: str, rgb: Sequence[int], rng) -> np.ndarray:
    """(H, W, 3) float32 RGB table of one cloth kind."""
    width, height = SIZE
    base = np.asarray(rgb, np.float32) * rng.uniform(0.85, 1.15, 3)
    noise = cv2.resize(
        rng.normal(0, 1, (height // 8, width // 8)).astype(np.float32), (width, height)
    )
    if kind == "wood":
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        angle = rng.uniform(0, np.pi)
        u = xs * np.cos(angle) + ys * np.sin(angle)
        grain = np.sin(u / rng.uniform(6, 14) + 3 * noise) * 0.12
        field = 1 + grain
    elif kind == "felt":
        field = 1 + 0.05 * noise + rng.normal(0, 0.03, (height, width)).astype(np.float32)
    elif kind == "paper":
        field = 1 + 0.02 * noise
    else:  # slate
        field = 1 + 0.1 * noise
    return np.clip(base[None, None, :] * field[..., None], 0, 255)


def _positions(count: int, side: float, rng, spacing: float = 1.9
               ) -> list[tuple[float, float]]:
    """`count` centres inside the tray, each at least `spacing` sides from the others."""
    width, height = SIZE
    margin = 1.2 * side
    for _ in range(50):  # start again when a die finds no room
        placed: list[tuple[float, float]] = []
        while len(placed) < count:
            for _ in range(2000):
                x = rng.uniform(0.12 * width + margin, 0.88 * width - margin)
                y = rng.uniform(0.1 * height + margin, 0.9 * height - margin)
                if all(np.hypot(x - px, y - py) > spacing * side for px, py in placed):
                    placed.append((x, y))
                    break
            else:
                break
        if len(placed) == count:
            return placed
    raise ValueError(f"{count} dice of {side:.0f} pixels do not fit in a {width}x{height} tray")


def _roll(rng) -> list[Die]:
    """One face of each physical die: a roll the inventory allows."""
    return [die.faces[int(rng.integers(len(die.faces)))] for die in PHYSICAL_DICE]


def _any_roll(rng) -> list[Die]:
    """Six high faces and four low ones in any colours: a roll of a set whose faces are
    laid out otherwise than the inventory table says (it is an unconfirmed transcription)."""
    def face(values: Sequence[int]) -> Die:
        return Die(int(rng.choice(values)), str(rng.choice(COLOUR_LETTERS)))

    return [face(HIGH_VALUES) for _ in range(HIGH_DICE)] + [
        face(LOW_VALUES) for _ in range(LOW_DICE)
    ]


@dataclass(frozen=True)
class _TippedCamera:
    """A camera at `position` (tray pixels about the tray's centre, negative z above it),
    turned by `rotation` (world to camera) to look at the centre. The tray is drawn as the
    camera straight above would see it; `photograph` then maps it to this camera."""

    rotation: np.ndarray  # (3, 3) world to camera
    position: np.ndarray  # (3,) in tray pixels about the centre, negative z above

    def lean(self, centre: tuple[float, float], side: float) -> np.ndarray:
        """Where a die's foot lies from its top, in sides, drawn on the tray's plane: the
        top is drawn where the camera's ray through it meets the tray."""
        half = np.array(SIZE, np.float64) / 2
        top = np.array([*(np.asarray(centre) - half), -side])
        reach = self.position[2] / (self.position[2] - top[2])
        meets = self.position + (top - self.position) * reach
        return (top[:2] - meets[:2]) / side

    def homography(self) -> np.ndarray:
        """The tray's plane as drawn (pixels) to this camera's frame (pixels), the tray's
        middle kept in the middle of the frame."""
        half = np.array(SIZE, np.float64) / 2
        intrinsic = np.array([[FOCAL, 0, half[0]], [0, FOCAL, half[1]], [0, 0, 1]])
        # (x, y, 0) - position = rotation.T @ ... : the plane's points in camera terms
        plane = np.column_stack([self.rotation[:, 0], self.rotation[:, 1],
                                 -self.rotation @ self.position])
        shift = np.array([[1, 0, -half[0]], [0, 1, -half[1]], [0, 0, 1]])
        matrix = intrinsic @ plane @ shift
        middle = cv2.perspectiveTransform(half.reshape(1, 1, 2), matrix).reshape(2)
        recentre = np.array([[1, 0, half[0] - middle[0]], [0, 1, half[1] - middle[1]],
                             [0, 0, 1]])
        return recentre @ matrix / matrix[2, 2]

    def photograph(self, image: np.ndarray, truth: list[ForeignDie],
                   beyond: np.ndarray) -> tuple[np.ndarray, list[ForeignDie]]:
        """The tray as this camera frames it, `beyond` (the bare cloth, as lit) where the
        frame reaches past the drawn tray, and each die's top where the frame shows it."""
        matrix = self.homography()
        seen = cv2.warpPerspective(image, matrix, SIZE, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        cover = cv2.warpPerspective(np.ones(image.shape[:2], np.float32), matrix, SIZE,
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                    borderValue=0)[..., None]
        seen = seen + (1 - cover) * beyond
        moved = []
        for die in truth:
            corners = cv2.perspectiveTransform(
                die.corners.reshape(1, 4, 2).astype(np.float64), matrix).reshape(4, 2)
            moved.append(ForeignDie(die.die, tuple(float(v) for v in corners.mean(axis=0)),
                                    corners.astype(np.float32)))
        return seen, moved


def _camera(seed: int, view: ForeignView) -> _TippedCamera | None:
    """The tipped camera of `seed`'s tray (its own draw, so that the upright trays stay as
    they were); None for a camera straight above."""
    if view.max_tilt <= 0:
        return None
    rng = np.random.default_rng([seed, 2026])
    tilt = np.radians(rng.uniform(0, view.max_tilt))
    heading = rng.uniform(0, 2 * np.pi)
    axis = np.array([np.cos(heading), np.sin(heading), 0.0])
    turn, _ = cv2.Rodrigues(axis * tilt)
    position = turn @ np.array([0.0, 0.0, -FOCAL])
    return _TippedCamera(rotation=turn.T, position=position)


def foreign_set(seed: int, *, dark: bool | None = None) -> ForeignSet:
    """The dice set of `seed`: a held-out font, a body (dark or light when `dark` says),
    one printer's ink per colour, and how the maker sets the faces."""
    rng = np.random.default_rng([seed, 2025])
    files = fonts()
    font = files[int(rng.integers(len(files)))]
    bodies = [b for b in BODIES if dark is None or b[1] == dark]
    body, body_dark = bodies[int(rng.integers(len(bodies)))]
    inks = []
    for letter, swatches in INKS.items():
        ink = np.asarray(swatches[int(rng.integers(len(swatches)))], np.float64)
        ink = ink * rng.uniform(0.92, 1.08, 3)
        if body_dark:  # printed brighter (or over a white underlay) on a dark body
            ink = ink + (255 - ink) * rng.uniform(0.1, 0.3)
        inks.append((letter, tuple(float(c) for c in np.clip(ink, 0, 255))))
    return ForeignSet(
        font=font,
        body=tuple(float(c) for c in body),
        dark=body_dark,
        inks=tuple(inks),
        glyph=float(rng.uniform(0.42, 0.6)),
        bar=bool(rng.random() < 0.6),
        bar_half=float(rng.uniform(0.3, 0.5)),
        corner=float(rng.uniform(0.08, 0.2)),
    )


def foreign_scene(
    seed: int,
    *,
    dark: bool | None = None,
    dice_set: ForeignSet | None = None,
    any_faces: bool = False,
    view: ForeignView = UPRIGHT,
) -> ForeignScene:
    """The tray of `seed`: ten dice of one set on one cloth under one lamp.

    `dice_set`: the set rolled (None: the set of this seed, with bodies dark or light
    as `dark` says, either when None). `any_faces`: the dice show any six high and four
    low faces, not a roll of the inventory table's dice. `view`: how the camera sees
    the tray (`UPRIGHT` draws exactly the trays it drew before views were added)."""
    rng = np.random.default_rng([seed, 2024])
    camera = _camera(seed, view)
    if dice_set is None:
        dice_set = foreign_set(seed, dark=dark)
    body = np.asarray(dice_set.body, np.float32)
    kind, cloth_rgb = CLOTHS[int(rng.integers(len(CLOTHS)))]
    image = _cloth(kind, cloth_rgb, rng)
    bare = image.copy() if camera is not None else None  # the cloth beyond the drawn tray
    width, height = SIZE
    side = rng.uniform(*(view.sides or SIDES))
    light = rng.uniform(-1, 1, 2)
    light /= max(np.linalg.norm(light), 1e-6)
    faces = _any_roll(rng) if any_faces else _roll(rng)
    truth = []
    for die, (cx, cy) in zip(faces, _positions(len(faces), side, rng, view.spacing),
                             strict=True):
        s = side * rng.uniform(0.95, 1.05)
        angle = rng.uniform(0, 2 * np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * s
        top = square @ rot.T + (cx, cy)
        # the camera is above the tray's centre: a die off-centre shows its outer sides
        lean = np.array([cx - width / 2, cy - height / 2]) / width * rng.uniform(0.25, 0.45)
        if camera is not None:  # a tipped camera sees the sides that face it
            lean = camera.lean((cx, cy), s)
        bottom = top + lean * s
        shadow = np.zeros((height, width), np.float32)
        cv2.fillConvexPoly(
            shadow, np.round(bottom + light * s * 0.25).astype(np.int32), 1.0, cv2.LINE_AA
        )
        shadow = cv2.GaussianBlur(shadow, (0, 0), s * 0.12)
        image *= 1 - rng.uniform(0.3, 0.5) * shadow[..., None]
        side_colour = body * rng.uniform(0.5, 0.75)
        for i in range(4):  # the side faces between the top and the bottom outline
            quad = np.array([top[i], top[(i + 1) % 4], bottom[(i + 1) % 4], bottom[i]])
            cv2.fillConvexPoly(
                image, np.round(quad).astype(np.int32), side_colour.tolist(), cv2.LINE_AA
            )
        text = "W" if die.value == 0 else str(die.value)
        tile = _face_tile(text, die.value in (6, 9), dice_set, dice_set.ink(die.colour), rng)
        source = np.float32([[0, 0], [_TILE - 1, 0], [_TILE - 1, _TILE - 1], [0, _TILE - 1]])
        matrix = cv2.getPerspectiveTransform(source, top.astype(np.float32))
        warped = cv2.warpPerspective(
            tile, matrix, SIZE, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT
        )
        alpha = warped[..., 3:4]
        image = image * (1 - alpha) + warped[..., :3] * alpha
        if rng.random() < 0.3:  # a lamp's highlight on the glossy top
            spot = np.zeros((height, width), np.float32)
            centre = top.mean(axis=0) + rng.uniform(-0.25, 0.25, 2) * s
            cv2.circle(spot, tuple(int(v) for v in centre), max(int(s * 0.08), 2), 1.0, -1)
            spot = cv2.GaussianBlur(spot, (0, 0), s * 0.08) * alpha[..., 0]
            image += rng.uniform(60, 140) * spot[..., None]
        truth.append(
            ForeignDie(die, (float(cx), float(cy)), top.astype(np.float32))
        )
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    gradient = 1 + rng.uniform(0.08, 0.22) * (
        ((xs - width / 2) * light[0] + (ys - height / 2) * light[1]) / width
    )
    image *= gradient[..., None]
    if camera is not None:
        image, truth = camera.photograph(image, truth, bare * gradient[..., None])
    balance = view.white_balance  # white balance, then exposure
    image *= rng.uniform(1 - balance, 1 + balance, 3) * rng.uniform(0.85, 1.1)
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 1.1))
    image += rng.normal(0, rng.uniform(1.5, 5), image.shape).astype(np.float32)
    bgr = np.clip(image[..., ::-1], 0, 255).astype(np.uint8)
    quality = int(rng.integers(70, 96))
    _, encoded = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    image = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return ForeignScene(image, tuple(truth), dice_set.font, dice_set.dark)
