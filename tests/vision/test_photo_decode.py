"""Photos decoded upright at the reader's working size (issue 18; by Pillow since issue
47): the EXIF orientation read from the file's header, JPEGs decoded at a fraction of
their size by the codec, and far-away dice read again from a larger decoding."""

from __future__ import annotations

import struct
from dataclasses import replace

import cv2
import numpy as np
import pytest
from photo_helpers import STORE, encode

from scorer import parse_roll
from vision.read.looks import reader_at_die_size
from vision.read.photo import PhotoSettings, read_photo
from vision.read.photo_file import (
    WORK_SIDE,
    BadImageError,
    ImageInfo,
    NotAnImageError,
    PhotoLimits,
    PhotoTooLargeError,
    decode_photo,
    inspect,
    open_photo,
)
from vision.read.settings import KeptLook, SecondLookSettings
from vision.reading import ReadDie, Reading


def picture(width: int = 360, height: int = 250) -> np.ndarray:
    """Something that looks different every way round: a gradient with a marked corner."""
    rng = np.random.default_rng(width * height)
    image = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    image[:40, :60] = (0, 0, 255)
    return image


def pillow_upright(data: bytes) -> np.ndarray:
    """How Pillow shows the file (ImageOps.exif_transpose), as BGR."""
    import io

    from PIL import Image, ImageOps

    shown = ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")
    return np.asarray(shown)[:, :, ::-1]


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_is_shown_as_pillow_shows_it(orientation):
    upright = picture()
    data = encode(STORE[orientation](upright), orientation, kind="PNG")
    info = inspect(data)
    assert info.orientation == orientation and info.kind == "png"
    assert info.upright_size == (360, 250)
    decoded = decode_photo(data, info)
    assert np.array_equal(decoded, pillow_upright(data))
    assert np.array_equal(decoded, upright)


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_a_jpegs_orientation_is_honoured_as_opencv_and_pillow_do(orientation):
    upright = cv2.GaussianBlur(picture(640, 480), (0, 0), 3)  # smooth: JPEG keeps it close
    data = encode(STORE[orientation](upright), orientation, quality=95)
    info = inspect(data)
    assert info.kind == "jpeg" and info.orientation == orientation
    assert (info.width, info.height) == ((480, 640) if orientation >= 5 else (640, 480))
    decoded = decode_photo(data, info)
    assert decoded.shape == upright.shape
    assert np.abs(decoded.astype(int) - upright).mean() < 3
    assert np.abs(decoded.astype(int) - pillow_upright(data)).mean() < 2
    # OpenCV's own imdecode applies the tag too (checked on 5.0); the reader applies it
    # itself from the header, so it does not depend on the installed release
    by_opencv = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if int(cv2.__version__.split(".")[0]) >= 5:
        assert np.abs(by_opencv.astype(int) - decoded).mean() < 2


def with_exif(jpeg: bytes, tiff: bytes) -> bytes:
    """The JPEG with an APP1 EXIF segment holding `tiff` right after its start marker."""
    segment = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(segment) + 2) + segment + jpeg[2:]


def test_the_orientation_is_read_from_either_byte_order():
    def tiff(order: str, value: int) -> bytes:
        mark = b"II" if order == "<" else b"MM"
        header = mark + struct.pack(order + "HI", 42, 8)
        entries = struct.pack(order + "H", 2)
        entries += struct.pack(order + "HHI", 0x010F, 2, 4) + b"Cam\x00"  # Make
        entries += struct.pack(order + "HHIH", 0x0112, 3, 1, value) + b"\x00\x00"
        return header + entries + struct.pack(order + "I", 0)

    plain = encode(picture(640, 480))
    assert inspect(with_exif(plain, tiff("<", 6))).orientation == 6
    assert inspect(with_exif(plain, tiff(">", 8))).orientation == 8
    assert inspect(with_exif(plain, tiff("<", 9))).orientation == 1  # not one: as stored
    assert inspect(with_exif(plain, b"garbage")).orientation == 1
    assert inspect(with_exif(plain, tiff("<", 3)[:14])).orientation == 1  # cut short
    turned = with_exif(plain, tiff(">", 8))
    assert decode_photo(turned, inspect(turned)).shape[:2] == (640, 480)


