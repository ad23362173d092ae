"""The dice profile: stored safely, taught from confirmed rolls, and weighing what is read."""

from __future__ import annotations

import numpy as np
import pytest

from scorer import Die, parse_roll
from vision.profile.profile import (
    PROFILE_FILE,
    DiceProfile,
    ProfileError,
    ProfileMatcher,
    contradicted_colours,
    contradicted_values,
    label_by_roll,
)
from vision.profile.settings import ProfileSettings
from vision.profile.teach import TeachError, teach, use_profile
from vision.read.crops import CROP_SIZE
from vision.read.decode import FACES
from vision.read.frame_inks import ink_chroma
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.read.pipeline import DiceReader
from vision.synth import render_scene
from vision.synth.seeds import HELD_OUT_SEED_BASE

SEED = HELD_OUT_SEED_BASE + 7_700


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(threads=1)


def _profile(faces: str, seed: int = 0, dimensions: int = 8) -> DiceProfile:
    dice = list(parse_roll(faces))
    rng = np.random.default_rng(seed)
    crops = rng.integers(0, 256, (len(dice), CROP_SIZE, CROP_SIZE, 3), dtype=np.uint8)
    return DiceProfile.empty().add(crops, dice, rng.normal(size=(len(dice), dimensions)), "m1")


def test_a_profile_is_written_atomically_and_reads_back_the_same(tmp_path):
    profile = _profile("1R 5B 7G 9O WB 3G")
    path = profile.save(tmp_path / "profile")
    assert path.name == PROFILE_FILE
    assert sorted(p.name for p in path.parent.iterdir()) == [PROFILE_FILE]  # no temporary left
    loaded = DiceProfile.load(tmp_path / "profile")
    assert loaded.dice == profile.dice
    assert loaded.model == "m1"
    np.testing.assert_array_equal(loaded.crops, profile.crops)
    np.testing.assert_allclose(loaded.descriptors, profile.descriptors)
    assert loaded.counts() == {die: 1 for die in parse_roll("1R 5B 7G 9O WB 3G")}


def test_a_folder_without_a_profile_gives_an_empty_one(tmp_path):
    assert len(DiceProfile.load(tmp_path)) == 0


@pytest.mark.parametrize(
    "contents",
    [
        b"not a profile at all",
        b"PK\x03\x04 truncated zip",
    ],
)
def test_an_unreadable_profile_is_refused_naming_the_file(tmp_path, contents):
    (tmp_path / PROFILE_FILE).write_bytes(contents)
    with pytest.raises(ProfileError, match=PROFILE_FILE):
        DiceProfile.load(tmp_path)


def test_a_foreign_or_inconsistent_profile_is_refused(tmp_path):
    np.savez(tmp_path / PROFILE_FILE, something=np.zeros(3))
    with pytest.raises(ProfileError, match="not a readable dice profile"):
        DiceProfile.load(tmp_path)
    good = _profile("1R 5B")
    good.save(tmp_path)
    with np.load(tmp_path / PROFILE_FILE) as data:
        arrays = dict(data)
    arrays["values"] = np.array([0, 40], np.int8)  # no such value class
    np.savez(tmp_path / PROFILE_FILE, **arrays)
    with pytest.raises(ProfileError, match="value class out of range"):
        DiceProfile.load(tmp_path)
    arrays["manifest"] = np.frombuffer(b'{"format": 99}', np.uint8)
    np.savez(tmp_path / PROFILE_FILE, **arrays)
    with pytest.raises(ProfileError, match="unknown profile format"):
        DiceProfile.load(tmp_path)


def test_examples_of_another_classifier_are_described_again_before_more_are_added():
    profile = _profile("1R 5B 7G")
    with pytest.raises(ValueError, match="different classifier"):
        profile.add(profile.crops[:1], list(parse_roll("2R")), np.ones((1, 8)), "m2")
    seen = []

    def describe(crops: np.ndarray) -> np.ndarray:
        seen.append(len(crops))
        return np.ones((len(crops), 4))

    again = profile.described_by(describe, "m2")
    assert seen == [3] and again.model == "m2" and again.descriptors.shape == (3, 4)
    assert profile.described_by(describe, "m1").descriptors is profile.descriptors


def test_a_relabelled_example_keeps_its_picture_and_leaves_the_others_alone():
    profile = _profile("1R 5B 7G 9O")
    fixed = profile.relabelled(1, Die(5, "G"))
    assert fixed.dice == list(parse_roll("1R 5G 7G 9O").dice)
    assert profile.dice == list(parse_roll("1R 5B 7G 9O").dice)  # the profile itself is unchanged
    np.testing.assert_array_equal(fixed.crops, profile.crops)
    np.testing.assert_array_equal(fixed.descriptors, profile.descriptors)
    with pytest.raises(IndexError):
        profile.relabelled(4, Die(5, "G"))


