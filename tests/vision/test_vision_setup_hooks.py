"""The hooks the camera set-up page uses: tray as fractions, a test reading, exposure lock."""

from pathlib import Path

import cv2
import numpy as np
import pytest
from fakes import install_fake_picamera2

from vision.camera.demo import DemoSource
from vision.camera.live import TableWatcher
from vision.camera.sources import (
    ExposureLockError,
    ImageFolderSource,
    OpenCVSource,
    PiCameraSource,
    open_source,
)
from vision.read.overlay import TRAY_BGR
from vision.reading import Reading

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"


class RecordingReader:
    """Reads nothing; remembers the tray (pixels) it had at each frame."""

    def __init__(self, tray=None):
        self.tray = tray
        self.trays = []

    def read(self, frame):
        self.trays.append(None if self.tray is None else self.tray.copy())
        return Reading.empty((frame.shape[1], frame.shape[0]))


def write_frames(folder: Path, sizes) -> None:
    folder.mkdir()
    for index, (width, height) in enumerate(sizes):
        cv2.imwrite(str(folder / f"{index:02d}.png"), np.full((height, width, 3), 90, np.uint8))


QUAD = [(0.25, 0.2), (0.75, 0.2), (0.75, 0.8), (0.25, 0.8)]


def test_tray_fractions_follow_each_frames_resolution(tmp_path):
    write_frames(tmp_path / "f", [(200, 100)] * 2 + [(400, 300)] * 2)
    reader = RecordingReader()
    watcher = TableWatcher("images", reader=reader, source=ImageFolderSource(tmp_path / "f"))
    watcher.set_tray_fractions(QUAD)  # before watching starts: applied from the first frame
    with watcher:
        list(watcher.events())
    small, large = reader.trays[0], reader.tray  # the settle watcher reads frames at rest only
    assert np.allclose(small, [(50, 20), (150, 20), (150, 80), (50, 80)])
    assert np.allclose(large, [(100, 60), (300, 60), (300, 240), (100, 240)])


def test_the_constructor_tray_holds_until_fractions_are_set_and_none_clears_it(tmp_path):
    write_frames(tmp_path / "f", [(200, 100)] * 3)
    pixels = np.array([(0, 0), (10, 0), (10, 10), (0, 10)], np.float32)
    reader = RecordingReader(tray=pixels)
    with TableWatcher("images", reader=reader, source=ImageFolderSource(tmp_path / "f")) as w:
        list(w.events())
        assert reader.trays and all(np.array_equal(tray, pixels) for tray in reader.trays)
        w.set_tray_fractions(QUAD)  # a frame was seen: applied at once, in its pixels
        assert np.allclose(reader.tray, [(50, 20), (150, 20), (150, 80), (50, 80)])
        w.set_tray_fractions(None)
        assert reader.tray is None


def test_read_now_reads_the_latest_frame_and_outlines_the_tray(tmp_path):
    write_frames(tmp_path / "f", [(200, 100)] * 2)
    reader = RecordingReader()
    with TableWatcher("images", reader=reader, source=ImageFolderSource(tmp_path / "f")) as w:
        assert w.read_now() is None  # no frame yet
        list(w.events())
        w.set_tray_fractions(QUAD)
        reading, jpeg = w.read_now()
    assert reading.frame_size == (200, 100) and reading.dice == ()
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (100, 200, 3)
    edge = picture[50, 50].astype(int)  # on the tray's left side (x = 0.25 * 200)
    assert np.abs(edge - TRAY_BGR).max() < 60
    assert np.abs(picture[50, 100].astype(int) - 90).max() < 20  # the inside is untouched


def test_a_real_reader_finds_only_the_dice_inside_the_tray(tmp_path):
    if not (GOLDEN / "full_light.jpg").is_file():
        pytest.skip("the golden scenes are not in this checkout")
    from vision.read.pipeline import DiceReader

    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a.jpg").write_bytes((GOLDEN / "full_light.jpg").read_bytes())
    reader = DiceReader(threads=1)
    with TableWatcher("images", reader=reader, source=ImageFolderSource(folder)) as watcher:
        list(watcher.events())
        whole, _ = watcher.read_now()
        watcher.set_tray_fractions([(0, 0), (0.5, 0), (0.5, 1), (0, 1)])
        left, _ = watcher.read_now()
    width = whole.frame_size[0]
    assert len(whole.dice) == 10
    assert 0 < len(left.dice) < 10
    assert all(read.centre[0] < width / 2 for read in left.dice)
    expected = sorted(str(r.die) for r in whole.dice if r.centre[0] < width / 2 - 20)
    assert set(expected) <= {str(r.die) for r in left.dice}


@pytest.fixture
def picamera(monkeypatch):
    return install_fake_picamera2(monkeypatch)


def test_lock_now_freezes_the_current_auto_values_and_unlock_returns_to_auto(picamera):
    with PiCameraSource(size=(640, 480), warmup=0) as source:
        camera = picamera[-1]
        camera.metadata.update(ExposureTime=12000.4, AnalogueGain=3.5, ColourGains=[1.2, 2.1])
        locked = source.lock_exposure()
        expected = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                    "AnalogueGain": 3.5, "ColourGains": (1.2, 2.1)}
        assert locked == expected and camera.controls[-1] == expected
        assert source.exposure_controls() == expected and source.exposure is source
        source.unlock_exposure()
        assert camera.controls[-1] == {"AeEnable": True, "AwbEnable": True}
        assert source.exposure_controls() is None


def test_lock_with_saved_values_sets_exactly_those(picamera):
    with PiCameraSource(size=(640, 480), warmup=0) as source:
        source.lock_exposure({"ExposureTime": 20000, "AnalogueGain": 1.5,
                              "ColourGains": [1.8, 1.4]})
        assert picamera[-1].controls[-1] == {
            "AeEnable": False, "AwbEnable": False, "ExposureTime": 20000,
            "AnalogueGain": 1.5, "ColourGains": (1.8, 1.4)}
        with pytest.raises(ExposureLockError, match="without AnalogueGain"):
            source.lock_exposure({"ExposureTime": 1, "ColourGains": [1, 1]})


def test_locking_a_closed_pi_camera_says_it_is_not_open(picamera):
    with pytest.raises(ExposureLockError, match="not open"):
        PiCameraSource().lock_exposure()


@pytest.mark.parametrize("source", [OpenCVSource(0), OpenCVSource("roll.mp4"),
                                    ImageFolderSource("frames"), open_source("demo")])
def test_sources_without_camera_controls_have_no_exposure_control(source):
    assert source.exposure is None


def test_a_watcher_has_the_capabilities_of_its_source(picamera):
    """Exposure control on the Pi camera only; a dice thrower on the demo opened to throw."""
    pi, demo, timed = PiCameraSource(), DemoSource(on_request=True), DemoSource()
    folder = ImageFolderSource("frames")
    assert TableWatcher("picamera", reader=RecordingReader(), source=pi).exposure is pi
    assert TableWatcher("demo", reader=RecordingReader(), source=demo).thrower is demo
    for source in (timed, folder):
        watcher = TableWatcher("demo", reader=RecordingReader(), source=source)
        assert watcher.exposure is None and watcher.thrower is None
