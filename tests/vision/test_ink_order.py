"""Distinct inks are distinct colours (`vision.read.ink_order`).

Frames are built in the plane of ink chroma, where each die's ink is a direction from
its body's colour: the palette's reference inks, turned and scaled as an unseen set's
shades and print strengths would be, read by a classifier that is sure of a wrong
colour for one whole set.
"""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read.frame_colours import INK_PLANE
from vision.read.ink_order import (
    FAMILIES,
    ink_groups,
    ink_order_evidence,
    palette_angle,
)
from vision.read.model_io import COLOUR_LABELS
from vision.read.settings import InkOrderSettings

RED, ORANGE, GREEN, BLUE = (COLOUR_LABELS.index(letter) for letter in "ROGB")


def chroma_at(degrees: float, radius: float = 0.6) -> np.ndarray:
    """The (3,) ink chroma whose plane direction is `degrees` at `radius`."""
    angle = np.radians(degrees)
    return np.array([np.cos(angle), np.sin(angle)]) * radius @ INK_PLANE


def frame(*dice: tuple[float, float, int, float]) -> tuple[np.ndarray, np.ndarray]:
    """Chroma and log-beliefs of dice given as (direction, radius, colour read, sureness)."""
    chroma = np.array([chroma_at(angle, radius) for angle, radius, _, _ in dice])
    belief = np.full((len(dice), len(COLOUR_LABELS)), 0.0)
    for row, (_, _, colour, sure) in zip(belief, dice, strict=True):
        row[:] = (1.0 - sure) / (len(COLOUR_LABELS) - 1)
        row[colour] = sure
    return chroma, np.log(belief)


def read(chroma: np.ndarray, log_belief: np.ndarray) -> list[str]:
    """Each die's colour after the mend: a moved die's new colour is level with its
    family's rival, so a tie is read as the colour moved to."""
    evidence = ink_order_evidence(chroma, log_belief)
    mended = log_belief + evidence + 1e-9 * (evidence > 0)
    return [COLOUR_LABELS[i] for i in mended.argmax(axis=1)]


def family_odds(log_belief: np.ndarray, family: tuple[int, ...]) -> np.ndarray:
    """Per die, the log-odds of `family` against the likeliest other family."""
    belief = np.stack([np.logaddexp.reduce(log_belief[:, list(f)], axis=1) for f in FAMILIES],
                      axis=1)
    index = FAMILIES.index(family)
    return belief[:, index] - np.delete(belief, index, axis=1).max(axis=1)


def test_the_palette_gives_the_families_in_hue_order_with_red_and_orange_together():
    assert FAMILIES == ((RED, ORANGE), (GREEN,), (BLUE,))
    assert np.degrees(palette_angle("R")) == pytest.approx(-82, abs=1)


def test_directions_are_grouped_round_the_circle_across_its_seam():
    angles = np.radians([179.0, -178.0, 170.0, 10.0, 14.0, -90.0])
    groups = sorted(sorted(g.tolist()) for g in ink_groups(angles))
    assert groups == [[0, 1, 2], [3, 4], [5]]
    assert [sorted(g.tolist()) for g in ink_groups(np.radians([5.0, 10.0]))] == [[0, 1]]


def yellow_green_frame() -> tuple[np.ndarray, np.ndarray]:
    """Red, orange, then a set's yellow-green the classifier takes for a third warm ink
    (dice 3 to 6), then blue."""
    return frame(
        (-80, 0.7, RED, 0.99), (-79, 0.8, RED, 0.99),
        (-124, 1.0, ORANGE, 0.99),
        (-179, 0.4, ORANGE, 0.99), (-180, 0.45, ORANGE, 0.99),
        (-178, 0.42, ORANGE, 0.98), (-181, 0.4, ORANGE, 0.9),
        (61, 0.4, BLUE, 0.99), (64, 0.35, BLUE, 0.99), (61, 0.5, BLUE, 0.99),
    )


def test_a_yellow_green_set_read_orange_beside_the_real_orange_is_read_green():
    chroma, belief = yellow_green_frame()
    assert read(chroma, belief) == list("RRO") + list("GGGG") + list("BBB")


def test_a_moved_die_is_drawn_level_with_the_colour_read_not_made_sure():
    """The frame's order shows a contradiction, not which ink is which for sure: a moved
    die's new colour ties with the family it was read in, so the decoder weighs both (and
    the reader marks the die, `vision.read.pipeline.contradicted_faces`)."""
    chroma, belief = yellow_green_frame()
    evidence = ink_order_evidence(chroma, belief)
    moved = np.flatnonzero(evidence.any(axis=1))
    assert moved.tolist() == [3, 4, 5, 6]
    odds = family_odds(belief + evidence, (GREEN,))
    np.testing.assert_allclose(odds[moved], 0.0, atol=1e-9)
    sure = ink_order_evidence(chroma, belief, InkOrderSettings(moved_margin=np.log(19.0)))
    np.testing.assert_allclose(family_odds(belief + sure, (GREEN,))[moved], np.log(19.0))


