"""A photo file checked from its header, then decoded upright at a working size, by Pillow.

A phone photo is large (12 megapixels and more), of any aspect ratio, often stored
sideways with an EXIF orientation tag, and sometimes not a photo at all. `open_photo`
reads only the file's header (Pillow opens lazily): the format (JPEG or PNG, and HEIC
where the optional `pillow-heif` is installed; anything else is refused by name), the
stored size (too small or too many pixels is refused before a pixel is decoded, and
Pillow's own decompression-bomb guard stands behind that), the EXIF orientation, and
whether the file is complete (a JPEG with no end-of-image marker after its scan, a PNG
with no IEND chunk after its data, is truncated).

`Photo.decode` then decodes it upright (`ImageOps.exif_transpose`) and at the
reader's working size: a JPEG is decoded directly at 1/2, 1/4 or 1/8 of its size by
the codec (libjpeg's DCT scaling through Pillow's `draft`, much cheaper than decoding
it whole) while its longer side stays at least WORK_SIDE, and anything still larger is
shrunk to WORK_SIDE.

The messages of the errors raised are for the players (the scorepad shows them).
"""

from __future__ import annotations

import importlib
import io
import struct
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

#: Decoded photos are brought to at most about this longer side (dice of 3 % of the
#: picture's width then measure 60 pixels, well above the classifier's 40-pixel crops).
WORK_SIDE: Final[int] = 2000
EXIF_ORIENTATION_TAG: Final[int] = 0x0112
_PNG_SIGNATURE: Final[bytes] = b"\x89PNG\r\n\x1a\n"
_HEIF_BRANDS: Final[tuple[bytes, ...]] = (b"heic", b"heix", b"hevc", b"mif1", b"msf1")


class PhotoError(ValueError):
    """A file that cannot be read as a photo; the message says why and what to do."""


class NotAnImageError(PhotoError):
    """Not a JPEG or PNG image (another format, or not an image at all)."""


class BadImageError(PhotoError):
    """A photo that is truncated, corrupt, empty or too small to read dice from."""


class PhotoTooLargeError(PhotoError):
    """A photo with more pixels than its limit (`PhotoLimits`)."""


@dataclass(frozen=True)
class PhotoLimits:
    """The sizes of photo read, checked from the header before any pixel is decoded."""

    #: The smallest photo read (longer, shorter side): the locator's input is 320 wide.
    min_sides: tuple[int, int] = (320, 240)
    #: The most pixels a photo may have (a 48-megapixel phone photo is 8064x6048).
    max_pixels: int = 50_000_000
    #: The most pixels a PNG may have: it is decoded whole (a JPEG is decoded at 1/2 to
    #: 1/8 by the codec), 3 bytes a pixel, so a 143 KB PNG of 7000x7000 would take
    #: ~150 MB of a Pi's memory before it could be shrunk. 12 megapixels covers a
    #: phone's screenshot.
    max_png_pixels: int = 12_000_000


@dataclass(frozen=True)
class ImageInfo:
    """What a photo's header says: its format, its stored size and its EXIF orientation."""

    kind: str  # "jpeg", "png" or "heic"
    width: int  # as stored, before the orientation is applied
    height: int
    orientation: int = 1  # EXIF orientation 1..8 (1: stored upright)

    @property
    def upright_size(self) -> tuple[int, int]:
        """(width, height) once the orientation is applied (5..8 turn it a quarter)."""
        if self.orientation >= 5:
            return self.height, self.width
        return self.width, self.height


@dataclass(frozen=True)
class Photo:
    """A photo file whose header was checked: decodable at any working size."""

    data: bytes
    info: ImageInfo

    def decode(self, work_side: int = WORK_SIDE) -> np.ndarray:
        """The photo upright as BGR; see `decode_photo`."""
        return decode_photo(self.data, self.info, work_side)


def open_photo(data: bytes, limits: PhotoLimits | None = None) -> Photo:
    """The photo in `data`, its header checked (`inspect`); no pixel decoded."""
    return Photo(data, inspect(data, limits))


def inspect(data: bytes, limits: PhotoLimits | None = None) -> ImageInfo:
    """The header of a photo file, checked: format, size, orientation, completeness.

    Raises NotAnImageError, BadImageError or PhotoTooLargeError with a message for
    the players. Reads no pixels.
    """
    limits = limits or PhotoLimits()
    if not data:
        raise BadImageError("the upload is empty: no photo was sent")
    if data[:3] == b"\xff\xd8\xff":
        kind = "jpeg"
    elif data[:8] == _PNG_SIGNATURE:
        kind = "png"
    elif _is_heif(data) and _heif_opener():
        kind = "heic"
    else:
        raise NotAnImageError(_not_an_image(data))
    info = _header(data, kind)
    most = limits.max_png_pixels if kind == "png" else limits.max_pixels
    if info.width * info.height > most:  # from the header: nothing decoded yet
        noun = "PNG picture" if kind == "png" else "photo"
        raise PhotoTooLargeError(
            f"the {noun} is {info.width}x{info.height} pixels, more than "
            f"{most / 1e6:g} megapixels: take it at a lower resolution"
            + (", or send it as a JPEG" if kind == "png" else ""))
    long_side, short_side = max(info.width, info.height), min(info.width, info.height)
    if long_side < limits.min_sides[0] or short_side < limits.min_sides[1]:
        raise BadImageError(
            f"the photo is only {info.width}x{info.height} pixels, too small to read dice "
            f"from: it must be at least {limits.min_sides[0]}x{limits.min_sides[1]}")
    return info


