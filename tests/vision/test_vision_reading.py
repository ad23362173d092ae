"""The Reading value, its JSON form, and the overlay drawn from it."""

import json
from dataclasses import replace

import cv2
import numpy as np

from scorer.dice import Die, Roll
from vision.read.overlay import SURE_BGR, UNSURE_BGR, draw_overlay, encode_jpeg
from vision.reading import ReadDie, Reading, ReadingFlag, UnreadableDie


def read_die(text, x, y, unsure=False, confidence=0.99):
    corners = ((x - 20, y - 20), (x + 20, y - 20), (x + 20, y + 20), (x - 20, y + 20))
    return ReadDie(Die.from_text(text), confidence, (x, y), corners, unsure)


FULL = "8R 8B 8G 10O 5G 7R WR WB 1G 3R".split()


def full_reading(unsure_at=None):
    dice = tuple(read_die(text, 60 + 50 * i, 100, unsure=i == unsure_at)
                 for i, text in enumerate(FULL))
    return Reading(dice, (640, 480), ())


def test_roll_and_completeness():
    reading = full_reading()
    assert reading.roll() == Roll.from_text(" ".join(FULL))
    assert reading.is_complete()
    assert not full_reading(unsure_at=3).is_complete()
    assert full_reading(unsure_at=3).roll() is not None  # composition is what roll() checks
    assert not Reading(full_reading().dice[:9], (640, 480)).is_complete()


def test_a_reading_moves_into_a_crop_of_its_frame():
    unreadable = UnreadableDie((300.0, 200.0), ((290, 190), (310, 190), (310, 210), (290, 210)),
                               0.9, 0.2)
    reading = Reading(full_reading().dice, (640, 480), (ReadingFlag.UNREADABLE,), (unreadable,))
    cropped = reading.within((40, 60, 600, 300))
    assert cropped.frame_size == (560, 240)
    assert cropped.flags == reading.flags and cropped.notation() == reading.notation()
    assert cropped.dice[0].centre == (20, 40)
    assert cropped.dice[0].corners[0] == (0, 20)
    assert cropped.unreadable[0].centre == (260.0, 140.0)
    assert cropped.unreadable[0].corners[2] == (270, 150)


def test_roll_is_none_for_an_impossible_composition():
    texts = "5R 6R 7R 8R 9R 10R 5G".split()
    dice = tuple(read_die(text, 50 * i, 50) for i, text in enumerate(texts))
    assert Reading(dice, (640, 480)).roll() is None


def test_to_dict_is_json_safe_and_complete():
    reading = Reading(
        (read_die("WB", np.float32(10.123), np.float64(20.0), unsure=True, confidence=0.41234567),
         read_die("10O", 30, 40)),
        (640, 480),
        (ReadingFlag.HAND,),
    )
    data = json.loads(json.dumps(reading.to_dict()))
    assert data["frame_size"] == [640, 480]
    assert data["flags"] == ["hand-in-frame"]
    assert data["complete"] is False
    assert data["dice"][0] == {"value": "W", "colour": "B", "notation": "WB",
                               "centre": [10.1, 20.0], "confidence": 0.4123,
                               "probability": 0.4123, "unsure": True,
                               "value_probability": None, "value_unsure": True,
                               "likely": None, "unreadable": False,
                               "box": [[-9.9, 0.0], [30.1, 0.0], [30.1, 40.0], [-9.9, 40.0]]}
    assert data["dice"][1]["value"] == 10 and data["dice"][1]["notation"] == "10O"
    assert data["roll_probability"] is None  # a reading made without a reader's trust
    assert data["value_probability"] is None


def test_the_likely_faces_are_those_of_the_dice_in_doubt():
    """A die marked unsure lists the other faces it may show where the reader tells them
    (`likely`), in the JSON and by index; a sure die's runner-up faces are no doubt to try,
    and a die the reader cannot tell for (None) may show any face."""
    three_or_five = replace(read_die("5R", 60, 100, unsure=True),
                            likely=(Die.from_text("3R"), Die.from_text("6R")))
    any_face = replace(read_die("8B", 110, 100, unsure=True), likely=None)
    sure = replace(read_die("WG", 160, 100), likely=(Die.from_text("WB"),))
    reading = Reading((three_or_five, any_face, sure), (640, 480))
    assert reading.likely_faces() == {0: (Die.from_text("3R"), Die.from_text("6R"))}
    data = json.loads(json.dumps(reading.to_dict()))
    assert [die["likely"] for die in data["dice"]] == [["3R", "6R"], None, None]


