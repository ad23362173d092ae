"""A photo's reading is marked by the photos' own calibration where one is fitted
(`DiceReader.photo_calibration`, `models/photo_calibration.json`; none is shipped), else by
the frames': a photo keeps the surer of two readings of its dice, which the frames'
calibration, fitted on frames read once, may take for surer than it is."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.read.classifier import FacePredictions
from vision.read.looks import for_photos
from vision.read.photo import read_photo_file
from vision.read.pipeline import DiceReader
from vision.read.settings import ColourSettings, ReaderSettings
from vision.read.tops import Located
from vision.read.trust import (
    CALIBRATION_FILE,
    Calibration,
    MonotoneMap,
    TrustSettings,
)

#: Ten die tops 40 px across on a dark cloth.
_TOPS = [(60.0 + 80 * (k % 5), 60.0 + 90 * (k // 5)) for k in range(10)]


def _frame() -> np.ndarray:
    frame = np.full((240, 440, 3), 30, np.uint8)
    for x, y in _TOPS:
        frame[int(y) - 20:int(y) + 20, int(x) - 20:int(x) + 20] = 230
    return frame


class _ReadsFives:
    """A stand-in classifier: every crop is a red 5, read with the same belief."""

    sha256 = ""

    def predict(self, crops: np.ndarray) -> FacePredictions:
        value = np.full((len(crops), 11), 0.002)
        value[:, 4] = 0.98
        colour = np.tile([0.97, 0.01, 0.01, 0.01], (len(crops), 1))
        return FacePredictions(value, colour, np.ones(len(crops)))

    def predict_turns(self, crops: np.ndarray, turns: int = 1) -> FacePredictions:
        return self.predict(crops)


class _BoxesTheTops:
    """A stand-in locator that boxes the ten tops where they lie (and cannot be told a
    width to look at, so a photo takes no second look at the dice's size)."""

    def locate(self, frame: np.ndarray, tray=None) -> Located:
        boxes = tuple(np.array([[x - 20, y - 20], [x + 20, y - 20], [x + 20, y + 20],
                                [x - 20, y + 20]], np.float32) for x, y in _TOPS)
        return Located(boxes=boxes, die_side=40.0, scores=(1.0,) * len(boxes),
                       frame_width=frame.shape[1])


def _calibration(roll_sure: float) -> Calibration:
    """Every die 0.99 probable; a roll as probable as one plus the log of its dice's
    product (ten such dice: 0.8995)."""
    return Calibration(MonotoneMap((0.0,), (0.99,)), MonotoneMap((-1.0, 0.0), (0.0, 1.0)),
                       TrustSettings(roll_sure=roll_sure, die_sure=0.8))


def _reader(frames: Calibration, photos: Calibration | None | bool) -> DiceReader:
    settings = ReaderSettings(colour=ColourSettings(frame_inks=False), use_inventory=False)
    return DiceReader(_ReadsFives(), finder=_BoxesTheTops(), settings=settings,
                      calibration=frames, photo_calibration=photos, face_probe=False)


def _png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


def test_a_roll_sure_by_the_frames_bar_is_marked_by_the_photos_higher_one():
    """The same ten dice, 0.8995 probable together: a frame (bar 0.85) shows them sure;
    a photo (bar 0.95) marks the fewest dice that bring the rest up to its bar (four
    left unmarked: 0.9598)."""
    reader = _reader(_calibration(0.85), _calibration(0.95))
    frame = reader.read(_frame())
    assert frame.is_complete() and frame.roll_probability == pytest.approx(0.8995, abs=1e-3)
    photo = read_photo_file(_png(_frame()), reader).reading
    assert len(photo.dice) == 10 and not photo.is_complete()
    assert photo.unsure_count() == 6
    assert photo.roll_probability == pytest.approx(frame.roll_probability)


def test_a_reader_told_one_calibration_marks_its_photos_by_it_too():
    frames = _calibration(0.85)
    reader = _reader(frames, True)
    assert reader.photo_calibration is frames and for_photos(reader) is reader
    assert read_photo_file(_png(_frame()), reader).reading.is_complete()
    assert _reader(frames, None).photo_calibration is None  # told: by the posterior alone


def test_the_shipped_reader_takes_a_photo_calibration_where_one_is_fitted(
        tmp_path, monkeypatch, caplog):
    """`calibrate.py --as-photos --fit` writes the photos' own calibration, which the
    shipped reader then marks photos by; with none (as shipped) it takes the frames',
    and says nothing of the missing file."""
    import vision.read.pipeline as pipeline

    shipped = Calibration.load(CALIBRATION_FILE)
    assert shipped is not None
    monkeypatch.setattr(pipeline, "PHOTO_CALIBRATION_FILE", tmp_path / "none.json")
    with caplog.at_level("WARNING"):
        reader = DiceReader(threads=1)
    assert reader.photo_calibration is reader.calibration and for_photos(reader) is reader
    assert reader.calibration == shipped and not caplog.records

    fitted = replace(shipped, settings=replace(shipped.settings, roll_sure=0.95))
    fitted.save(tmp_path / "photos.json")
    monkeypatch.setattr(pipeline, "PHOTO_CALIBRATION_FILE", tmp_path / "photos.json")
    reader = DiceReader(threads=1)
    assert reader.calibration == shipped and reader.photo_calibration == fitted
    assert for_photos(reader).calibration == fitted
    assert DiceReader(threads=1, calibration=shipped).photo_calibration is shipped
