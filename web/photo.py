"""A roll read from a phone's photo: check the upload, decode it upright at a working size, read it.

A phone photo is large (12 megapixels and more), of any aspect ratio, often stored
sideways with an EXIF orientation tag, and sometimes not a photo at all. Before any
pixel is decoded, `inspect` reads the file's header (pure Python): the format (JPEG
or PNG; anything else is refused by name), the stored size (too small or too many
pixels is refused), the EXIF orientation, and whether the file is complete (a JPEG
with no end-of-image marker after its scan, a PNG with no IEND chunk, is truncated).

`decode_photo` then decodes it upright and at the reader's working size: a JPEG is
decoded directly at 1/2, 1/4 or 1/8 of its size by the codec (libjpeg's DCT scaling,
much cheaper than decoding it whole) while its longer side stays at least
WORK_SIDE, and anything still larger is shrunk to WORK_SIDE. The orientation is
applied here from the tag read by `inspect` (OpenCV is told to ignore it), so the
result does not depend on whether the installed OpenCV applies it by itself
(5.0 does, in `imdecode` too; older releases did not in every case).

`PhotoReader` reads the working image with its own `vision.pipeline.DiceReader`
(never the camera thread's: that one's tray changes under it), one photo at a
time. The reader's locator already looks again at other scales when dice are far
from its trained size; what it cannot do is see detail that the shrinking threw
away, so when the dice measure under MIN_DIE_PX in a shrunk image the photo is
decoded again, larger, so that they measure TARGET_DIE_PX (at most the photo's
own size), and read again. And where its own choice of scale falls short on phone
photos (see `_reader_at_die_size`), the photo is read once more with the locator
looking at the width the measured dice call for, and the better reading is kept.
Last, when the tray's edge shows around the dice (`vision.tray_finder`), the photo is
cropped to the tray; dice seen beside it send the crop to be read again without them.

Vision (OpenCV, the networks) is imported only when a photo is decoded or read.
"""

from __future__ import annotations

import logging
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import numpy as np

    from vision.reading import Reading

log = logging.getLogger(__name__)

#: The smallest photo read: the locator's own input is 320 pixels wide.
MIN_SIDES: Final[tuple[int, int]] = (320, 240)
#: The most pixels a photo may have (a 48-megapixel phone photo is 8064x6048).
MAX_PIXELS: Final[int] = 50_000_000
#: The most pixels a PNG may have: it is decoded whole (a JPEG is decoded at 1/2 to 1/8
#: by the codec), 3 bytes a pixel, so a 143 KB PNG of 7000x7000 would take ~150 MB of a
#: Pi's memory before it could be shrunk. 12 megapixels covers a phone's screenshot.
MAX_PNG_PIXELS: Final[int] = 12_000_000
#: Decoded photos are brought to at most about this longer side (dice of 3 % of the
#: picture's width then measure 60 pixels, well above the classifier's 40-pixel crops).
WORK_SIDE: Final[int] = 2000
#: Dice measuring less than this (pixels, median top side) in a shrunk photo are read
#: again from a larger decoding, sized so that they measure TARGET_DIE_PX.
MIN_DIE_PX: Final[float] = 40.0
TARGET_DIE_PX: Final[float] = 64.0
#: The overlay sent back is at most this wide (a phone screen; the JPEG stays small).
OVERLAY_WIDTH: Final[int] = 1280
#: How long an upload waits for another photo being read before it gives up (503).
BUSY_WAIT_S: Final[float] = 30.0

EXIF_ORIENTATION_TAG: Final[int] = 0x0112
_JPEG_SOF: Final[frozenset[int]] = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_PNG_SIGNATURE: Final[bytes] = b"\x89PNG\r\n\x1a\n"


class PhotoError(ValueError):
    """An upload that cannot be read as a photo; the message says why and what to do."""


class NotAnImageError(PhotoError):
    """Not a JPEG or PNG image (another format, or not an image at all): 415."""


class BadImageError(PhotoError):
    """A JPEG or PNG that is truncated, corrupt, empty or too small to read dice from: 400."""


class PhotoTooLargeError(PhotoError):
    """A photo with more pixels than MAX_PIXELS (a PNG: MAX_PNG_PIXELS), or more bytes than
    the table takes: 413."""


class PhotoBusyError(RuntimeError):
    """Another photo took too long to read: this one was not read (503)."""


