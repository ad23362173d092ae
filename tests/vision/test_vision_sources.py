"""Frame sources: specs, image folders, video files, and the Pi camera's exposure lock."""

import sys

import cv2
import numpy as np
import pytest
from fakes import install_fake_picamera2

from vision.camera.camera_contract import SourceKind, SourceSpec, parse_source_spec
from vision.camera.sources import (
    ImageFolderSource,
    OpenCVSource,
    PiCameraSource,
    SourceError,
    open_source,
)


def frame(shade):
    image = np.full((48, 64, 3), shade, np.uint8)
    image[10:20, 10:20] = (0, 0, 255)
    return image


@pytest.mark.parametrize(
    ("spec", "kind"),
    [("images:frames", ImageFolderSource), ("video:roll.mp4", OpenCVSource),
     ("device:0", OpenCVSource), ("picamera", PiCameraSource)],
)
def test_specs_name_their_source(spec, kind):
    assert isinstance(open_source(spec), kind)


@pytest.mark.parametrize(
    ("spec", "message"),
    [("webcam", "'webcam' is not a frame source"), ("device:abc", "expected a device number"),
     ("video:", "needs a file"), ("images", "needs an argument"), ("demo:3", "not a frame source"),
     ("", "not a frame source")],
)
def test_bad_specs_say_what_was_wrong(spec, message):
    with pytest.raises(SourceError, match=message):
        open_source(spec)


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [("demo", SourceSpec(SourceKind.DEMO)), (" picamera ", SourceSpec(SourceKind.PICAMERA)),
     ("device:2", SourceSpec(SourceKind.DEVICE, "2")),
     ("video:a:b.mp4", SourceSpec(SourceKind.VIDEO, "a:b.mp4")),
     ("images:frames/", SourceSpec(SourceKind.IMAGES, "frames/"))],
)
def test_the_spec_grammar_is_parsed_without_opening_anything(spec, parsed):
    assert parse_source_spec(spec) == parsed
    assert parse_source_spec("device:2").device == 2


def test_image_folder_yields_frames_in_name_order_and_skips_broken_files(tmp_path):
    cv2.imwrite(str(tmp_path / "b.png"), frame(200))
    cv2.imwrite(str(tmp_path / "a.png"), frame(100))
    (tmp_path / "c.jpg").write_bytes(b"not an image")
    (tmp_path / "notes.txt").write_text("ignored")
    with open_source(f"images:{tmp_path}") as source:
        frames = list(source)
    assert [int(f[0, 0, 0]) for f in frames] == [100, 200]
    assert all(f.shape == (48, 64, 3) and f.dtype == np.uint8 for f in frames)


def test_image_folder_errors(tmp_path):
    with pytest.raises(SourceError, match="not a folder"), open_source(f"images:{tmp_path}/x"):
        pass
    with pytest.raises(SourceError, match="no images"), open_source(f"images:{tmp_path}"):
        pass


def test_video_file_frames_then_end(tmp_path):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for shade in (50, 100, 150):
        writer.write(frame(shade))
    writer.release()
    with open_source(f"video:{path}") as source:
        frames = list(source)
    assert len(frames) == 3
    assert frames[0].shape == (48, 64, 3)
    assert abs(int(frames[2][40, 40, 0]) - 150) < 10


def test_missing_video_file(tmp_path):
    with pytest.raises(SourceError, match="no such video file"), open_source(
        f"video:{tmp_path}/none.mp4"
    ):
        pass


def test_picamera_locks_exposure_and_white_balance_after_warm_up(monkeypatch):
    made = install_fake_picamera2(monkeypatch)
    with PiCameraSource(size=(640, 480), warmup=0) as source:
        frames = source.frames()
        first = next(frames)
        camera = made[-1]
        assert camera.config == {"main": {"size": (640, 480), "format": "RGB888"}}
        assert camera.controls == [{"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000,
                                    "AnalogueGain": 2.0, "ColourGains": (1.6, 1.9)}]
    assert first.shape == (48, 64, 3)
    assert camera.closed and not camera.started
    assert list(frames) == []


def test_picamera_without_picamera2_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError, match="picamera2 is not installed"), open_source("picamera"):
        pass


@pytest.mark.picamera
def test_real_pi_camera_gives_colour_frames():
    pytest.importorskip("picamera2")
    with open_source("picamera") as source:
        frames = iter(source)
        first, second = next(frames), next(frames)
    assert first.ndim == 3 and first.shape[2] == 3 and first.dtype == np.uint8
    assert first.shape == second.shape
