"""The ink likelihood: Gaussian near a colour's reference ink, forgiving far from all."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision.read.ink_likelihood import ink_log_likelihood
from vision.read.settings import FrameInkSettings

SIGMA = 0.2


def gaussian(squared_distance: float) -> float:
    return -squared_distance / (2 * SIGMA**2)


def test_near_a_reference_it_is_the_gaussian():
    for distance in (0.0, 0.05, 0.1):
        assert np.isclose(ink_log_likelihood(distance**2, SIGMA), gaussian(distance**2), atol=0.02)


def test_a_lost_ink_far_from_every_reference_barely_tells_them_apart():
    """A green die whose measured ink landed far from every colour (a side face in its
    box): the colour it lies a little nearer gains tens of nats under a Gaussian, a few
    tenths here, so the classifier's reading stands."""
    nearer, farther = 3.7, 3.9  # squared distances to the blue and green references
    assert gaussian(nearer) - gaussian(farther) > 2.0
    gap = ink_log_likelihood(nearer, SIGMA) - ink_log_likelihood(farther, SIGMA)
    assert 0 < gap < 0.5


def test_many_degrees_of_freedom_give_the_gaussian_back():
    distances = np.array([0.0, 0.1, 1.0, 4.0])
    np.testing.assert_allclose(
        ink_log_likelihood(distances, SIGMA, degrees=1e9), gaussian(distances), rtol=1e-6
    )


@given(st.floats(0, 10), st.floats(0, 10))
def test_nearer_is_never_less_likely(a, b):
    near, far = sorted((a, b))
    assert ink_log_likelihood(near, SIGMA) >= ink_log_likelihood(far, SIGMA)
    assert ink_log_likelihood(0.0, SIGMA) == 0.0
    assert FrameInkSettings().degrees > 1