@pytest.mark.parametrize(("size", "orientation", "expected"), [
    ((4000, 3000), 1, (2000, 1500)),  # decoded at half size by the codec
    ((4000, 3000), 6, (1500, 2000)),  # ... and turned upright
    ((3000, 2000), 1, (2000, 1333)),  # shrunk to the working size
    ((1600, 1200), 1, (1600, 1200)),  # never enlarged
])
def test_photos_are_brought_to_the_working_size(size, orientation, expected):
    width, height = size
    image = cv2.resize(picture(400, 300), (width, height), interpolation=cv2.INTER_LINEAR)
    data = encode(image, orientation, quality=80)
    decoded = decode_photo(data, inspect(data))
    assert (decoded.shape[1], decoded.shape[0]) == expected
    assert max(expected) <= WORK_SIDE


def test_the_header_is_checked_before_any_pixel_is_decoded():
    data = encode(picture(640, 480))
    assert inspect(data) == ImageInfo("jpeg", 640, 480, 1)
    with pytest.raises(BadImageError, match="truncated"):
        inspect(data[:-200])
    with pytest.raises(BadImageError, match="truncated"):
        inspect(data[:300])  # cut inside the header
    png = encode(picture(640, 480), kind="PNG")
    with pytest.raises(BadImageError, match="PNG photo is truncated"):
        inspect(png[: len(png) - 12])  # no IEND


class ScaledReader:
    """Finds dice whose side is a fixed share of the image's width (a photo's dice stay
    the same share of it at any decoding size), and records the sizes it was given."""

    def __init__(self, share: float) -> None:
        self.share = share
        self.shapes: list[tuple[int, ...]] = []

    def read(self, frame: np.ndarray) -> Reading:
        self.shapes.append(frame.shape)
        side = self.share * frame.shape[1]
        dice = []
        for index, die in enumerate(parse_roll("8R 8B 8G 10O 5G 7R WR WB 1G 3R").dice):
            x, y = 20 + 2 * side * index, 40.0
            corners = ((x, y), (x + side, y), (x + side, y + side), (x, y + side))
            dice.append(ReadDie(die, 0.99, (x + side / 2, y + side / 2), corners, False))
        return Reading(tuple(dice), (frame.shape[1], frame.shape[0]))


def test_far_away_dice_are_read_again_from_a_larger_decoding():
    data = encode(cv2.resize(picture(400, 300), (4000, 3000)), quality=70)
    far = ScaledReader(0.012)  # 48 pixels in the photo, 24 at the working size
    result = read_photo(open_photo(data), far)
    assert [shape[:2] for shape in far.shapes] == [(1500, 2000), (3000, 4000)]
    assert result.looks == 2 and result.work_size == (4000, 3000)
    assert result.die_side == pytest.approx(48, abs=1)

    near = ScaledReader(0.05)  # 100 pixels at the working size: one look is enough
    result = read_photo(open_photo(data), near)
    assert [shape[:2] for shape in near.shapes] == [(1500, 2000)]
    assert result.looks == 1 and result.die_side > PhotoSettings().min_die_px


def test_the_photo_settings_passed_in_are_the_ones_read_by():
    data = encode(cv2.resize(picture(400, 300), (4000, 3000)), quality=70)
    far = ScaledReader(0.012)  # 24 pixels at the working size: enough for these settings
    result = read_photo(open_photo(data), far, PhotoSettings(min_die_px=20.0))
    assert [shape[:2] for shape in far.shapes] == [(1500, 2000)] and result.looks == 1


class SurerWhenLarger(ScaledReader):
    """Reads the same ten dice at any size, all of them marked below 3000 pixels wide."""

    def read(self, frame: np.ndarray) -> Reading:
        reading = super().read(frame)
        unsure = frame.shape[1] < 3000
        return replace(reading, dice=tuple(replace(die, unsure=unsure) for die in reading.dice))


