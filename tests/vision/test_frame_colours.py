"""Red against orange settled by the frame network (`vision.read.frame_colours`)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorer.dice import COLOUR_RGB
from vision.read.frame_colours import (
    FEATURES,
    RED_TO_ORANGE,
    WARM,
    FrameColours,
    crop_lightness,
    replace_warm_odds,
    warm_pair,
    warm_rows,
)
from vision.read.frame_inks import frame_ink_evidence, ink_chroma
from vision.read.model_io import COLOUR_LABELS
from vision.read.onnx_model import ModelFileError
from vision.read.pipeline import DiceReader
from vision.read.settings import ColourSettings, ReaderSettings

RED, ORANGE, GREEN, BLUE = (COLOUR_LABELS.index(letter) for letter in "ROGB")
WHITE_BODY = (240, 240, 240)


def printed(ink_rgb: tuple[int, ...], body_bgr: tuple[int, ...] = WHITE_BODY) -> np.ndarray:
    """A 40-pixel crop of a die's body with a bar of ink across its middle (BGR)."""
    crop = np.empty((40, 40, 3), np.uint8)
    crop[:] = body_bgr
    crop[14:26, 12:28] = ink_rgb[::-1]
    return crop


def mixed(rgb_a: tuple[int, ...], rgb_b: tuple[int, ...], share: float) -> tuple[int, ...]:
    return tuple(int(round(a * (1 - share) + b * share)) for a, b in zip(rgb_a, rgb_b, strict=True))


def torn(first: int, second: int) -> np.ndarray:
    row = np.full(4, 0.02)
    row[[first, second]] = 0.48
    return row


def sure(colour: int, strength: float = 0.97) -> np.ndarray:
    row = np.full(4, (1 - strength) / 3)
    row[colour] = strength
    return row


def test_the_warm_pair_is_the_palettes_red_then_orange():
    assert warm_pair() == WARM == (RED, ORANGE)


def test_crop_lightness_tells_a_light_body_from_a_dark_one():
    crops = np.stack([printed((200, 20, 40)), printed((255, 140, 0), (25, 25, 25))])
    light, dark = crop_lightness(crops)
    assert light == pytest.approx(240 / 255) and dark == pytest.approx(25 / 255)
    assert crop_lightness(np.zeros((0, 40, 40, 3), np.uint8)).shape == (0,)


def test_warm_rows_cover_the_warm_dice_only_and_place_them_along_red_to_orange():
    red, orange = COLOUR_RGB["R"], COLOUR_RGB["O"]
    inks = [red, mixed(red, orange, 0.3), mixed(red, orange, 0.7), orange,
            COLOUR_RGB["G"], COLOUR_RGB["B"]]
    crops = np.stack([printed(ink) for ink in inks])
    probs = np.stack([torn(RED, ORANGE)] * 4 + [sure(GREEN), sure(BLUE)])
    chroma = ink_chroma(crops)
    warm = warm_rows(chroma, probs, crop_lightness(crops), frame_ink_evidence(chroma, probs))
    assert warm.index.tolist() == [0, 1, 2, 3]
    assert warm.rows.shape == (4, len(FEATURES)) and warm.rows.dtype == np.float32
    along = warm.rows[:, FEATURES.index(
        "ink along the red-to-orange direction less the warm dice's mean")]
    assert np.all(np.diff(along) > 0), "the inks lie in order from red to orange"
    redder = warm.rows[:, FEATURES.index("share of the others lying redder along the direction")]
    assert redder.tolist() == pytest.approx([0.0, 1 / 3, 2 / 3, 1.0])
    assert (warm.rows[:, FEATURES.index("warm dice in the frame")] == 4).all()


def test_a_frame_without_warm_dice_has_no_rows():
    chroma = np.zeros((2, 3))
    probs = np.stack([sure(GREEN), sure(BLUE)])
    warm = warm_rows(chroma, probs, np.ones(2), np.zeros((2, 4)))
    assert warm.index.size == 0 and warm.rows.shape == (0, len(FEATURES))


@given(
    st.integers(1, 10).flatmap(
        lambda n: st.tuples(
            arrays(np.float64, (n, 4), elements=st.floats(0.01, 1)),
            arrays(np.float64, (n, 4), elements=st.floats(-8, 0)),
            arrays(np.float64, (n,), elements=st.floats(-20, 20)),
        )
    )
)
def test_replaced_odds_are_the_networks_and_the_warm_belief_is_kept(case):
    raw, evidence, log_odds = case
    probs = raw / raw.sum(axis=1, keepdims=True)
    index = np.arange(len(probs))
    out = replace_warm_odds(evidence, probs, index, log_odds)
    belief_before = probs * np.exp(evidence)
    belief_after = probs * np.exp(out)
    np.testing.assert_allclose(
        belief_after[:, [RED, ORANGE]].sum(axis=1),
        belief_before[:, [RED, ORANGE]].sum(axis=1),
        rtol=1e-6,
    )
    expected = np.clip(log_odds, -np.log(1e9 - 1), np.log(1e9 - 1))
    np.testing.assert_allclose(
        np.log(belief_after[:, RED] / belief_after[:, ORANGE]), expected, atol=1e-5
    )
    np.testing.assert_array_equal(out[:, [GREEN, BLUE]], evidence[:, [GREEN, BLUE]])