def _header(data: bytes, kind: str) -> ImageInfo:
    """Open the file with Pillow (its header only) and check it is complete."""
    from PIL import Image, UnidentifiedImageError

    name = kind.upper()
    truncated = BadImageError(f"the {name} photo is truncated (the upload was cut off): "
                              "send it again")
    try:
        with warnings.catch_warnings():  # malformed tags, a size refused below
            warnings.simplefilter("ignore")
            image = _opened(data, kind)
        with image:
            width, height = image.size
            orientation = _orientation(image)
            tiles = getattr(image, "tile", None) or []
            scan = tiles[0][2] if tiles else 0  # a PNG's first data; a JPEG's tile: 0
    except Image.DecompressionBombError as error:
        raise PhotoTooLargeError(
            "the photo has far too many pixels: take it at a lower resolution") from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, IndexError,
            TypeError) as error:
        end = b"\xff\xd9" if kind == "jpeg" else b"IEND"
        if kind != "heic" and end not in data:
            raise truncated from error
        raise BadImageError(f"the {name} photo is corrupt (its header could not be read)"
                            ) from error
    if width == 0 or height == 0:
        raise BadImageError(f"the {name} photo is corrupt (no image size before its data)")
    if kind == "jpeg":
        scan_data = _jpeg_scan_start(data)
        if scan_data is None:
            raise BadImageError("the JPEG photo is corrupt (a broken marker in its header)")
        if data.find(b"\xff\xd9", scan_data) < 0:
            raise truncated
    if kind == "png" and data.find(b"IEND", scan) < 0:
        raise truncated
    return ImageInfo(kind, width, height, orientation)


def _jpeg_scan_start(data: bytes) -> int | None:
    """Where the JPEG's scan data starts, or None when a header segment is not followed
    by a marker (Pillow skips stray bytes between them, which a damaged upload has)."""
    position = 2
    while position < len(data):
        if data[position] != 0xFF:
            return None
        while position < len(data) and data[position] == 0xFF:
            position += 1  # fill bytes, then the marker's code
        if position + 3 > len(data):
            break
        code = data[position]
        position += 1
        if code == 0x01 or 0xD0 <= code <= 0xD8:
            continue  # markers without a segment
        (length,) = struct.unpack(">H", data[position : position + 2])
        position += length
        if code == 0xDA:  # start of scan: the data follows
            return position
    return len(data)  # cut off in the header: no end-of-image marker after it


def _orientation(image: Image.Image) -> int:
    """The EXIF orientation of the header's EXIF data (a PNG's `getexif` would decode
    the pixels to look for an eXIf chunk after them); 1 when absent or unreadable."""
    from PIL import Image

    raw = image.info.get("exif")
    if not isinstance(raw, bytes | bytearray):
        return 1
    exif = Image.Exif()
    try:
        with warnings.catch_warnings():  # a phone's malformed tags: shown as stored
            warnings.simplefilter("ignore")
            exif.load(bytes(raw))
            value = exif.get(EXIF_ORIENTATION_TAG, 1)
    except (OSError, SyntaxError, ValueError, struct.error, KeyError, IndexError, TypeError):
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _opened(data: bytes, kind: str) -> Image.Image:
    """The file opened by Pillow as the format its signature names, and no other."""
    from PIL import Image

    formats = {"jpeg": ["JPEG"], "png": ["PNG"], "heic": ["HEIF"]}[kind]
    return Image.open(io.BytesIO(data), formats=formats)


def _is_heif(data: bytes) -> bool:
    head = data[:16]
    return head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS


def _heif_opener() -> bool:
    """Whether Pillow reads HEIC here: the optional `pillow-heif` installed."""
    try:
        pillow_heif = importlib.import_module("pillow_heif")  # optional: no stubs needed
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    return True


def _not_an_image(data: bytes) -> str:
    head = data[:16]
    if head[4:8] == b"ftyp" and head[8:12] in (*_HEIF_BRANDS, b"avif"):
        return ("the photo is HEIF/HEIC (or AVIF), which this scorepad cannot read: send a "
                "JPEG (on an iPhone: Settings > Camera > Formats > Most Compatible)")
    for magic, name in ((b"GIF8", "GIF"), (b"BM", "BMP"), (b"II*\x00", "TIFF"),
                        (b"MM\x00*", "TIFF")):
        if head.startswith(magic):
            return f"the upload is a {name} image: send a JPEG or PNG photo"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "the upload is a WebP image: send a JPEG or PNG photo"
    return "the upload is not a JPEG or PNG image: send a photo of the dice"


def jpeg_reduction(info: ImageInfo, work_side: int) -> int:
    """The codec's reduction (1, 2, 4 or 8) that keeps the longer side >= work_side."""
    reduce = 1
    if info.kind == "jpeg":
        while reduce < 8 and max(info.width, info.height) / (2 * reduce) >= work_side:
            reduce *= 2
    return reduce


def decode_photo(data: bytes, info: ImageInfo, work_side: int = WORK_SIDE) -> np.ndarray:
    """The photo decoded upright as a BGR image whose longer side is about `work_side`
    (never enlarged). Raises BadImageError when the codec cannot decode it."""
    import cv2
    import numpy as np
    from PIL import Image, ImageOps

    reduce = jpeg_reduction(info, work_side)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a phone's malformed tags: read as inspected
            with _opened(data, info.kind) as image:
                if reduce > 1:
                    image.draft("RGB", (info.width // reduce, info.height // reduce))
                shown = ImageOps.exif_transpose(image)
                rgb = np.asarray(shown.convert("RGB"))
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
        raise BadImageError(f"the {info.kind.upper()} photo is corrupt: it could not be "
                            "decoded") from error
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.size == 0:
        raise BadImageError(f"the {info.kind.upper()} photo is corrupt: it could not be decoded")
    bgr = rgb[:, :, ::-1]
    longer = max(bgr.shape[:2])
    if longer > work_side:
        factor = work_side / longer
        bgr = cv2.resize(bgr, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(bgr)