@dataclass(frozen=True)
class ImageInfo:
    """What a photo's header says: its format, its stored size and its EXIF orientation."""

    kind: str  # "jpeg" or "png"
    width: int  # as stored, before the orientation is applied
    height: int
    orientation: int = 1  # EXIF orientation 1..8 (1: stored upright)

    @property
    def upright_size(self) -> tuple[int, int]:
        """(width, height) once the orientation is applied (5..8 turn it a quarter)."""
        if self.orientation >= 5:
            return self.height, self.width
        return self.width, self.height


def inspect(data: bytes) -> ImageInfo:
    """The header of an uploaded photo, checked: format, size, orientation, completeness.

    Raises NotAnImageError, BadImageError or PhotoTooLargeError with a message for
    the players. Reads no pixels.
    """
    if not data:
        raise BadImageError("the upload is empty: no photo was sent")
    if data[:3] == b"\xff\xd8\xff":
        info = _inspect_jpeg(data)
    elif data[:8] == _PNG_SIGNATURE:
        info = _inspect_png(data)
    else:
        raise NotAnImageError(_not_an_image(data))
    most = MAX_PNG_PIXELS if info.kind == "png" else MAX_PIXELS
    if info.width * info.height > most:  # from the header: nothing decoded yet
        kind = "PNG picture" if info.kind == "png" else "photo"
        raise PhotoTooLargeError(
            f"the {kind} is {info.width}x{info.height} pixels, more than "
            f"{most / 1e6:g} megapixels: take it at a lower resolution"
            + (", or send it as a JPEG" if info.kind == "png" else ""))
    long_side, short_side = max(info.width, info.height), min(info.width, info.height)
    if long_side < MIN_SIDES[0] or short_side < MIN_SIDES[1]:
        raise BadImageError(
            f"the photo is only {info.width}x{info.height} pixels, too small to read dice "
            f"from: it must be at least {MIN_SIDES[0]}x{MIN_SIDES[1]}")
    return info


def _not_an_image(data: bytes) -> str:
    head = data[:16]
    if head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"hevc", b"mif1", b"msf1",
                                               b"avif"):
        return ("the photo is HEIF/HEIC (or AVIF), which this scorepad cannot read: send a "
                "JPEG (on an iPhone: Settings > Camera > Formats > Most Compatible)")
    for magic, name in ((b"GIF8", "GIF"), (b"BM", "BMP"), (b"II*\x00", "TIFF"),
                        (b"MM\x00*", "TIFF")):
        if head.startswith(magic):
            return f"the upload is a {name} image: send a JPEG or PNG photo"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "the upload is a WebP image: send a JPEG or PNG photo"
    return "the upload is not a JPEG or PNG image: send a photo of the dice"


def _inspect_jpeg(data: bytes) -> ImageInfo:
    """Walk the JPEG's markers up to its first scan: size, EXIF orientation; then check
    that an end-of-image marker follows the scan (a cut-off upload has none)."""
    position, size, orientation = 2, None, 1
    truncated = BadImageError("the JPEG photo is truncated (the upload was cut off): "
                              "send it again")
    while True:
        while position < len(data) and data[position] == 0xFF:
            position += 1  # fill bytes, then the marker itself
        if position >= len(data):
            raise truncated
        marker = data[position - 1 : position + 1]
        if marker[0] != 0xFF:
            raise BadImageError("the JPEG photo is corrupt (a broken marker in its header)")
        code = data[position]
        position += 1
        if code == 0x01 or 0xD0 <= code <= 0xD8:
            continue  # markers without a segment
        if code == 0xD9:
            raise BadImageError("the JPEG photo has no image data")
        if position + 2 > len(data):
            raise truncated
        (length,) = struct.unpack(">H", data[position : position + 2])
        segment = data[position + 2 : position + length]
        if length < 2 or len(segment) != length - 2:
            raise truncated
        if code == 0xE1 and segment[:6] == b"Exif\x00\x00" and orientation == 1:
            orientation = _tiff_orientation(segment[6:])
        elif code in _JPEG_SOF and len(segment) >= 5:
            height, width = struct.unpack(">HH", segment[1:5])
            size = (width, height)
        position += length
        if code == 0xDA:  # start of scan: entropy-coded data follows
            break
    if size is None or size[0] == 0 or size[1] == 0:
        raise BadImageError("the JPEG photo is corrupt (no image size before its data)")
    if data.find(b"\xff\xd9", position) < 0:
        raise truncated
    return ImageInfo("jpeg", size[0], size[1], orientation)