@pytest.fixture(scope="module")
def frame_colours() -> FrameColours:
    return FrameColours.load()


def test_the_shipped_network_reads_its_contract(frame_colours):
    rows = np.zeros((3, len(FEATURES)), np.float32)
    assert frame_colours.red_log_odds(rows).shape == (3,)
    assert frame_colours.red_log_odds(rows[:0]).shape == (0,)


@pytest.mark.parametrize("torn_ink", ["R", "O"])
def test_a_torn_die_takes_the_colour_of_the_frames_dice_that_share_its_ink(
    frame_colours, torn_ink
):
    """Two dice the classifier holds red and two it holds orange, printed in the
    palette's red and orange, a green one, and a die it cannot place between red and
    orange: that die goes with the dice whose ink it shares, and the others keep theirs."""
    inks = ("R", "R", "O", "O", torn_ink, "G")
    crops = np.stack([printed(COLOUR_RGB[letter]) for letter in inks])
    probs = np.stack([sure(RED, 0.9), sure(RED, 0.9), sure(ORANGE, 0.9), sure(ORANGE, 0.9),
                      torn(RED, ORANGE), sure(GREEN)])
    chroma = ink_chroma(crops)
    evidence = frame_colours(chroma, probs, crop_lightness(crops))
    margin = (evidence[:, RED] - evidence[:, ORANGE]) * (1 if torn_ink == "R" else -1)
    assert margin[4] > 1.0, "the torn die takes its ink's colour"
    belief = np.log(probs[:, RED] / probs[:, ORANGE]) + evidence[:, RED] - evidence[:, ORANGE]
    assert (belief[:2] > 1.0).all() and (belief[2:4] < -1.0).all()
    np.testing.assert_array_equal(evidence[5], frame_ink_evidence(chroma, probs)[5])


def test_the_frame_network_settles_scenes_the_frame_inks_alone_misread():
    """Two held-out-font scenes on dark bodies (seeds of `benchmarks/eval_pipeline.py
    --group held-out-dark --scenes 300`) in which comparing inks by distance alone
    leaves a die torn between red and orange: the frame network reads all ten."""
    from vision.evaluation import evaluate_pipeline
    from vision.synth.font_library import MissingFontError
    from vision.synth.looks import eval_group

    try:
        look = eval_group("held-out-dark").mix()
    except MissingFontError as error:  # `bash models/install_fonts.sh --held-out`
        pytest.skip(f"the held-out fonts are not installed: {error}")
    seeds = [2_000_000_310, 2_000_000_401]
    # the inks alone: no marks from trust, nor from the face probe
    by_distance = DiceReader(calibration=None, face_probe=False)
    by_distance.ink_evidence = lambda chroma, probs, lightness: frame_ink_evidence(chroma, probs)
    alone = evaluate_pipeline(by_distance, seeds, look).scenes
    framed = evaluate_pipeline(DiceReader(calibration=None, face_probe=False), seeds,
                               look).scenes
    assert all(s.missed == 0 and not s.all_right() for s in alone)
    assert all(s.all_right() for s in framed)


def test_frames_without_warm_dice_or_with_one_die_keep_the_frame_inks(frame_colours):
    crops = np.stack([printed(COLOUR_RGB["G"]), printed(COLOUR_RGB["B"])])
    probs = np.stack([sure(GREEN), sure(BLUE)])
    chroma = ink_chroma(crops)
    lightness = crop_lightness(crops)
    np.testing.assert_array_equal(
        frame_colours(chroma, probs, lightness), frame_ink_evidence(chroma, probs)
    )
    assert not frame_colours(chroma[:1], torn(RED, ORANGE)[None], lightness[:1]).any()


def test_the_red_to_orange_direction_is_a_unit_vector():
    assert np.linalg.norm(RED_TO_ORANGE) == pytest.approx(1.0)


def test_a_corrupt_frame_network_is_refused_by_name(tmp_path):
    from importlib import resources

    package = resources.files("models")
    copy = tmp_path / "frame_colours.onnx"
    for name in ("frame_colours.onnx", "frame_colours.sha256"):
        shutil.copyfile(str(package.joinpath(name)), tmp_path / name)
    assert FrameColours.load(copy).red_log_odds(np.zeros((1, len(FEATURES)), np.float32)).shape
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(ModelFileError, match="frame_colours.onnx.*SHA-256"):
        FrameColours.load(copy)


def test_a_reader_uses_the_frame_network_unless_frame_inks_are_off():
    assert isinstance(DiceReader().ink_evidence, FrameColours)
    no_inks = ReaderSettings(colour=ColourSettings(frame_inks=False))
    assert DiceReader(settings=no_inks).ink_evidence is None
