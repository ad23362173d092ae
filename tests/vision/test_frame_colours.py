"""Red against orange, and green against blue, settled by the frame networks
(`vision.read.frame_colours`)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorer.dice import COLOUR_RGB
from vision.read.frame_colours import (
    COOL_PAIR,
    FEATURES,
    GREEN_TO_BLUE,
    INK_PLANE,
    PAIRS,
    RED_TO_ORANGE,
    WARM,
    WARM_PAIR,
    FrameColours,
    PairNetwork,
    crop_lightness,
    pair_rows,
    replace_pair_odds,
    warm_pair,
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


def rows_of(pair, inks, colour_probs):
    """The rows of `pair` for dice printed in `inks` on white, read with `colour_probs`."""
    crops = np.stack([printed(ink) for ink in inks])
    probs = np.stack(colour_probs)
    chroma = ink_chroma(crops)
    return pair_rows(pair, chroma, probs, crop_lightness(crops),
                     frame_ink_evidence(chroma, probs))


def test_the_warm_pair_is_the_palettes_red_then_orange_and_the_cool_pair_green_then_blue():
    assert warm_pair() == WARM == (RED, ORANGE)
    assert WARM_PAIR.colours == [RED, ORANGE] and COOL_PAIR.colours == [GREEN, BLUE]
    assert WARM_PAIR.model_file != COOL_PAIR.model_file


def test_crop_lightness_tells_a_light_body_from_a_dark_one():
    crops = np.stack([printed((200, 20, 40)), printed((255, 140, 0), (25, 25, 25))])
    light, dark = crop_lightness(crops)
    assert light == pytest.approx(240 / 255) and dark == pytest.approx(25 / 255)
    assert crop_lightness(np.zeros((0, 40, 40, 3), np.uint8)).shape == (0,)


def test_warm_pair_rows_cover_the_warm_dice_only_and_place_them_along_red_to_orange():
    red, orange = COLOUR_RGB["R"], COLOUR_RGB["O"]
    inks = [red, mixed(red, orange, 0.3), mixed(red, orange, 0.7), orange,
            COLOUR_RGB["G"], COLOUR_RGB["B"]]
    warm = rows_of(WARM_PAIR, inks, [torn(RED, ORANGE)] * 4 + [sure(GREEN), sure(BLUE)])
    assert warm.index.tolist() == [0, 1, 2, 3]
    assert warm.rows.shape == (4, len(FEATURES)) and warm.rows.dtype == np.float32
    along = warm.rows[:, FEATURES.index(
        "ink along the pair's direction less the pair's dice's mean")]
    assert np.all(np.diff(along) > 0), "the inks lie in order from red to orange"
    redder = warm.rows[:, FEATURES.index(
        "share of the others lying nearer the first colour along the direction")]
    assert redder.tolist() == pytest.approx([0.0, 1 / 3, 2 / 3, 1.0])
    assert (warm.rows[:, FEATURES.index("the pair's dice in the frame")] == 4).all()


def test_cool_rows_cover_the_green_and_blue_dice_and_place_them_along_green_to_blue():
    green, blue = COLOUR_RGB["G"], COLOUR_RGB["B"]
    inks = [COLOUR_RGB["R"], green, mixed(green, blue, 0.3), mixed(green, blue, 0.7), blue]
    cool = rows_of(COOL_PAIR, inks, [sure(RED)] + [torn(GREEN, BLUE)] * 4)
    assert cool.index.tolist() == [1, 2, 3, 4]
    along = cool.rows[:, FEATURES.index(
        "ink along the pair's direction less the pair's dice's mean")]
    assert np.all(np.diff(along) > 0), "the inks lie in order from green to blue"
    greener = cool.rows[:, FEATURES.index(
        "share of the others lying nearer the first colour along the direction")]
    assert greener.tolist() == pytest.approx([0.0, 1 / 3, 2 / 3, 1.0])


def test_a_frame_without_warm_dice_has_no_rows():
    chroma = np.zeros((2, 3))
    probs = np.stack([sure(GREEN), sure(BLUE)])
    warm = pair_rows(WARM_PAIR, chroma, probs, np.ones(2), np.zeros((2, 4)))
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
def test_replaced_odds_are_the_networks_and_the_pairs_belief_is_kept(case):
    raw, evidence, log_odds = case
    probs = raw / raw.sum(axis=1, keepdims=True)
    index = np.arange(len(probs))
    for pair, others in ((WARM_PAIR, [GREEN, BLUE]), (COOL_PAIR, [RED, ORANGE])):
        out = replace_pair_odds(evidence, probs, pair, index, log_odds)
        belief_before = probs * np.exp(evidence)
        belief_after = probs * np.exp(out)
        np.testing.assert_allclose(
            belief_after[:, pair.colours].sum(axis=1),
            belief_before[:, pair.colours].sum(axis=1),
            rtol=1e-6,
        )
        expected = np.clip(log_odds, -np.log(1e9 - 1), np.log(1e9 - 1))
        np.testing.assert_allclose(
            np.log(belief_after[:, pair.first] / belief_after[:, pair.second]), expected,
            atol=1e-5,
        )
        np.testing.assert_array_equal(out[:, others], evidence[:, others])


@pytest.fixture(scope="module")
def frame_colours() -> FrameColours:
    return FrameColours.load()


def test_the_shipped_networks_read_their_contract(frame_colours):
    rows = np.zeros((3, len(FEATURES)), np.float32)
    assert [network.pair for network in frame_colours.networks] == list(PAIRS)
    for network in frame_colours.networks:
        assert network.log_odds(rows).shape == (3,)
        assert network.log_odds(rows[:0]).shape == (0,)
    assert frame_colours.names == ("models/frame_colours.onnx", "models/frame_cool_colours.onnx")


def test_one_network_per_pair(frame_colours):
    with pytest.raises(ValueError, match="one network per colour pair"):
        FrameColours(frame_colours.networks[:1] * 2)


@pytest.mark.parametrize(
    ("pair", "torn_ink", "other"),
    [(WARM_PAIR, "R", "G"), (WARM_PAIR, "O", "G"), (COOL_PAIR, "G", "R"), (COOL_PAIR, "B", "R")],
    ids=["warm-R", "warm-O", "cool-G", "cool-B"],
)
def test_a_torn_die_takes_the_colour_of_the_frames_dice_that_share_its_ink(
    frame_colours, pair, torn_ink, other
):
    """Two dice the classifier holds in the pair's first colour and two in its second,
    printed in the palette's inks, a die of another colour, and a die it cannot place
    between the two: that die goes with the dice whose ink it shares, the others keep
    theirs, and the die of another colour keeps the frame inks' evidence for the pair."""
    first, second = (COLOUR_LABELS[index] for index in pair.colours)
    inks = (first, first, second, second, torn_ink, other)
    crops = np.stack([printed(COLOUR_RGB[letter]) for letter in inks])
    probs = np.stack([sure(pair.first, 0.9), sure(pair.first, 0.9), sure(pair.second, 0.9),
                      sure(pair.second, 0.9), torn(pair.first, pair.second),
                      sure(COLOUR_LABELS.index(other))])
    chroma = ink_chroma(crops)
    evidence = frame_colours(chroma, probs, crop_lightness(crops))
    apart = evidence[:, pair.first] - evidence[:, pair.second]
    margin = apart * (1 if torn_ink == first else -1)
    assert margin[4] > 1.0, "the torn die takes its ink's colour"
    belief = np.log(probs[:, pair.first] / probs[:, pair.second]) + apart
    assert (belief[:2] > 1.0).all() and (belief[2:4] < -1.0).all()
    np.testing.assert_array_equal(evidence[5, pair.colours],
                                  frame_ink_evidence(chroma, probs)[5, pair.colours])


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
    seeds = [2_000_000_365, 2_000_000_408]
    # the inks alone: no marks from trust, nor from the face probe
    by_distance = DiceReader(calibration=None, face_probe=False)
    by_distance.ink_evidence = lambda chroma, probs, lightness: frame_ink_evidence(chroma, probs)
    alone = evaluate_pipeline(by_distance, seeds, look).scenes
    framed = evaluate_pipeline(DiceReader(calibration=None, face_probe=False), seeds,
                               look).scenes
    assert all(s.missed == 0 and not s.all_right() for s in alone)
    assert all(s.all_right() for s in framed)


