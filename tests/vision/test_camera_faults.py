"""The camera faults of `benchmarks/eval_camera_faults.py`: each does what it stands for,
and a fault that moves the dice moves their truth with them."""

from dataclasses import dataclass

import cv2
import numpy as np
import pytest
from benchmark_modules import load_benchmark

from vision.synth.font_library import Split, font_files

camera_faults = load_benchmark("camera_faults")


@dataclass(frozen=True)
class Truth:
    centre: tuple[float, float]
    corners: np.ndarray


@pytest.fixture(scope="module")
def tray() -> np.ndarray:
    """A mid-grey cloth with colourful, sharp-edged squares: something every fault changes."""
    rng = np.random.default_rng(3)
    image = np.full((240, 320, 3), 120, np.uint8)
    for _ in range(12):
        x, y = rng.integers(10, 280), rng.integers(10, 200)
        colour = [int(c) for c in rng.integers(30, 230, 3)]
        cv2.rectangle(image, (int(x), int(y)), (int(x) + 24, int(y) + 24), colour, -1)
    return image


def spoil(name: str, image: np.ndarray) -> np.ndarray:
    frame, _ = camera_faults.spoiled(camera_faults.fault(name), image, (), seed=1)
    return frame


def sharpness(image: np.ndarray) -> float:
    return float(np.abs(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_64F)).mean())


def chroma(image: np.ndarray) -> float:
    """Mean spread between a pixel's strongest and weakest channel: 0 for greys."""
    channels = image.astype(float)
    return float((channels.max(axis=2) - channels.min(axis=2)).mean())


def test_every_fault_keeps_the_frame_a_bgr_image_and_only_clean_leaves_it_as_it_is(tray):
    names = [fault.name for fault in camera_faults.FAULTS]
    assert len(set(names)) == len(names)
    for name in names:
        frame = spoil(name, tray)
        assert frame.shape == tray.shape and frame.dtype == np.uint8, name
        assert np.array_equal(frame, tray) == (name == "clean"), name


@pytest.mark.parametrize("name", ["defocus", "motion", "half resolution"])
def test_blurring_faults_lose_detail(tray, name):
    assert sharpness(spoil(name, tray)) < 0.8 * sharpness(tray)


def test_exposure_faults_darken_or_brighten(tray):
    assert spoil("dim", tray).mean() == pytest.approx(0.45 * tray.mean(), rel=0.05)
    assert spoil("bright", tray).mean() > tray.mean() + 20


def test_a_blown_exposure_scales_the_light_and_clips_it_at_white(tray):
    blown = spoil("blown", tray).astype(float)
    source = tray.astype(float)
    below = source * 1.4 < 254
    assert np.allclose(blown[below], source[below] * 1.4, atol=1.0)
    assert (blown[~below] >= 254).all() and (~below).any()  # the bright squares clip


def test_a_warm_lamp_lowers_blue_and_raises_red_and_a_cool_one_the_reverse(tray):
    means = {name: spoil(name, tray).reshape(-1, 3).mean(axis=0) for name in ("warm", "cool")}
    base = tray.reshape(-1, 3).mean(axis=0)
    assert means["warm"][0] < base[0] and means["warm"][2] > base[2]
    assert means["cool"][0] > base[0] and means["cool"][2] < base[2]


def test_washed_out_colour_keeps_brightness_and_loses_chroma(tray):
    faded = spoil("washed out", tray)
    assert chroma(faded) == pytest.approx(0.6 * chroma(tray), rel=0.05)
    assert faded.mean() == pytest.approx(tray.mean(), rel=0.05)


def test_a_tilted_camera_moves_the_dice_truth_with_the_picture():
    image = np.zeros((240, 320, 3), np.uint8)
    corners = np.float32([[60, 40], [90, 40], [90, 70], [60, 70]])
    cv2.fillConvexPoly(image, corners.astype(np.int32), (255, 255, 255))
    truth = (Truth((75.0, 55.0), corners),)
    frame, moved = camera_faults.spoiled(camera_faults.fault("tilted"), image, truth, seed=1)
    ys, xs = np.nonzero(frame[..., 0] > 128)
    assert moved[0].centre == pytest.approx((xs.mean(), ys.mean()), abs=1.0)
    assert moved[0].centre[0] > truth[0].centre[0] + 3  # the top edge drew in
    assert moved[0].corners.shape == (4, 2)


def test_an_unknown_fault_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="known are clean, defocus"):
        camera_faults.fault("fisheye")


@pytest.mark.slow
def test_the_evaluation_reads_a_spoilt_tray_where_its_dice_now_lie():
    """Two trays through the clean and the tilted camera (`eval_camera_faults.evaluate`):
    every die is found where the fault moved it."""
    pytest.importorskip("PIL", reason="Pillow (the dev extra) draws the foreign trays")
    if not font_files(Split.HELD_OUT, require=False):
        pytest.skip("held-out fonts not installed (models/install_fonts.sh --held-out)")
    evaluation = load_benchmark("eval_camera_faults")
    from vision.read.pipeline import DiceReader

    faults = (camera_faults.fault("clean"), camera_faults.fault("tilted"))
    first = evaluation.FIRST_SEED + 500_000
    scores = evaluation.evaluate(DiceReader(threads=1), faults, range(first, first + 2))
    for name, score in scores.items():
        assert all(scene.all_found() for scene in score.scenes), name
        assert sum(scene.right for scene in score.scenes) >= 18, name