def _inspect_png(data: bytes) -> ImageInfo:
    """Walk the PNG's chunks: IHDR's size, an eXIf chunk's orientation, and IEND at the end."""
    position, size, orientation = 8, None, 1
    while True:
        if position + 8 > len(data):
            raise BadImageError("the PNG photo is truncated (the upload was cut off): "
                                "send it again")
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        body = data[position + 8 : position + 8 + length]
        if len(body) != length or position + 12 + length > len(data):
            raise BadImageError("the PNG photo is truncated (the upload was cut off): "
                                "send it again")
        if kind == b"IHDR" and length >= 8:
            size = struct.unpack(">II", body[:8])
        elif kind == b"eXIf":
            orientation = _tiff_orientation(body)
        elif kind == b"IEND":
            break
        position += 12 + length
    if size is None or size[0] == 0 or size[1] == 0:
        raise BadImageError("the PNG photo is corrupt (no image header)")
    return ImageInfo("png", int(size[0]), int(size[1]), orientation)


def _tiff_orientation(tiff: bytes) -> int:
    """The Orientation tag (0x0112) of IFD0 of EXIF data (a TIFF structure); 1 when absent
    or not a value 1..8."""
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return 1
    order = "<" if tiff[:2] == b"II" else ">"
    magic, offset = struct.unpack(order + "HI", tiff[2:8])
    if magic != 42 or offset + 2 > len(tiff):
        return 1
    (count,) = struct.unpack(order + "H", tiff[offset : offset + 2])
    for index in range(count):
        start = offset + 2 + 12 * index
        entry = tiff[start : start + 12]
        if len(entry) < 12:
            break
        tag, kind, number = struct.unpack(order + "HHI", entry[:8])
        if tag == EXIF_ORIENTATION_TAG and kind == 3 and number >= 1:  # SHORT
            (value,) = struct.unpack(order + "H", entry[8:10])
            return value if 1 <= value <= 8 else 1
    return 1


def upright(image: np.ndarray, orientation: int) -> np.ndarray:
    """The image as the EXIF orientation says it is to be shown (1..8; 1 unchanged)."""
    import cv2

    if orientation == 2:
        return cv2.flip(image, 1)
    if orientation == 3:
        return cv2.rotate(image, cv2.ROTATE_180)
    if orientation == 4:
        return cv2.flip(image, 0)
    if orientation == 5:
        return cv2.transpose(image)
    if orientation == 6:
        return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 7:
        return cv2.flip(cv2.transpose(image), -1)
    if orientation == 8:
        return cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return image


def decode_photo(data: bytes, info: ImageInfo, work_side: int = WORK_SIDE) -> np.ndarray:
    """The photo decoded upright as a BGR image whose longer side is about `work_side`
    (never enlarged). Raises BadImageError when the codec cannot decode it."""
    import cv2
    import numpy as np

    reduce = 1
    if info.kind == "jpeg":  # libjpeg decodes at 1/2, 1/4, 1/8 for a fraction of the work
        while reduce < 8 and max(info.width, info.height) / (2 * reduce) >= work_side:
            reduce *= 2
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
             8: cv2.IMREAD_REDUCED_COLOR_8}[reduce] | cv2.IMREAD_IGNORE_ORIENTATION
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error:
        image = None
    if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
        raise BadImageError(f"the {info.kind.upper()} photo is corrupt: it could not be decoded")
    image = upright(image, info.orientation)
    longer = max(image.shape[:2])
    if longer > work_side:
        factor = work_side / longer
        image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(image)


def die_side(reading: Reading) -> float:
    """The median longest side of the dice found (read or not), in pixels; 0 without dice."""
    import numpy as np

    from vision.tops import longest_side

    boxes = [np.asarray(die.corners, np.float64).reshape(-1, 2)
             for die in (*reading.dice, *reading.unreadable)]
    sides = [longest_side(box) for box in boxes if len(box) >= 3]
    return float(np.median(sides)) if sides else 0.0


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


ReaderFactory = Callable[[], Any]
#: Called with the reader once it is loaded (the table's dice profile attaches to it).
ReaderHook = Callable[[Any], None]


def dice_reader_factory(threads: int = 1) -> ReaderFactory:
    """Makes the photos' own DiceReader (imports vision only when called)."""

    def make() -> Any:
        from vision.pipeline import DiceReader

        return DiceReader(threads=threads)

    return make