@pytest.mark.parametrize(("keeps", "kept_size"), [(KeptLook.SURER, (4000, 3000)),
                                                  (KeptLook.MORE_DICE, (2000, 1500))])
def test_the_photo_keeps_the_reading_its_settings_say(keeps, kept_size):
    """Read again larger, the same dice come out surer: the surer reading is kept, or the
    first, which the later one adds no dice to."""
    data = encode(cv2.resize(picture(400, 300), (4000, 3000)), quality=70)
    reader = SurerWhenLarger(0.012)
    result = read_photo(open_photo(data), reader,
                        PhotoSettings(look=SecondLookSettings(keeps=keeps)))
    assert result.looks == 2 and result.work_size == kept_size
    assert result.reading.is_complete() is (keeps is KeptLook.SURER)


def test_off_size_dice_are_read_again_with_the_locator_at_the_width_they_call_for():
    from vision.read.pipeline import DiceReader

    class LooksAtAWidth:  # a locator that can be told the width to look at
        def locate_at(self, frame, tray, net_width):  # pragma: no cover - never called
            raise AssertionError("only the widths matter here")

    networks = DiceReader(object(), finder=LooksAtAWidth())  # stand-ins

    def width(side: float, complete: bool = True) -> int | None:
        reader = reader_at_die_size(networks, 2000, side, complete)
        return None if reader is None else reader.finder.net_width

    assert width(130) is None  # 20.8 px at the first look, ten dice read sure: done
    assert width(130, complete=False) == 480  # the right size, but not a whole roll
    assert width(300) == 128  # large dice: the width that shows them at 20 px
    assert width(60) == 672  # small dice
    assert width(100) == 480  # 16 px: at least 1.5 times finer than the first look
    assert width(0) is None  # no dice
    assert reader_at_die_size(ScaledReader(0.05), 2000, 300, True) is None  # not a DiceReader
    told_nothing = DiceReader(object(), finder=object())  # a locator without `locate_at`
    assert reader_at_die_size(told_nothing, 2000, 60, False) is None


def test_the_limits_are_checked_from_the_header_as_given():
    data = encode(picture(640, 480), kind="PNG")
    with pytest.raises(PhotoTooLargeError, match="PNG picture is 640x480 pixels, more than "
                       "0.2 megapixels: take it at a lower resolution, or send it as a JPEG"):
        inspect(data, PhotoLimits(max_png_pixels=200_000))
    with pytest.raises(BadImageError, match="only 640x480 pixels, too small"):
        inspect(data, PhotoLimits(min_sides=(800, 600)))
    assert inspect(data, PhotoLimits()).kind == "png"


def test_pillows_decompression_bomb_guard_refuses_what_the_limits_let_through():
    from PIL import Image

    data = encode(picture(640, 480))
    bomb = bytearray(data)
    frame = bomb.index(b"\xff\xc0")
    bomb[frame + 5:frame + 9] = struct.pack(">HH", 30000, 30000)  # 900 megapixels
    assert 900_000_000 > 2 * Image.MAX_IMAGE_PIXELS
    with pytest.raises(PhotoTooLargeError, match="far too many pixels"):
        inspect(bytes(bomb), PhotoLimits(max_pixels=10**12))


def test_heic_is_read_where_pillow_heif_is_installed_and_refused_by_name_otherwise(
        monkeypatch):
    import builtins

    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"
    real_import = builtins.__import__

    def without_heif(name, *args, **kwargs):
        if name.startswith("pillow_heif"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_heif)
    with pytest.raises(NotAnImageError, match="HEIF/HEIC"):
        inspect(heic)
    monkeypatch.undo()
    pillow_heif = pytest.importorskip("pillow_heif")
    from PIL import Image

    pillow_heif.register_heif_opener()
    import io

    buffer = io.BytesIO()
    Image.fromarray(picture(640, 480)[:, :, ::-1].copy()).save(buffer, "HEIF")
    info = inspect(buffer.getvalue())
    assert (info.kind, info.width, info.height) == ("heic", 640, 480)
    assert decode_photo(buffer.getvalue(), info).shape == (480, 640, 3)