def test_frames_without_warm_dice_keep_their_warm_evidence_and_one_die_keeps_all(frame_colours):
    crops = np.stack([printed(COLOUR_RGB["G"]), printed(COLOUR_RGB["B"])])
    probs = np.stack([sure(GREEN), sure(BLUE)])
    chroma = ink_chroma(crops)
    lightness = crop_lightness(crops)
    np.testing.assert_array_equal(
        frame_colours(chroma, probs, lightness)[:, [RED, ORANGE]],
        frame_ink_evidence(chroma, probs)[:, [RED, ORANGE]],
    )
    assert not frame_colours(chroma[:1], torn(RED, ORANGE)[None], lightness[:1]).any()


def test_the_pairs_directions_are_unit_vectors():
    for direction in (RED_TO_ORANGE, GREEN_TO_BLUE, WARM_PAIR.direction, COOL_PAIR.direction):
        assert np.linalg.norm(direction) == pytest.approx(1.0)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda pair: pair.name)
def test_a_corrupt_frame_network_is_refused_by_name(tmp_path, pair):
    from importlib import resources

    package = resources.files("models")
    copy = tmp_path / pair.model_file
    for name in (pair.model_file, pair.model_file.replace(".onnx", ".sha256")):
        shutil.copyfile(str(package.joinpath(name)), tmp_path / name)
    network = PairNetwork.load(pair, copy)
    assert network.log_odds(np.zeros((1, len(FEATURES)), np.float32)).shape == (1,)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(ModelFileError, match=f"{pair.model_file}.*SHA-256"):
        PairNetwork.load(pair, copy)
    paths = {"warm": {"path": copy}, "cool": {"cool_path": copy}}[pair.name]
    with pytest.raises(ModelFileError, match=f"{pair.model_file}.*SHA-256"):
        FrameColours.load(**paths)