def test_a_teal_set_read_green_beside_the_real_green_is_read_blue():
    chroma, belief = frame(
        (-134, 1.1, ORANGE, 0.99), (-133, 1.0, ORANGE, 0.99),
        (-71, 0.85, RED, 0.99), (-72, 0.8, RED, 0.99), (-70, 0.9, RED, 0.99),
        (177, 0.38, GREEN, 0.99), (176, 0.4, GREEN, 0.99),
        (67, 0.34, GREEN, 0.9), (66, 0.35, GREEN, 0.95),
    )
    assert read(chroma, belief) == list("OORRRGG") + list("BB")


def test_a_reading_without_a_contradiction_is_left_alone():
    chroma, belief = frame(
        (-80, 0.7, RED, 0.99), (-124, 1.0, ORANGE, 0.6), (-180, 0.4, GREEN, 0.99),
        (-178, 0.5, GREEN, 0.99), (61, 0.4, BLUE, 0.99), (64, 0.35, BLUE, 0.99),
    )
    assert not ink_order_evidence(chroma, belief).any()


def test_a_lone_die_is_never_moved():
    """One die's ink can be mismeasured; only a group of dice speaks for a set."""
    chroma, belief = frame(
        (-80, 0.7, RED, 0.99), (-124, 1.0, ORANGE, 0.99), (-180, 0.5, ORANGE, 0.99),
        (61, 0.4, BLUE, 0.99), (64, 0.35, BLUE, 0.99),
    )
    assert not ink_order_evidence(chroma, belief).any()


def test_a_group_is_not_moved_to_a_colour_another_die_shows():
    # a green die already read green elsewhere (its ink pale): the group stays warm
    chroma, belief = frame(
        (-80, 0.7, RED, 0.99), (-124, 1.0, ORANGE, 0.99),
        (-179, 0.4, ORANGE, 0.99), (-180, 0.45, ORANGE, 0.99),
        (150, InkOrderSettings().min_ink / 2, GREEN, 0.99),
        (61, 0.4, BLUE, 0.99), (64, 0.35, BLUE, 0.99),
    )
    assert not ink_order_evidence(chroma, belief).any()


def test_pale_prints_neither_count_nor_move():
    """Inks near the body's own colour point anywhere: they cannot contradict."""
    chroma, belief = frame(
        (-80, 0.7, RED, 0.99), (-124, 1.0, ORANGE, 0.99),
        (-179, 0.2, ORANGE, 0.99), (-180, 0.2, ORANGE, 0.99), (-178, 0.2, ORANGE, 0.99),
        (61, 0.4, BLUE, 0.99), (64, 0.35, BLUE, 0.99),
    )
    assert not ink_order_evidence(chroma, belief).any()


def test_the_move_keeps_the_palette_order():
    """Of two warm groups and a third, the one lying past orange towards green moves."""
    chroma, belief = frame(
        (-80, 0.7, RED, 0.99), (-82, 0.7, RED, 0.99),
        (-124, 1.0, ORANGE, 0.99), (-126, 1.0, ORANGE, 0.99),
        (-175, 0.5, ORANGE, 0.9), (-177, 0.5, ORANGE, 0.9),
        (61, 0.4, BLUE, 0.99), (64, 0.35, BLUE, 0.99),
    )
    evidence = ink_order_evidence(chroma, belief)
    assert read(chroma, belief) == list("RROOGGBB")
    assert not evidence[:4].any() and not evidence[6:].any()


def test_a_frame_of_more_dice_than_a_roll_is_no_one_set_and_gets_nothing():
    yellow_green = [(-179, 0.4, ORANGE, 0.99), (-180, 0.45, ORANGE, 0.99)]
    one_set = [(-80, 0.7, RED, 0.99), (-124, 1.0, ORANGE, 0.99), *yellow_green,
               (61, 0.4, BLUE, 0.99), (64, 0.35, BLUE, 0.99)]
    assert ink_order_evidence(*frame(*one_set)).any()
    assert not ink_order_evidence(*frame(*one_set, *one_set)).any()


def test_frames_of_fewer_than_three_dice_get_nothing():
    chroma, belief = frame((-124, 1.0, ORANGE, 0.99), (-180, 0.5, ORANGE, 0.99))
    assert not ink_order_evidence(chroma, belief).any()
    assert ink_order_evidence(np.zeros((0, 3)), np.zeros((0, 4))).shape == (0, 4)