def test_the_confirmed_faces_are_matched_to_the_dice_most_likely_to_show_them():
    roll = list(parse_roll("1R 7R 9O 6O"))
    probs = np.full((4, len(FACES)), 0.01)
    truth = [roll[2], roll[0], roll[3], roll[1]]
    for row, die in enumerate(truth):
        probs[row, FACES.index(die)] = 0.6
    probs[1, FACES.index(roll[1])] = 0.7  # the network prefers 7 for the 1 ...
    probs[3, FACES.index(roll[1])] = 0.9  # ... but the 7 is surely die 3
    assert label_by_roll(probs, roll) == truth
    with pytest.raises(ValueError, match="4 dice read but 3 faces"):
        label_by_roll(probs, roll[:3])


def _face(body: tuple[int, int, int], ink: tuple[int, int, int]) -> np.ndarray:
    crop = np.empty((CROP_SIZE, CROP_SIZE, 3), np.float64)
    crop[:] = body
    crop[14:26, 17:23] = ink
    return crop


def test_ink_chroma_does_not_change_with_the_room_lights_colour():
    warm = np.array([0.8, 1.0, 1.25])  # BGR gains of a warm lamp
    orange, red = _face((170, 175, 180), (20, 110, 200)), _face((170, 175, 180), (30, 30, 190))
    crops = np.stack([orange, orange * warm, red, red * warm]).clip(0, 255).astype(np.uint8)
    chroma = ink_chroma(crops)
    assert np.abs(chroma[0] - chroma[1]).max() < 0.03
    assert np.abs(chroma[2] - chroma[3]).max() < 0.03
    assert np.abs(chroma[0] - chroma[2]).max() > 0.3  # but orange is not red


def _stroke(width: int, ink: tuple[int, int, int], body=(170, 175, 180)) -> np.ndarray:
    """A vertical stroke `width` pixels wide with a one-pixel anti-aliased rim, as a
    numeral's print is rendered: half ink, half body at its edges."""
    crop = np.empty((CROP_SIZE, CROP_SIZE, 3), np.float64)
    crop[:] = body
    left = CROP_SIZE // 2 - width // 2
    crop[10:30, left - 1 : left + width + 1] = (np.array(body) + np.array(ink)) / 2
    crop[10:30, left : left + width] = ink
    return crop


@pytest.mark.parametrize("ink", [(20, 110, 200), (30, 30, 190), (40, 150, 40)])
def test_ink_chroma_is_the_same_for_a_thin_and_a_bold_stroke_of_one_ink(ink):
    """A thin "1" and a bold "10" of one set carry one ink: a measure that took a fixed
    share of the face's pixels mixed the thin stroke's rim and body into its ink."""
    thin, bold = ink_chroma(np.stack([_stroke(2, ink), _stroke(9, ink)]).astype(np.uint8))
    assert np.abs(thin - bold).max() < 0.05


def test_evidence_favours_a_seen_lookalike_and_leaves_unseen_faces_alone():
    profile = _profile("1R 7R 5B 9O", dimensions=16)
    matcher = ProfileMatcher(profile)
    query = profile.descriptors[[1]] + 0.01  # looks just like the 7R example
    evidence = matcher.evidence(query, ink_chroma(profile.crops[[1]]))
    seven, one = FACES.index(Die(7, "R")), FACES.index(Die(1, "R"))
    assert evidence[0, seven] > evidence[0, one] + 1.0
    unseen = [FACES.index(die) for die in parse_roll("2G 3G 10G")]
    colour_only = evidence[0, unseen]
    assert np.allclose(colour_only, colour_only[0])  # same colour, unseen: nothing between them


def test_a_seen_face_that_looks_unlike_its_examples_is_not_made_less_likely_than_unseen():
    """One example of a face, taught under another lamp, is weak evidence: a die unlike
    it must not lose that face to one the profile never saw (it did: 6O read as 8O)."""
    profile = _profile("6O 5B 9R", dimensions=16)
    matcher = ProfileMatcher(profile)
    query = -profile.descriptors[[0]]  # nothing like the one 6O example
    evidence = matcher.evidence(query, ink_chroma(profile.crops[[0]]))
    six, eight = FACES.index(Die(6, "O")), FACES.index(Die(8, "O"))
    assert evidence[0, six] == pytest.approx(evidence[0, eight])