class PhotoReader:
    """Reads uploaded photos with its own dice reader, one photo at a time.

    The reader (two networks) is loaded on the first photo. Its lock keeps two
    uploads from reading at once (each would slow the other, and the camera thread,
    on a small machine); the camera thread has its own reader and never waits here.
    """

    def __init__(self, factory: ReaderFactory | None = None, *, threads: int = 1,
                 busy_wait_s: float = BUSY_WAIT_S, on_load: ReaderHook | None = None) -> None:
        self._factory = factory or dice_reader_factory(threads)
        self._reader: Any = None
        self._lock = threading.Lock()
        self._busy_wait_s = busy_wait_s
        self._on_load = on_load

    def read(self, data: bytes, info: ImageInfo | None = None) -> PhotoReading:
        """Inspect, decode and read one photo. Raises a PhotoError for a bad upload."""
        info = info or inspect(data)
        return self.using(lambda reader: self._read(data, info))

    def using(self, work: Callable[[Any], Any]) -> Any:
        """`work(reader)` with the loaded reader, one caller at a time (the dice profile's
        teaching readings and descriptions take turns with the photos)."""
        if not self._lock.acquire(timeout=self._busy_wait_s):
            raise PhotoBusyError("another photo is being read: try again in a moment")
        try:
            if self._reader is None:
                reader = self._factory()
                if self._on_load is not None:
                    self._on_load(reader)
                self._reader = reader
            return work(self._reader)
        finally:
            self._lock.release()

    def _read(self, data: bytes, info: ImageInfo) -> PhotoReading:
        image = decode_photo(data, info)
        reading = self._reader.read(image)
        side, looks = die_side(reading), 1
        full = max(info.width, info.height)
        if 0 < side < MIN_DIE_PX and max(image.shape[:2]) < full:
            larger = min(full, int(max(image.shape[:2]) * TARGET_DIE_PX / side))
            log.info("dice measure %.0f px in a %d px photo: reading it again at %d px",
                     side, max(image.shape[:2]), larger)
            image2 = decode_photo(data, info, work_side=larger)
            reading2 = self._reader.read(image2)
            looks += 1
            if _better(reading2, reading):
                image, reading, side = image2, reading2, die_side(reading2)
        pinned = _reader_at_die_size(self._reader, image.shape[1], side, reading.is_complete())
        if pinned is not None:
            reading2 = pinned.read(image)
            looks += 1
            if _better(reading2, reading):
                reading, side = reading2, die_side(reading2)
        decoded = (image.shape[1], image.shape[0])
        in_tray = _read_tray(self._reader, image, reading, side)
        crop = None
        if in_tray is not None:
            image, reading, crop = in_tray
            side, looks = die_side(reading), looks + 1
        height, width = image.shape[:2]
        return PhotoReading(reading, overlay(image, reading), info, (width, height), side, looks,
                            image=image, tray_crop=crop, decoded_size=decoded)


#: Dice measuring within this range (pixels of the locator's usual 320-wide input) are
#: left to the reader's own first look when it read a whole roll; outside it, the photo
#: is read again with the locator looking at the width that shows them at its trained
#: size.
FIRST_LOOK_RANGE: Final[tuple[float, float]] = (19.0, 23.5)

#: A reading within FIRST_LOOK_RANGE that is not a whole roll read sure is read again
#: with the locator looking this much finer.
FINER_LOOK: Final[float] = 1.5


def _reader_at_die_size(reader: Any, width: int, side: float, complete: bool) -> Any:
    """A reader sharing `reader`'s networks whose locator looks once, at the input width
    that shows dice of `side` pixels (in an image `width` wide) at the trained size; None
    when the reader's own first look already did and read ten dice sure (or `reader` is
    not a DiceReader).

    The locator's own search keeps its first look (320 wide) whenever its dice measure
    13 to 32 pixels there and it is sure of them. On rendered phone photos that was not
    enough at either end: dice of 3 to 5 % of the width (13 to 16 pixels) had two or
    three of ten missed, and dice of 11 % or more (35 pixels and over, where it looks
    again at other widths) were split into one die too many, chosen over the look at
    the right width because it has more sure dice. The die size measured on the first
    reading, over all its dice, settles the width; but a look that missed small dice
    measures the ones it found too large (boxes grown over their sides), so small dice
    are looked at at least FINER_LOOK finer than the first look, and so is a reading
    that seems the right size but is not ten dice read sure."""
    from vision.pipeline import DiceReader

    if side <= 0 or not isinstance(reader, DiceReader):
        return None
    from vision.tops import NET_WIDTH_RANGE, TRAINED_DIE_PX
    from vision.tops_input import NET_GRID, NET_WIDTH

    at_first_look = side * NET_WIDTH / width
    finer = int(round(NET_WIDTH * FINER_LOOK / NET_GRID)) * NET_GRID
    if FIRST_LOOK_RANGE[0] <= at_first_look <= FIRST_LOOK_RANGE[1]:
        if complete:
            return None
        wanted = finer
    else:
        wanted = int(round(width * TRAINED_DIE_PX / side / NET_GRID)) * NET_GRID
        if at_first_look < FIRST_LOOK_RANGE[0]:  # small dice: measured too large, if anything
            wanted = max(wanted, finer)
    wanted = int(min(max(wanted, NET_WIDTH_RANGE[0]), NET_WIDTH_RANGE[1]))
    return reader.sharing(finder=_OneLook(reader.finder, wanted))