def _yellow_green_readout():
    """Nine dice, every one a 5: two red, one orange, four printed in a yellow-green the
    classifier is sure is orange, two blue."""
    from vision.read.pipeline import Readout
    from vision.read.tops import Located

    inks = [(200, 30, 40)] * 2 + [(240, 120, 20)] + [(150, 200, 40)] * 4 + [(30, 70, 190)] * 2
    crops = np.full((len(inks), 40, 40, 3), 240, np.uint8)
    for crop, rgb in zip(crops, inks, strict=True):
        crop[14:26, 12:28] = rgb[::-1]
    colour = np.full((len(inks), 4), 0.0003)
    for row, read_as in zip(colour, [RED] * 2 + [ORANGE] * 5 + [BLUE] * 2, strict=True):
        row[read_as] = 0.9991
    value = np.full((len(inks), 11), 0.001)
    value[:, 4] = 0.99  # every die a 5
    boxes = tuple(
        np.array([[x, 100], [x + 60, 100], [x + 60, 160], [x, 160]], np.float32)
        for x in range(0, 100 * len(inks), 100)
    )
    return Readout(Located(boxes, die_side=60.0, scores=(0.999,) * len(inks)), crops,
                   value, colour, np.ones(len(inks)), None)


def _given_reader(readout, **kwargs):
    from vision.read.pipeline import DiceReader, Readout

    class GivenReadout(DiceReader):
        def readout(self, frame: np.ndarray) -> Readout:
            return readout

    return GivenReadout(**kwargs)


def test_a_reader_mends_a_yellow_green_set_read_orange_unless_told_not_to():
    """Through `DiceReader.read`: four dice printed in a yellow-green that the classifier
    is sure is orange, beside the set's red, orange and blue dice."""
    from vision.read.settings import ColourSettings, ReaderSettings

    readout = _yellow_green_readout()
    frame = np.zeros((480, 1280, 3), np.uint8)
    reader = _given_reader(readout, settings=ReaderSettings(use_inventory=False))
    mended = [die.die.colour for die in reader.read(frame).dice]
    unordered = ReaderSettings(colour=ColourSettings(ink_order=False), use_inventory=False)
    unmended = [die.die.colour for die in _given_reader(
        readout, classifier=reader.classifier, finder=reader.finder, settings=unordered
    ).read(frame).dice]
    assert mended == list("RRO") + list("GGGG") + list("BB")
    assert unmended == list("RRO") + list("OOOO") + list("BB")


@pytest.mark.parametrize("use_inventory", [False, True])
@pytest.mark.parametrize("calibrated", [False, True])
def test_dice_the_ink_order_moves_are_marked_at_even_odds_and_may_show_any_face(
    use_inventory, calibrated
):
    """The frame's inks contradict the classifier's colours, not prove which ink is which:
    the four moved dice come out marked, at no more than even odds, whatever the dice
    table or the calibration makes of them; the five others are read as before."""
    from vision.read.settings import ColourSettings, ReaderSettings

    readout = _yellow_green_readout()
    frame = np.zeros((480, 1280, 3), np.uint8)
    settings = ReaderSettings(use_inventory=use_inventory)
    reader = _given_reader(readout, settings=settings, **({} if calibrated else
                                                           {"calibration": None}))
    unordered = replace(settings, colour=ColourSettings(ink_order=False))
    plain = _given_reader(readout, classifier=reader.classifier, finder=reader.finder,
                          settings=unordered, calibration=reader.calibration)
    reading, before = reader.read(frame), plain.read(frame)
    moved = [3, 4, 5, 6]
    for index, (die, was) in enumerate(zip(reading.dice, before.dice, strict=True)):
        if index in moved:
            assert die.unsure and die.likely is None
            assert die.confidence <= InkOrderSettings().contradicted_confidence
            # the value's posterior, and its calibrated probability, are the plain reading's
            assert die.value_confidence == pytest.approx(was.value_confidence)
            assert die.value_probability == was.value_probability
        else:
            assert (die.die, die.confidence, die.unsure) == (was.die, was.confidence, was.unsure)
    assert not reading.is_complete()


@st.composite
def frames(draw):
    """Up to ten dice: inks in any direction and strength, any sure or torn reading."""
    count = draw(st.integers(3, 10))
    angles = draw(st.lists(st.floats(-180, 180), min_size=count, max_size=count))
    radii = draw(st.lists(st.floats(0.0, 1.5), min_size=count, max_size=count))
    read = draw(st.lists(st.integers(0, 3), min_size=count, max_size=count))
    sureness = draw(st.lists(st.floats(0.3, 0.9999), min_size=count, max_size=count))
    return frame(*zip(angles, radii, read, sureness, strict=True))


@settings(max_examples=200, deadline=None)
@given(frames(), st.randoms(use_true_random=False))
def test_the_evidence_follows_the_dice_and_only_ever_lifts_a_group_to_one_cool_colour(
    drawn, random
):
    chroma, belief = drawn
    evidence = ink_order_evidence(chroma, belief)
    order = list(range(len(chroma)))
    random.shuffle(order)
    np.testing.assert_allclose(ink_order_evidence(chroma[order], belief[order]), evidence[order])
    assert (evidence >= 0).all()
    for die in np.flatnonzero(evidence.any(axis=1)):
        (colour,) = np.flatnonzero(evidence[die])
        assert colour in (GREEN, BLUE)
        # raised level with every other family, never beyond (the margin is 0)
        odds = family_odds((belief + evidence)[die : die + 1], (colour,))[0]
        assert odds == pytest.approx(0.0, abs=1e-9)