def test_an_ink_far_from_every_taught_colour_leaves_the_colour_to_the_classifier():
    """A die whose box took in a side face measures an ink far from the set's blue and
    green alike (a green 2 of a dark set was read blue for sure, the classifier sure of
    green): being a little nearer blue must not outweigh the classifier."""
    crops = np.stack([_stroke(6, (200, 60, 30)), _stroke(6, (40, 150, 40))] * 2)
    crops = crops.astype(np.uint8)
    matcher = ProfileMatcher(
        DiceProfile.empty().add(crops, list(parse_roll("5B 3G 8B 4G")), np.eye(4, 8), "m1")
    )
    chroma = ink_chroma(crops)
    blue, green = chroma[[0, 2]].mean(axis=0), chroma[[1, 3]].mean(axis=0)
    apart = (blue - green) / np.linalg.norm(blue - green)
    away = np.cross(apart, np.ones(3) / np.sqrt(3))  # off the line between them, zero-sum
    lost = (blue + green) / 2 + 0.1 * apart + 1.9 * away  # far from both, a bit nearer blue
    evidence = matcher.evidence(np.eye(1, 8), lost[None])
    two_blue, two_green = FACES.index(Die(2, "B")), FACES.index(Die(2, "G"))
    assert 0 < evidence[0, two_blue] - evidence[0, two_green] < 0.5


def test_an_empty_profile_reads_exactly_as_no_profile(reader):
    image = render_scene(SEED).image
    plain = reader.read(image)
    reader.profile = ProfileMatcher(DiceProfile.empty())
    try:
        with_empty = reader.read(image)
    finally:
        reader.profile = None
    assert [d.die for d in with_empty.dice] == [d.die for d in plain.dice]
    assert [d.confidence for d in with_empty.dice] == [d.confidence for d in plain.dice]


def test_teaching_a_confirmed_roll_labels_every_die_where_it_lies(reader):
    scene = render_scene(SEED + 1)
    truth = {die.die: np.asarray(die.centre) for die in scene.dice}
    roll = sorted((die.die for die in scene.dice), key=str)  # any order, as typed
    lesson = teach(reader, scene.image, roll, DiceProfile.empty())
    assert len(lesson.profile) == len(roll) == 10
    assert sorted(lesson.dice, key=str) == roll
    for die, centre in zip(lesson.dice, lesson.centres, strict=True):
        assert np.hypot(*(np.asarray(centre) - truth[die])) < 20  # the die that shows it
    assert lesson.profile.model == reader.classifier.sha256


def test_a_roll_with_a_die_the_picture_misses_teaches_the_dice_found_and_names_it(reader):
    """Nine dice in the picture, ten faces confirmed: the nine are taught where they lie,
    the tenth face is named as not found."""
    full = render_scene(SEED + 3)
    roll = [die.die for die in full.dice]
    scene = render_scene(SEED + 3, dice=roll[:9])
    assert len(scene.dice) == 9
    lesson = teach(reader, scene.image, sorted(roll, key=str), DiceProfile.empty())
    assert lesson.not_found == (roll[9],)
    assert sorted(lesson.dice, key=str) == sorted(roll[:9], key=str)
    assert len(lesson.profile) == 9
    for die, centre in zip(lesson.dice, lesson.centres, strict=True):  # where a die shows it
        assert min(np.hypot(*(np.asarray(centre) - np.asarray(true.centre)))
                   for true in scene.dice if true.die == die) < 20


def test_teaching_refuses_a_roll_that_does_not_fit_the_picture(reader):
    scene = render_scene(SEED + 2)
    roll = [die.die for die in scene.dice]
    with pytest.raises(TeachError, match="10 dice found in the picture, but the roll has 9"):
        teach(reader, scene.image, roll[:9], DiceProfile.empty())
    blank = np.full((480, 640, 3), 90, np.uint8)
    with pytest.raises(TeachError, match="no dice found"):
        teach(reader, blank, roll, DiceProfile.empty())
    with pytest.raises(TeachError, match="not a colour image"):
        teach(reader, np.zeros((10, 10), np.uint8), roll, DiceProfile.empty())


def test_teaching_counts_the_dice_a_reading_shows_not_a_key_cap_beside_them(reader):
    from fakes import ReadsLastAsFace, WithOneMoreBox

    scene = render_scene(SEED + 2)
    side = float(np.median([np.linalg.norm(d.corners[1] - d.corners[0]) for d in scene.dice]))
    key_cap = np.array([(40, 40), (40 + side / 2, 40), (40 + side / 2, 40 + side / 2),
                        (40, 40 + side / 2)], np.float32)  # half a die, read as a doubtful 5
    seeing_more = DiceReader(ReadsLastAsFace(reader.classifier, 0.6),
                             finder=WithOneMoreBox(reader.finder, key_cap, 0.97))
    assert len(seeing_more.read(scene.image).dice) == 10
    lesson = teach(seeing_more, scene.image, [die.die for die in scene.dice], DiceProfile.empty())
    assert len(lesson.profile) == 10