def test_a_reader_uses_the_frame_network_unless_frame_inks_are_off():
    assert isinstance(DiceReader().ink_evidence, FrameColours)
    no_inks = ReaderSettings(colour=ColourSettings(frame_inks=False))
    assert DiceReader(settings=no_inks).ink_evidence is None


def _rows_one_die_at_a_time(pair, chroma, probs, lightness, evidence) -> np.ndarray:
    """FEATURES for each die of `pair`, written out die by die as the columns read: the
    reference the vectorised `pair_rows` must equal."""
    probs = np.maximum(probs, 1e-9)
    index = np.flatnonzero(probs[:, pair.first] + probs[:, pair.second] >= 0.5)
    direction = np.asarray(pair.direction)
    plane = chroma[index] @ INK_PLANE.T
    along, across = plane @ direction, plane @ np.array([-direction[1], direction[0]])
    odds = np.log(probs[index, pair.first] / probs[index, pair.second])
    inks = odds + evidence[index, pair.first] - evidence[index, pair.second]
    belief = 1 / (1 + np.exp(-odds))
    rows = []
    for a in range(len(index)):
        o = [j for j in range(len(index)) if j != a]
        row = [np.clip(odds[a], -12, 12), np.clip(inks[a], -12, 12), along[a] - along.mean()]
        refs, flags = [], []
        for weight in (belief[o], 1 - belief[o]):
            known = weight.sum() > 0.3
            refs.append(along[a] - weight @ along[o] / weight.sum() if known else 0.0)
            flags.append(0.0 if known else 1.0)
        row += refs + flags
        row += ([along[a] - min(along[o]), max(along[o]) - along[a],
                 np.clip(np.mean(odds[o]), -12, 12), across[a] - np.mean(across[o])]
                if o else [0] * 4)
        others = np.delete(probs[index[a]], pair.colours).sum()
        row += [lightness[index[a]], len(index),
                np.sum(belief[o] > 0.5), np.mean(along[o] < along[a]) if o else 0.5, others]
        rows.append(row)
    return np.array(rows, np.float32).reshape(-1, len(FEATURES))


@given(
    st.integers(1, 11).flatmap(
        lambda n: st.tuples(
            arrays(np.float64, (n, 3), elements=st.floats(-1, 1)),
            arrays(np.float64, (n, 4), elements=st.floats(0.001, 1)),
            arrays(np.float64, (n,), elements=st.floats(0, 1)),
            arrays(np.float64, (n, 4), elements=st.floats(-8, 8)),
        )
    ),
    st.sampled_from(PAIRS),
)
def test_each_dies_row_is_its_ink_against_the_others_of_its_pair(case, pair):
    chroma, raw, lightness, evidence = case
    probs = raw / raw.sum(axis=1, keepdims=True)
    rows = pair_rows(pair, chroma, probs, lightness, evidence)
    expected = _rows_one_die_at_a_time(pair, chroma, probs, lightness, evidence)
    np.testing.assert_allclose(rows.rows, expected, rtol=1e-5, atol=1e-5)
