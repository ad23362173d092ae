"""Scoring a reading against the true dice (`vision.evaluation`): what counts as right."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from scorer.dice import Die
from vision.evaluation import PipelineScore, score_reading
from vision.reading import ReadDie, Reading


@dataclass(frozen=True)
class TrueDie:
    die: Die
    centre: tuple[float, float]
    corners: np.ndarray


def true_die(notation: str, x: float) -> TrueDie:
    corners = np.array([[x - 20, 80], [x + 20, 80], [x + 20, 120], [x - 20, 120]], float)
    return TrueDie(Die.from_text(notation), (x, 100.0), corners)


def read_die(notation: str, x: float, unsure: bool) -> ReadDie:
    return ReadDie(Die.from_text(notation), 0.6 if unsure else 0.99, (x + 3, 101.0), (), unsure)


TRUTH = (true_die("8R", 100), true_die("5O", 200), true_die("WG", 300), true_die("3B", 400))
READING = Reading(
    (
        read_die("8R", 100, unsure=False),  # right and sure
        read_die("5O", 200, unsure=True),  # right, but the players are asked
        read_die("WR", 300, unsure=True),  # wrong, and the players are asked
        read_die("3G", 400, unsure=False),  # wrong for sure
    ),
    (640, 480),
)


def test_an_unsure_die_counts_as_not_right_but_as_read_right_when_its_face_is():
    score = score_reading(1, TRUTH, READING, 0.0)
    assert (score.dice, score.missed, score.extra) == (4, 0, 0)
    assert score.right == 1 and score.read_right == 2 and score.unsure == 2
    assert not score.all_right() and not score.all_read_right()


def test_a_scene_read_right_but_unsure_is_right_only_by_its_first_readings():
    reading = Reading(tuple(read_die(str(t.die), t.centre[0], unsure=i == 1)
                            for i, t in enumerate(TRUTH)), (640, 480))
    score = score_reading(2, TRUTH, reading, 0.0)
    assert score.all_read_right() and not score.all_right()
    pooled = PipelineScore((score, score_reading(1, TRUTH, READING, 0.0)))
    assert pooled.die_accuracy == pytest.approx(4 / 8)
    assert pooled.first_reading_accuracy == pytest.approx(6 / 8)
    assert pooled.first_reading_all_right_rate == pytest.approx(1 / 2)
    assert pooled.all_right_rate == 0.0
    figures = pooled.to_dict()
    assert figures["per_die_first_reading"] == 0.75 and figures["all_first_readings_right"] == 0.5


def test_a_die_read_far_from_any_true_die_is_missed_and_extra():
    far = Reading((read_die("8R", 600, unsure=False),), (640, 480))
    score = score_reading(3, TRUTH[:1], far, 0.0)
    assert (score.missed, score.extra, score.read_right) == (1, 1, 0)