def test_the_values_are_judged_apart_from_the_faces():
    """An unsure die of sure value is doubted for its colour alone; a die whose value was
    not judged apart (older readers, `value_unsure` None) is as doubtful as its face; and
    a die whose face is sure needs no check of its value either."""
    texts = "5R 6R 7R 8R 9R 10R 1G 2G 3G 4G".split()
    dice = [replace(read_die(text, 50 * i, 50), value_unsure=False)
            for i, text in enumerate(texts)]
    dice[1] = replace(dice[1], unsure=True, value_unsure=False)  # 6R: red or orange?
    dice[2] = replace(dice[2], unsure=True, value_unsure=True)  # 7R: a 7 or a 1?
    dice[3] = replace(dice[3], unsure=True, value_unsure=None)  # 8R: not judged apart
    dice[4] = replace(dice[4], value_unsure=True)  # 9R: its face sure, so its value too
    reading = Reading(tuple(dice), (640, 480))
    assert reading.unsure_indices() == (1, 2, 3)
    assert reading.value_unsure_indices() == (2, 3)
    assert not reading.values_complete() and not reading.is_complete()
    sure_values = [replace(die, value_unsure=False) for die in dice]
    assert Reading(tuple(sure_values), (640, 480)).values_complete()
    assert [d["value_unsure"] for d in reading.to_dict()["dice"][1:5]] == [
        False, True, True, False]


def test_a_calibrated_probability_is_what_the_json_and_the_roll_carry():
    die = replace(read_die("8R", 10, 10, confidence=0.97), probability=0.91)
    reading = Reading((die,), (640, 480), (), (), 0.91)
    data = reading.to_dict()
    assert data["dice"][0]["probability"] == 0.91 and data["dice"][0]["confidence"] == 0.97
    assert data["roll_probability"] == 0.91


def unreadable_die(x, y):
    corners = ((x - 20, y - 20), (x + 20, y - 20), (x + 20, y + 20), (x - 20, y + 20))
    return UnreadableDie((x, y), corners, locator_score=0.97, face_prob=0.03)


def test_an_unreadable_die_is_listed_with_no_face_and_the_reading_is_incomplete():
    dice = full_reading().dice[:9]
    reading = Reading(dice, (640, 480), (ReadingFlag.UNREADABLE,), (unreadable_die(300, 50),))
    assert not reading.is_complete()
    assert reading.found_count() == 10 and len(reading.centres()) == 10
    assert reading.notation().endswith(" ??")
    assert reading.roll() == Roll(tuple(read.die for read in dice))  # the dice read
    data = json.loads(json.dumps(reading.to_dict()))
    assert data["complete"] is False and data["flags"] == ["unreadable-dice"]
    assert len(data["dice"]) == 10
    first = data["dice"][0]  # the unreadable die lies highest in the frame
    assert first["value"] is None and first["colour"] is None and first["notation"] is None
    assert first["unreadable"] is True and first["centre"] == [300.0, 50.0]
    assert first["box"] == [[280.0, 30.0], [320.0, 30.0], [320.0, 70.0], [280.0, 70.0]]
    assert not any(die["unreadable"] for die in data["dice"][1:])


def test_the_overlay_marks_unreadable_dice():
    reading = Reading((), (200, 150), (ReadingFlag.UNREADABLE,), (unreadable_die(100, 75),))
    image = draw_overlay(np.zeros((150, 200, 3), np.uint8), reading)
    assert np.all(image[75, 80] == UNSURE_BGR)  # the box's left edge


def test_notation_marks_unsure_dice():
    assert full_reading(unsure_at=0).notation().startswith("8R? 8B ")
    assert Reading.empty((1, 1)).notation() == ""


def test_overlay_draws_sure_and_unsure_boxes_in_their_colours_and_keeps_the_frame():
    frame = np.full((480, 640, 3), 90, np.uint8)
    reading = full_reading(unsure_at=2)
    image = draw_overlay(frame, reading, status="dice moving")
    assert (frame == 90).all()  # the frame itself is untouched
    sure_edge = image[120, 60 - 20]  # left edge of die 0's box
    unsure_edge = image[120, 160 - 20]  # left edge of die 2's box
    assert tuple(int(v) for v in sure_edge) == SURE_BGR
    assert tuple(int(v) for v in unsure_edge) == UNSURE_BGR
    assert (image[:40, :200] != 90).any()  # the status text


def test_encode_jpeg_round_trips():
    image = draw_overlay(np.full((120, 160, 3), 200, np.uint8), None)
    data = encode_jpeg(image)
    assert data[:2] == b"\xff\xd8"
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (120, 160, 3)