class _OneLook:
    """A TopFinder that looks once, at one network input width."""

    def __init__(self, finder: Any, net_width: int) -> None:
        self.finder = finder
        self.net_width = net_width

    def locate(self, frame: np.ndarray, tray: Any = None) -> Any:
        return self.finder.locate_at(frame, tray, self.net_width)


#: A photo is cropped to its tray with this margin (in die sides) around the tray's
#: outline, and dice are looked for within the outline grown by as much.
TRAY_MARGIN: Final[float] = 0.75
#: A photo whose dice all lie in the tray is cropped only when the crop keeps at most
#: this share of its area.
MAX_CROP_SHARE: Final[float] = 0.9


def _read_tray(reader: Any, image: np.ndarray, reading: Reading, side: float
               ) -> tuple[np.ndarray, Reading, tuple[int, int, int, int]] | None:
    """The photo cropped to the tray the dice of `reading` lie in, its reading there and
    the crop's box; None when no tray is seen (a mat filling the picture, a table of the
    mat's own colour), when `reader` is not a DiceReader, or when dice lie off the tray
    and the crop's reading finds fewer of those inside it.

    When every die found lies in the tray, the reading stands, moved into the crop: on
    rendered phone photos a second reading of the same dice, at another scale, changed
    as many dice for the worse as for the better. When some lie off it (a die left on the
    table, a cup or a hand taken for one), the crop is read again, so that the locator
    chooses its scale for the tray alone, and what lies outside is left out."""
    import numpy as np

    from scorer.dice import FULL_ROLL
    from vision.pipeline import DiceReader
    from vision.tops import within
    from vision.tray_finder import find_tray

    if side <= 0 or not isinstance(reader, DiceReader):
        return None
    boxes = [np.asarray(die.corners, np.float64) for die in (*reading.dice, *reading.unreadable)]
    tray = find_tray(image, boxes)
    if tray is None:
        return None
    height, width = image.shape[:2]
    margin = TRAY_MARGIN * side
    outline = tray.points(margin)
    inside = [box for box in boxes if within(outline, box.mean(axis=0))]
    left, top, right, bottom = tray.crop_box(margin, (width, height))
    if inside:  # the dice whole, a little room round them
        corners = np.vstack(inside)
        pad = 0.25 * side
        left = max(min(left, int(corners[:, 0].min() - pad)), 0)
        top = max(min(top, int(corners[:, 1].min() - pad)), 0)
        right = min(max(right, int(np.ceil(corners[:, 0].max() + pad))), width)
        bottom = min(max(bottom, int(np.ceil(corners[:, 1].max() + pad))), height)
    box = (left, top, right, bottom)
    crop = np.ascontiguousarray(image[top:bottom, left:right])
    if len(inside) == len(boxes):
        if (right - left) * (bottom - top) > MAX_CROP_SHARE * width * height:
            return None  # nothing worth cutting off
        return crop, reading.within(box), box
    cropped = reader.sharing(tray=tray.points(margin, (left, top))).read(crop)
    found = cropped.found_count()
    if found < len(inside) or not 0 < found <= FULL_ROLL:
        log.info("the tray's crop found %d dice where %d lie in the tray: kept the photo whole",
                 found, len(inside))
        return None
    return crop, cropped, box


def _better(candidate: Reading, current: Reading) -> bool:
    """Whether the reading `candidate` (at the trained scale) is to be kept over `current`:
    a roll (at most ten dice) over none, then more dice found, then fewer unsure; when
    both found more than ten, the one with fewer."""
    from scorer.dice import FULL_ROLL

    def rank(reading: Reading) -> tuple[int, int, int]:
        found = reading.found_count()
        fits = found <= FULL_ROLL
        return (int(fits), found if fits else -found,
                -(reading.unsure_count() + len(reading.unreadable)))

    return rank(candidate) >= rank(current)


def overlay(image: np.ndarray, reading: Reading) -> bytes:
    """The annotated photo as JPEG, at most OVERLAY_WIDTH wide."""
    import cv2

    from vision.overlay import draw_overlay, encode_jpeg

    drawn = draw_overlay(image, reading, status="photo")
    if drawn.shape[1] > OVERLAY_WIDTH:
        factor = OVERLAY_WIDTH / drawn.shape[1]
        drawn = cv2.resize(drawn, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return encode_jpeg(drawn)