@pytest.mark.slow
def test_a_taught_profile_reads_the_same_set_at_least_as_well(reader, tmp_path):
    taught = DiceProfile.empty()
    for offset in (3, 4, 5):
        scene = render_scene(SEED + offset)
        taught = teach(reader, scene.image, [d.die for d in scene.dice], taught).profile
    taught.save(tmp_path)
    use_profile(reader, DiceProfile.load(tmp_path))  # as the app reads with it
    try:
        for offset in (6, 7):
            scene = render_scene(SEED + offset)
            reading = reader.read(scene.image)
            assert sorted(str(d.die) for d in reading.dice) == sorted(
                str(d.die) for d in scene.dice
            )
    finally:
        reader.profile = None


def test_the_frame_inks_count_less_beside_a_profiles_own_ink_references():
    assert ProfileMatcher(DiceProfile.empty()).frame_ink_weight == 1.0
    assert ProfileMatcher(_profile("1R 5R 7B")).frame_ink_weight == 1.0  # one colour's inks
    with_inks = ProfileMatcher(_profile("1R 5R 7O 9O"))
    assert with_inks.frame_ink_weight == ProfileSettings().frame_ink_weight < 1.0


def test_a_reader_with_a_profile_scales_the_frames_ink_evidence_by_its_weight(
    reader, monkeypatch
):
    import vision.read.pipeline

    class NeutralProfile:
        """A profile whose own evidence is nothing, so the decoder sees the frame's alone."""

        frame_ink_weight = 0.25

        def evidence(self, descriptors, chroma):
            return np.zeros((len(descriptors), len(FACES)))

    seen = []

    def decode(*args, evidence=None, **kwargs):
        seen.append(evidence)
        return real_decode(*args, evidence=evidence, **kwargs)

    real_decode = vision.read.pipeline.decode
    monkeypatch.setattr(vision.read.pipeline, "decode", decode)
    image = render_scene(SEED).image
    reader.read(image)
    reader.profile = NeutralProfile()
    try:
        reader.read(image)
    finally:
        reader.profile = None
    alone, beside = seen
    assert np.abs(alone).max() > 0.1  # the frame had something to say
    np.testing.assert_allclose(beside, 0.25 * alone)


def _inks(*points: tuple[float, float, float]) -> np.ndarray:
    return np.array(points, np.float64)


RED_INK, ORANGE_INK = (0.5, -0.3, -0.2), (0.2, 0.1, -0.3)  # chroma: B, G, R less their mean


def test_a_colour_its_ink_and_the_classifier_both_contradict_is_a_slip():
    """Three reds, three oranges, and a red die confirmed orange: its ink lies among the
    reds and the classifier reads it red, so it is a slip. The same die is no slip if
    the classifier allows orange, or if no other orange says how the set's orange looks."""
    red, orange = COLOUR_LABELS.index("R"), COLOUR_LABELS.index("O")
    chroma = _inks(RED_INK, RED_INK, RED_INK, ORANGE_INK, ORANGE_INK, ORANGE_INK, RED_INK)
    chroma = chroma + np.random.default_rng(0).normal(0, 0.01, chroma.shape)
    colours = np.array([red] * 3 + [orange] * 4)
    reads = np.zeros((7, len(COLOUR_LABELS)))
    reads[:3, red] = reads[3:6, orange] = 0.97
    reads[6, red], reads[6, orange] = 0.98, 0.01
    assert contradicted_colours(chroma, colours, reads).tolist() == [False] * 6 + [True]
    allowed = reads.copy()
    allowed[6, red], allowed[6, orange] = 0.9, 0.08
    assert not contradicted_colours(chroma, colours, allowed).any()
    alone = [0, 1, 2, 6]  # the oranges left out: the die is the only orange
    assert not contradicted_colours(chroma[alone], colours[alone], reads[alone]).any()
    assert contradicted_colours(chroma[:0], colours[:0], reads[:0]).shape == (0,)


