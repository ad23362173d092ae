"""A roll read from a photo: the same reader as the camera's, looking again where a
photo's dice call for it, and cropping to the tray.

`read_photo` reads a `vision.read.photo_file.Photo` (checked from its header, decoded
upright at a working size) with a `vision.read.pipeline.DiceReader` (never the camera
thread's: that one's tray changes under it). The reader's locator already looks again
at other scales when dice are far from its trained size; what it cannot do is see
detail that the shrinking threw away, so when the dice measure under
`PhotoSettings.min_die_px` in a shrunk image the photo is decoded again, larger, so
that they measure `target_die_px` (at most the photo's own size), and read again. And
where its own choice of scale falls short on phone photos (`vision.read.looks`),
the photo is read once more with the locator looking once at the width the measured
dice call for (`OneLook`, through the locator's own `locate_at`), and the better reading
is kept. Last, when the tray's edge shows around the dice (`vision.read.tray_finder`),
the photo is cropped to the tray; dice seen beside it send the crop to be read again
without them. The thresholds are a `PhotoSettings`, the shipped ones by default; how
they were chosen is in models/MODEL_CARD.md ("A photo's second looks and its tray crop").
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import cv2
import numpy as np

from scorer.dice import FULL_ROLL
from vision.read.die_measure import die_side
from vision.read.looks import better_reading, for_photos, reader_at_die_size
from vision.read.overlay import draw_overlay, encode_jpeg
from vision.read.photo_file import ImageInfo, Photo, PhotoLimits, open_photo
from vision.read.pipeline import DiceReader
from vision.read.settings import SecondLookSettings
from vision.read.tops import within
from vision.read.tray_finder import TrayFinderSettings, find_tray
from vision.reading import ReadDie, Reading, UnreadableDie

log = logging.getLogger(__name__)

#: The overlay sent back is at most this wide (a phone screen; the JPEG stays small).
OVERLAY_WIDTH: Final[int] = 1280


@dataclass(frozen=True)
class PhotoSettings:
    """When a photo is read again (decoded larger, or with the locator at another width),
    and how it is cropped to its tray."""

    min_die_px: float = 40.0
    """Dice measuring less than this (pixels, median top side) in a shrunk photo are read
    again from a larger decoding: the shrinking threw away detail they need."""
    target_die_px: float = 64.0
    """The larger decoding is sized so that the dice measure this (at most the photo's
    own size)."""
    look: SecondLookSettings = SecondLookSettings()
    """Which width the photo's second look looks at (`first_look_range`, `finer_look`;
    `vision.read.looks`): dice measuring within the range when the reader's own first look
    read a whole roll sure are left to it. A photo always takes its second look where
    called for; the setting's `frames` is the camera frames' switch, not read here."""
    tray_margin: float = 0.75
    """A photo is cropped to its tray with this margin (die sides) around the tray's
    outline, and dice are looked for within the outline grown by as much: a die lying
    against the wall is still in the tray."""
    dice_room: float = 0.25
    """The crop holds the dice inside the tray whole, with this much room (die sides)
    round them."""
    max_crop_share: float = 0.9
    """A photo whose dice all lie in the tray is cropped only when the crop keeps at most
    this share of its area: else nothing is worth cutting off."""
    tray: TrayFinderSettings = TrayFinderSettings()
    """When the surface around the dice is a tray (`vision.read.tray_finder`)."""


class PhotoFrameReader(Protocol):
    """What reads a working image: a `DiceReader`, or a stand-in (then read in one look
    at each size, without the locator's re-looks or the tray crop)."""

    def read(self, frame: np.ndarray) -> Reading: ...


@dataclass(frozen=True)
class PhotoReading:
    """One photo read: the reading (in working-image pixels), the annotated picture (JPEG)
    and how the photo was brought to the working size."""

    reading: Reading
    overlay_jpeg: bytes
    info: ImageInfo
    work_size: tuple[int, int]  # (width, height) of the image read
    die_side: float  # measured die side in the image read (pixels), 0 without dice
    looks: int = 1  # readings taken (2 when the photo was decoded again, larger)
    extra: dict[str, Any] = field(default_factory=dict)
    image: np.ndarray | None = field(default=None, repr=False)  # the working image read
    # The tray's box (left, top, right, bottom) in the decoded photo when the photo was
    # cropped to it (the working image is then that crop); None when read whole.
    tray_crop: tuple[int, int, int, int] | None = None
    decoded_size: tuple[int, int] = (0, 0)  # (width, height) decoded, before any crop

    def in_photo(self) -> Reading:
        """The reading in the pixels of the photo itself, upright (as its orientation tag
        shows it), at its full size."""
        width, height = self.decoded_size if self.decoded_size[0] else self.work_size
        left, top = (0, 0) if self.tray_crop is None else self.tray_crop[:2]
        upright = self.info.upright_size
        return self.reading.placed((left, top), upright[0] / width, upright)


def read_photo(photo: Photo, reader: PhotoFrameReader,
               settings: PhotoSettings = PhotoSettings()) -> PhotoReading:
    """Decode and read one photo, looking again where its dice call for it. `settings`:
    when it is read again and cropped to its tray (the shipped ones by default)."""
    info = photo.info
    image = photo.decode()
    reader = for_photos(reader)  # the photo's own looks and calibration
    reading = reader.read(image)
    side, looks = die_side(reading), 1
    full = max(info.width, info.height)
    if 0 < side < settings.min_die_px and max(image.shape[:2]) < full:
        larger = min(full, int(max(image.shape[:2]) * settings.target_die_px / side))
        log.info("dice measure %.0f px in a %d px photo: reading it again at %d px",
                 side, max(image.shape[:2]), larger)
        image2 = photo.decode(work_side=larger)
        reading2 = reader.read(image2)
        looks += 1
        if better_reading(reading2, reading, settings.look.keeps):
            image, reading, side = image2, reading2, die_side(reading2)
    pinned = reader_at_die_size(reader, image.shape[1], side, reading.is_complete(),
                                settings.look)
    if pinned is not None:
        reading2 = pinned.read(image)
        looks += 1
        if better_reading(reading2, reading, settings.look.keeps):
            reading, side = reading2, die_side(reading2)
    decoded = (image.shape[1], image.shape[0])
    in_tray = _read_tray(reader, image, reading, side, settings)
    crop = None
    if in_tray is not None:
        image, reading, crop = in_tray
        side, looks = die_side(reading), looks + 1
    height, width = image.shape[:2]
    return PhotoReading(reading, overlay(image, reading), info, (width, height), side, looks,
                        image=image, tray_crop=crop, decoded_size=decoded)


def read_photo_file(data: bytes, reader: PhotoFrameReader, limits: PhotoLimits | None = None,
                    settings: PhotoSettings = PhotoSettings()) -> PhotoReading:
    """The photo file's bytes checked from its header (`open_photo`), then read."""
    return read_photo(open_photo(data, limits), reader, settings)


def _read_tray(reader: PhotoFrameReader, image: np.ndarray, reading: Reading, side: float,
               settings: PhotoSettings,
               ) -> tuple[np.ndarray, Reading, tuple[int, int, int, int]] | None:
    """The photo cropped to the tray the dice of `reading` lie in, its reading there and
    the crop's box; None when no tray is seen (a mat filling the picture, a table of the
    mat's own colour), when `reader` is not a DiceReader, or when dice lie off the tray
    and the crop's reading finds fewer of those inside it.

    When every die found lies in the tray, the reading stands, moved into the crop: a
    second reading of the same dice, at another scale, changes some for the worse. When
    some lie off it (a die left on the
    table, a cup or a hand taken for one), the crop is read again, so that the locator
    chooses its scale for the tray alone, and what lies outside is left out."""
    if side <= 0 or not isinstance(reader, DiceReader):
        return None
    seen: list[ReadDie | UnreadableDie] = [*reading.dice, *reading.unreadable]
    boxes = [np.asarray(die.corners, np.float64) for die in seen]
    tray = find_tray(image, boxes, settings.tray)
    if tray is None:
        return None
    height, width = image.shape[:2]
    margin = settings.tray_margin * side
    outline = tray.points(margin)
    inside = [box for box in boxes if within(outline, box.mean(axis=0))]
    left, top, right, bottom = tray.crop_box(margin, (width, height))
    if inside:  # the dice whole, a little room round them
        corners = np.vstack(inside)
        pad = settings.dice_room * side
        left = max(min(left, int(corners[:, 0].min() - pad)), 0)
        top = max(min(top, int(corners[:, 1].min() - pad)), 0)
        right = min(max(right, int(np.ceil(corners[:, 0].max() + pad))), width)
        bottom = min(max(bottom, int(np.ceil(corners[:, 1].max() + pad))), height)
    box = (left, top, right, bottom)
    crop = np.ascontiguousarray(image[top:bottom, left:right])
    if len(inside) == len(boxes):
        if (right - left) * (bottom - top) > settings.max_crop_share * width * height:
            return None  # nothing worth cutting off
        return crop, reading.within(box), box
    cropped = reader.sharing(tray=tray.points(margin, (left, top))).read(crop)
    found = cropped.found_count()
    if found < len(inside) or not 0 < found <= FULL_ROLL:
        log.info("the tray's crop found %d dice where %d lie in the tray: kept the photo whole",
                 found, len(inside))
        return None
    return crop, cropped, box


def overlay(image: np.ndarray, reading: Reading) -> bytes:
    """The annotated photo as JPEG, at most OVERLAY_WIDTH wide."""
    drawn = draw_overlay(image, reading, status="photo")
    if drawn.shape[1] > OVERLAY_WIDTH:
        factor = OVERLAY_WIDTH / drawn.shape[1]
        drawn = cv2.resize(drawn, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return encode_jpeg(drawn)
