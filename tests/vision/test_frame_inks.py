"""Colour from the frame: a die's ink compared with the other dice of the same picture."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.read.frame_inks import frame_ink_evidence
from vision.read.ink_likelihood import ink_log_likelihood
from vision.read.settings import FrameInkSettings

SHIPPED = FrameInkSettings()

RED, ORANGE, GREEN, BLUE = range(4)
RED_INK = np.array([-0.9, -0.2, 1.1])  # BGR chroma: red well above blue
ORANGE_INK = np.array([-1.0, 0.3, 0.7])  # more green than the red ink


def sure(colour: int, strength: float = 0.97) -> np.ndarray:
    row = np.full(4, (1 - strength) / 3)
    row[colour] = strength
    return row


def torn(first: int, second: int) -> np.ndarray:
    row = np.full(4, 0.02)
    row[[first, second]] = 0.48
    return row


def test_a_torn_die_takes_the_colour_whose_ink_it_shares():
    chroma = np.stack([RED_INK, RED_INK + 0.03, ORANGE_INK, ORANGE_INK - 0.02, ORANGE_INK])
    probs = np.stack([sure(RED), sure(RED), sure(ORANGE), sure(ORANGE), torn(RED, ORANGE)])
    evidence = frame_ink_evidence(chroma, probs)
    assert evidence[4, ORANGE] > evidence[4, RED] + 1.0
    chroma[4] = RED_INK - 0.01  # the same die printed in the frame's red ink
    evidence = frame_ink_evidence(chroma, probs)
    assert evidence[4, RED] > evidence[4, ORANGE] + 1.0


def test_a_die_never_votes_for_itself():
    """The only orange die of a frame gets the neutral value for orange, not a perfect
    match with its own ink."""
    chroma = np.stack([RED_INK, RED_INK, ORANGE_INK])
    probs = np.stack([sure(RED, 1.0), sure(RED, 1.0), sure(ORANGE, 1.0)])
    evidence = frame_ink_evidence(chroma, probs, FrameInkSettings(rounds=1))
    assert evidence[2, ORANGE] == SHIPPED.unseen
    distance = np.sum((ORANGE_INK - RED_INK) ** 2)
    assert np.isclose(evidence[2, RED], ink_log_likelihood(distance, SHIPPED.sigma))
    assert evidence[0, GREEN] == evidence[0, BLUE] == SHIPPED.unseen


@given(arrays(np.float64, (1, 3), elements=st.floats(-2, 2)))
def test_a_lone_die_is_left_to_the_classifier(chroma):
    assert not frame_ink_evidence(chroma, sure(GREEN)[None]).any()


@given(
    st.integers(2, 10).flatmap(
        lambda n: st.tuples(
            arrays(np.float64, (n, 3), elements=st.floats(-2, 2)),
            arrays(np.float64, (n, 4), elements=st.floats(0.01, 1)),
        )
    )
)
def test_evidence_is_finite_never_above_a_perfect_match_and_ignores_order(case):
    chroma, raw = case
    probs = raw / raw.sum(axis=1, keepdims=True)
    evidence = frame_ink_evidence(chroma, probs)
    assert evidence.shape == probs.shape and np.isfinite(evidence).all()
    assert (evidence <= 0).all()
    order = np.arange(len(chroma))[::-1]
    reordered = frame_ink_evidence(chroma[order], probs[order])
    np.testing.assert_allclose(reordered, evidence[order], atol=1e-9)


def test_the_frame_settles_a_scene_the_classifier_alone_is_unsure_of():
    """A held-out-font scene (seed 2,000,000,001 of `benchmarks/eval_pipeline.py`) whose
    two dice the shipped classifier alone leaves unsure between two inks; the inks of
    the other dice of the same picture settle them."""
    import pytest

    from vision.evaluation import evaluate_pipeline
    from vision.read.pipeline import DiceReader
    from vision.read.settings import ColourSettings, ReaderSettings
    from vision.synth.font_library import MissingFontError
    from vision.synth.looks import eval_group

    try:
        look = eval_group("held-out-light").mix()
    except MissingFontError as error:  # `bash models/install_fonts.sh --held-out`
        pytest.skip(f"the held-out fonts are not installed: {error}")
    seeds = [2_000_000_001]
    no_inks = ReaderSettings(colour=ColourSettings(frame_inks=False))
    alone = evaluate_pipeline(DiceReader(settings=no_inks), seeds, look).scenes[0]
    framed = evaluate_pipeline(DiceReader(), seeds, look).scenes[0]
    assert alone.missed == 0 and alone.unsure >= 1 and not alone.all_right()
    assert framed.all_right()