def test_a_set_whose_ink_the_classifier_misreads_is_no_slip():
    """Four teal greens the classifier reads blue, beside three blues: their inks agree
    with one another, so none is set aside (the heads are there to learn them)."""
    green, blue = COLOUR_LABELS.index("G"), COLOUR_LABELS.index("B")
    teal, navy = (-0.1, 0.2, -0.1), (0.4, 0.0, -0.4)
    chroma = _inks(teal, teal, teal, teal, navy, navy, navy)
    chroma = chroma + np.random.default_rng(1).normal(0, 0.02, chroma.shape)
    colours = np.array([green] * 4 + [blue] * 3)
    reads = np.zeros((7, len(COLOUR_LABELS)))
    reads[:, blue] = 0.98
    assert not contradicted_colours(chroma, colours, reads).any()


def test_a_mistyped_colour_is_left_out_of_the_reading_but_kept_in_the_profile(reader):
    """A roll taught with one die's colour typed wrong (a red called orange): the reader
    reads with the other examples, and the profile returned (saved by the app) keeps all."""
    from collections import Counter

    from profile_helpers import slipped_profile

    taught, slip = slipped_profile(reader)
    try:
        in_use = use_profile(reader, taught)
        assert len(in_use.profile) == len(taught) == 30
        used = reader.profile.profile
        assert Counter(taught.dice) - Counter(used.dice) == Counter([slip])
        assert [(taught.dice[out.index], out.confirmed, out.looks_like)
                for out in in_use.left_out] == [(slip, slip, Die(slip.value, "R"))]
        checked = np.zeros(len(taught), bool)
        checked[in_use.left_out[0].index] = True  # the players looked again and kept it
        assert use_profile(reader, taught, checked).left_out == ()
        assert len(reader.profile.profile) == 30
    finally:
        reader.profile = None


def test_a_matcher_given_its_examples_inks_weighs_as_one_that_measures_them():
    profile = _profile("5R 5O 8R 8O 3G 3B", seed=4)
    chroma = ink_chroma(profile.crops)
    queries = np.random.default_rng(5).normal(size=(3, 8))
    query_inks = chroma[[0, 3, 5]]
    given = ProfileMatcher(profile, None, chroma).evidence(queries, query_inks)
    measured = ProfileMatcher(profile).evidence(queries, query_inks)
    assert np.array_equal(given, measured)
    moved = ProfileMatcher(profile, None, chroma + 0.3).evidence(queries, query_inks)
    assert not np.array_equal(moved, measured)  # the inks given are the ones weighed
    with pytest.raises(ValueError, match="5 inks for 6 examples"):
        ProfileMatcher(profile, None, chroma[:5])


def test_a_value_the_classifier_and_its_likeness_both_contradict_is_a_slip():
    """Two 6s and two 9s that look like their values, and a 6 confirmed as a 9: it looks
    like the 6s and the classifier reads 6, so it is a slip. Two 1s of a font the
    classifier reads as 7s, alike, beside a 7 that looks otherwise, are no slip."""
    six, nine, one, seven = (VALUE_LABELS.index(v) for v in (6, 9, 1, 7))
    rng = np.random.default_rng(2)
    looks = {name: rng.normal(size=16) for name in ("6", "9", "1", "7")}
    drawn = ["6", "6", "9", "9", "6", "1", "1", "7"]
    descriptors = np.stack([looks[name] + 0.1 * rng.normal(size=16) for name in drawn])
    values = np.array([six, six, nine, nine, nine, one, one, seven])
    reads = np.full((8, len(VALUE_LABELS)), 0.001)
    for row, value in enumerate([six, six, nine, nine, six, seven, seven, seven]):
        reads[row, value] = 0.98
    slips = contradicted_values(descriptors, values, reads)
    assert slips.tolist() == [False] * 4 + [True] + [False] * 3
    unsure = reads.copy()
    unsure[4, nine] = 0.1  # the classifier allows a 9: no slip
    assert not contradicted_values(descriptors, values, unsure).any()
    assert contradicted_values(descriptors[:0], values[:0], reads[:0]).shape == (0,)


def test_a_mistyped_value_is_left_out_of_the_reading_but_kept_in_the_profile(reader):
    from collections import Counter

    taught = DiceProfile.empty()
    for offset in (3, 4, 5):
        scene = render_scene(SEED + offset)
        roll = [d.die for d in scene.dice]
        if offset == 3:
            index = next(i for i, die in enumerate(roll) if 5 <= die.value <= 9)
            slip = roll[index] = Die(roll[index].value + 1, roll[index].colour)
        taught = teach(reader, scene.image, roll, taught).profile
    try:
        in_use = use_profile(reader, taught)
        assert len(in_use.profile) == 30
        assert Counter(taught.dice) - Counter(reader.profile.profile.dice) == Counter([slip])
        assert [(out.confirmed, out.looks_like) for out in in_use.left_out] == [
            (slip, Die(slip.value - 1, slip.colour))]
    finally:
        reader.profile = None
