"""The top-face locator's maps-to-boxes step, and the training maps it learns from.

`boxes_from_maps` is tested on the exact maps a rendered scene's truth gives
(`target_maps`), so these tests check the geometry without the network; the
network itself is tested through the pipeline (test_vision_pipeline.py).
"""

import itertools
from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read.locate_settings import LocateSettings
from vision.read.tops import Located, TopFinder, boxes_from_maps, fits, fitted_net_width
from vision.read.tops_input import (
    CORE,
    HAND,
    NET_WIDTH,
    TOP,
    Exposure,
    ExposureSettings,
    brightest,
    darken_highlights,
    lift_exposure,
    lighten_shadows,
    net_input,
    net_size,
    output_size,
    over_exposed,
    second_looks,
    to_tensor,
    under_exposed,
)
from vision.synth import render_scene
from vision.synth.locator_training import render_locator_sample, target_maps
from vision.synth.seeds import HELD_OUT_SEED_BASE


def exact_maps(scene):
    return target_maps(scene).astype(np.float32) / 255.0


def side_of(corners) -> float:
    return float(np.linalg.norm(np.asarray(corners[0]) - np.asarray(corners[1])))


@pytest.fixture(scope="module")
def scenes():
    return [render_scene(HELD_OUT_SEED_BASE + offset) for offset in range(12)]


def test_every_top_gets_one_box_of_its_size_from_exact_maps(scenes):
    for scene in scenes:
        located = boxes_from_maps(exact_maps(scene), (1280, 960))
        assert len(located.boxes) == len(scene.dice), scene.conditions
        assert not located.hand
        for die in scene.dice:
            centre = np.asarray(die.centre)
            nearest = min(located.boxes, key=lambda box: np.linalg.norm(box.mean(axis=0) - centre))
            side = side_of(die.corners)
            assert np.linalg.norm(nearest.mean(axis=0) - centre) < 0.08 * side
            found = np.linalg.norm(nearest - nearest.mean(axis=0), axis=1).mean()
            wanted = np.linalg.norm(die.corners - centre, axis=1).mean()
            assert abs(found - wanted) < 0.12 * side


def test_boxes_are_float32_corner_quads_sorted_top_to_bottom(scenes):
    located = boxes_from_maps(exact_maps(scenes[0]), (1280, 960))
    assert all(box.shape == (4, 2) and box.dtype == np.float32 for box in located.boxes)
    rows = [float(box[:, 1].mean()) for box in located.boxes]
    assert rows == sorted(rows)
    assert located.die_side == pytest.approx(
        np.median([side_of(d.corners) for d in scenes[0].dice]), rel=0.15
    )


def test_nothing_outside_the_tray_polygon(scenes):
    scene = scenes[1]
    left_half = [(0, 0), (640, 0), (640, 960), (0, 960)]
    located = boxes_from_maps(exact_maps(scene), (1280, 960), tray=left_half)
    inside = [d for d in scene.dice if d.centre[0] < 640 - 10]
    assert all(box.mean(axis=0)[0] < 640 + 10 for box in located.boxes)
    assert len(located.boxes) >= len(inside)
    sliver = [(0, 0), (1, 0), (1, 1)]
    assert boxes_from_maps(exact_maps(scene), (1280, 960), tray=sliver).boxes == ()


def test_empty_or_unsure_maps_give_no_dice():
    assert boxes_from_maps(np.zeros((3, 120, 160), np.float32), (1280, 960)).boxes == ()
    assert boxes_from_maps(np.full((3, 120, 160), 0.45, np.float32), (1280, 960)).boxes == ()


def test_a_hand_is_flagged_and_the_dice_the_top_map_shows_are_kept(scenes):
    # The top map is trained to show no top under a hand; where it does show one, the
    # die is kept: a hand map spread over a real table must never empty the reading.
    scene = scenes[2]
    maps = exact_maps(scene)
    maps[HAND, :, :80] = 1.0  # a hand over the left half of the frame, from its edge
    located = boxes_from_maps(maps, (1280, 960))
    assert located.hand and located.hand_mask is not None
    assert len(located.boxes) == len(scene.dice) == len(located.scores)


def test_a_blob_of_hand_in_the_middle_of_the_frame_is_not_a_hand(scenes):
    maps = exact_maps(scenes[3])
    maps[HAND, 40:80, 60:100] = 1.0  # as large as a hand, but away from every edge
    assert not boxes_from_maps(maps, (1280, 960)).hand


def test_a_small_blob_of_hand_at_the_edge_or_a_thin_strip_along_it_is_not_a_hand(scenes):
    maps = exact_maps(scenes[3])
    located = boxes_from_maps(maps, (1280, 960))
    cells = located.die_side / 8  # die side in map cells (8 frame pixels a cell)
    small = maps.copy()
    small[HAND, 0 : int(cells), 70 : 70 + int(2 * cells)] = 1.0  # two dice at the top edge
    assert not boxes_from_maps(small, (1280, 960)).hand
    strip = maps.copy()
    strip[HAND, :, : max(1, int(cells / 2))] = 1.0  # half a die wide, the whole left edge
    assert not boxes_from_maps(strip, (1280, 960)).hand
    hand = maps.copy()
    hand[HAND, 30 : 30 + int(3 * cells), : int(5 * cells)] = 1.0  # a forearm from the left
    assert boxes_from_maps(hand, (1280, 960)).hand


def test_a_few_hand_cells_are_not_a_hand(scenes):
    maps = exact_maps(scenes[3])
    maps[HAND, 60:62, 80:82] = 1.0
    assert not boxes_from_maps(maps, (1280, 960)).hand


def test_maps_of_other_frame_sizes_map_back_to_their_pixels():
    scene = render_scene(HELD_OUT_SEED_BASE + 5, size=(1920, 1080))
    located = boxes_from_maps(exact_maps(scene), (1920, 1080))
    assert len(located.boxes) == len(scene.dice)
    for die in scene.dice:
        centre = np.asarray(die.centre)
        nearest = min(located.boxes, key=lambda box: np.linalg.norm(box.mean(axis=0) - centre))
        assert np.linalg.norm(nearest.mean(axis=0) - centre) < 0.08 * side_of(die.corners)


@pytest.mark.parametrize(
    ("frame", "net", "maps"),
    [((1280, 960), (320, 240), (160, 120)), ((640, 480), (320, 240), (160, 120)),
     ((1920, 1080), (320, 176), (160, 88)), ((100, 2000), (320, 6400), (160, 3200))],
)
def test_network_sizes_keep_the_frame_shape_on_the_16_pixel_grid(frame, net, maps):
    assert net_size(*frame) == net
    assert output_size(*frame) == maps


def test_a_frame_without_size_is_refused():
    with pytest.raises(ValueError, match="positive"):
        net_size(0, 480)


def test_network_input_is_colours_in_unit_range_then_position_across_the_frame():
    images = np.full((2, 8, 16, 3), 255, np.uint8)
    tensor = to_tensor(images)
    assert tensor.shape == (2, 5, 8, 16) and tensor.dtype == np.float32
    assert np.all(tensor[:, :3] == pytest.approx(1.0))
    x, y = tensor[0, 3], tensor[0, 4]
    assert x[0, 0] == pytest.approx(-1 + 1 / 16) and x[0, -1] == pytest.approx(1 - 1 / 16)
    assert y[0, 0] == pytest.approx(-1 + 1 / 8) and y[-1, 0] == pytest.approx(1 - 1 / 8)
    assert np.all(x == x[0]) and np.all(y.T == y[:, 0])


def test_a_frame_exposed_like_the_training_frames_is_left_as_it_is(scenes):
    image = net_input(scenes[0].image)
    assert brightest(image) >= ExposureSettings().target
    assert lift_exposure(image) is image


@pytest.mark.parametrize("dim", [0.25, 0.4, 0.5])
def test_an_under_exposed_frame_is_lifted_to_the_trained_exposure_by_one_gain(scenes, dim):
    image = net_input(scenes[0].image)
    dark = cv2.convertScaleAbs(image, alpha=dim)
    lifted = lift_exposure(dark)
    assert brightest(lifted) == pytest.approx(ExposureSettings().target, abs=3)
    gain = ExposureSettings().target / brightest(dark)
    assert np.abs(lifted.astype(float) - dark * gain).max() <= 1.0  # no colour changed


def test_a_nearly_black_frame_is_brightened_at_most_max_lift():
    dark = np.full((16, 16, 3), 10, np.uint8)
    assert np.all(lift_exposure(dark) == round(10 * ExposureSettings().max_lift))


@pytest.fixture(scope="module")
def finder():
    return TopFinder.load()


def test_every_die_of_a_dim_frame_is_located(finder):
    """A dim room (the frame at 35 % of its light): the look at the frame as it is finds
    five of these ten dice, the look at it lifted all ten."""
    scene = render_scene(HELD_OUT_SEED_BASE + 29)
    dim = cv2.convertScaleAbs(scene.image, alpha=0.35)
    assert under_exposed(dim) and not under_exposed(scene.image)
    assert len(finder.locate_at(dim, None, NET_WIDTH).boxes) < len(scene.dice)
    located = finder.locate(dim)
    assert len(located.boxes) == len(scene.dice)
    for die in scene.dice:
        distances = [np.linalg.norm(box.mean(axis=0) - die.centre) for box in located.boxes]
        assert min(distances) < 0.3 * side_of(die.corners)


def test_a_dim_frame_whose_dice_are_all_found_keeps_its_boxes(finder):
    scene = render_scene(HELD_OUT_SEED_BASE + 2)
    dim = cv2.convertScaleAbs(scene.image, alpha=0.35)
    assert under_exposed(dim)
    first = finder.locate_at(dim, None, NET_WIDTH)
    assert len(first.boxes) == len(scene.dice)
    located = finder.locate(dim)
    assert len(located.boxes) == len(first.boxes)
    assert all(np.array_equal(a, b) for a, b in zip(located.boxes, first.boxes, strict=True))


def test_darkening_spreads_the_levels_just_below_white_and_keeps_white_white():
    levels = np.arange(256, dtype=np.uint8).reshape(16, 16, 1).repeat(3, axis=2)
    darkened = darken_highlights(levels).reshape(256, 3)[:, 0].astype(int)
    assert darkened[255] == 255 and darkened[0] == 0
    assert np.all(np.diff(darkened) >= 0)
    assert darkened[250] - darkened[240] >= 2 * (250 - 240) - 2


def test_lightening_spreads_the_levels_just_above_black_and_keeps_black_black():
    levels = np.arange(256, dtype=np.uint8).reshape(16, 16, 1).repeat(3, axis=2)
    lightened = lighten_shadows(levels).reshape(256, 3)[:, 0].astype(int)
    assert lightened[0] == 0 and lightened[255] == 255
    assert np.all(np.diff(lightened) >= 0) and np.all(lightened >= np.arange(256))
    assert lightened[20] - lightened[10] >= 2 * (20 - 10)


def test_a_frame_short_of_dice_is_looked_at_with_the_levels_its_exposure_calls_for():
    assert second_looks(DARK) == (Exposure.LIFTED,)
    assert second_looks(BRIGHT) == (Exposure.DARKENED,)
    assert second_looks(LIT) == (Exposure.LIGHTENED, Exposure.DARKENED)
    assert np.array_equal(net_input(LIT, exposure=Exposure.LIGHTENED),
                          lighten_shadows(net_input(LIT)))


def test_a_frame_mostly_clipped_at_white_is_over_exposed():
    frame = np.full((960, 1280, 3), 255, np.uint8)
    assert over_exposed(frame)
    share = ExposureSettings().over_exposed_share
    shown = int(round((1 - share) * 960)) + 24  # rows below the clipping
    frame[:shown] = ExposureSettings().clipped - 40
    assert not over_exposed(frame)
    assert not over_exposed(LIT) and not over_exposed(DARK)


def test_training_inputs_are_not_lifted(scenes):
    dim = cv2.convertScaleAbs(scenes[0].image, alpha=0.35)
    assert np.array_equal(net_input(dim), cv2.resize(dim, (320, 240), interpolation=cv2.INTER_AREA))
    lifted = net_input(dim, exposure=Exposure.LIFTED)
    assert brightest(lifted) == pytest.approx(ExposureSettings().target, abs=3)


def test_training_maps_mark_each_top_its_core_and_the_hand():
    scene = render_scene(HELD_OUT_SEED_BASE + 9, hand=True)
    maps = target_maps(scene)
    assert maps.shape == (3, 120, 160) and maps.dtype == np.uint8
    hand = maps[HAND] > 127
    assert hand.any()
    # a cell's share of top face and of hand never add up to more than all of it
    assert np.all(maps[TOP].astype(int) + maps[HAND] <= 256)
    assert np.all(maps[CORE].astype(int) + maps[HAND] <= 256)
    assert np.all(maps[CORE].astype(int) <= maps[TOP].astype(int) + 1)  # a core lies in its top
    for die in scene.dice:
        column, row = (np.asarray(die.centre) / 8).astype(int)
        if not hand[row, column]:
            assert maps[CORE, row, column] > 200


def test_a_training_sample_is_the_shrunk_frame_and_its_maps():
    image, maps = render_locator_sample(1_500_000_003)
    assert image.shape == (240, 320, 3) and image.dtype == np.uint8
    assert maps.shape == (3, 120, 160)
    again, _ = render_locator_sample(1_500_000_003)
    assert np.array_equal(image, again)


def _square(cx: float, cy: float, side: float) -> np.ndarray:
    half = side / 2
    return np.array(
        [[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
         [cx - half, cy + half]], np.float32,
    )


@pytest.mark.parametrize(("inner_shade", "kept"), [(90, 1), (190, 2)])
def test_a_darker_face_beside_a_top_on_the_centre_side_is_its_side_face(inner_shade, kept):
    # A die right of the picture's centre: the camera sees its left side, shaded.
    from vision.read.tops import _drop_side_faces

    frame = np.full((480, 640, 3), 60, np.uint8)
    top, side_face = _square(560, 240, 60), _square(500, 240, 60)
    cv2.fillConvexPoly(frame, np.round(top).astype(np.int32), (200, 200, 200))
    cv2.fillConvexPoly(frame, np.round(side_face).astype(np.int32), (inner_shade,) * 3)
    boxes = _drop_side_faces([top, side_face], frame, 60.0)
    assert len(boxes) == kept and any(np.array_equal(box, top) for box in boxes)


def test_two_equally_lit_dice_side_by_side_are_both_kept():
    from vision.read.tops import _drop_side_faces

    frame = np.full((480, 640, 3), 60, np.uint8)
    left, right = _square(200, 240, 60), _square(262, 240, 60)
    for box in (left, right):
        cv2.fillConvexPoly(frame, np.round(box).astype(np.int32), (200, 200, 200))
    assert len(_drop_side_faces([left, right], frame, 60.0)) == 2


def test_a_top_whose_bold_numeral_fills_its_middle_is_not_taken_for_a_side_face():
    # A white die printed with a heavy green W beside another die, nearer the picture's
    # centre: its middle is mostly ink, its rim the same white as its neighbour's.
    from vision.read.tops import _drop_side_faces

    frame = np.full((480, 640, 3), 60, np.uint8)
    outer, inner = _square(560, 240, 60), _square(498, 240, 60)
    for box in (outer, inner):
        cv2.fillConvexPoly(frame, np.round(box).astype(np.int32), (200, 200, 200))
    numeral = np.round(_square(498, 240, 40)).astype(np.int32)
    cv2.fillConvexPoly(frame, numeral, (90, 160, 60))
    assert len(_drop_side_faces([outer, inner], frame, 60.0)) == 2



def _side_faces_pair_by_pair(boxes, frame, side, faces):
    """The side-face rule by its definition, every ordered pair of boxes in turn."""
    from vision.read.tops import _brightness

    middle = np.array([frame.shape[1] / 2, frame.shape[0] / 2])
    centres = [box.mean(axis=0) for box in boxes]
    dropped = set()
    for i, j in itertools.permutations(range(len(boxes)), 2):
        step, outward = centres[j] - centres[i], centres[j] - middle
        if np.linalg.norm(step) > faces.near * side:
            continue
        if float(step @ outward) <= faces.radial * np.linalg.norm(step) * np.linalg.norm(outward):
            continue
        if _brightness(frame, boxes[i], faces.body_ring) < faces.shade * _brightness(
            frame, boxes[j], faces.body_ring
        ):
            dropped.add(i)
    return [box for index, box in enumerate(boxes) if index not in dropped]


@settings(max_examples=60, deadline=None)
@given(
    dice=st.lists(
        st.tuples(
            st.floats(20, 620), st.floats(20, 460), st.floats(20, 70), st.integers(40, 255)
        ),
        min_size=2,
        max_size=10,
    ),
    side=st.floats(20, 80),
)
def test_side_faces_are_dropped_as_the_pair_by_pair_rule_says(dice, side):
    # Only boxes in a near, outward pair have their brightness measured: the same boxes
    # must go as when every pair is weighed in full.
    from vision.read.tops import _drop_side_faces

    frame = np.full((480, 640, 3), 60, np.uint8)
    boxes = [_square(cx, cy, size) for cx, cy, size, _ in dice]
    for box, (*_, shade) in zip(boxes, dice, strict=True):
        cv2.fillConvexPoly(frame, np.round(box).astype(np.int32), (shade,) * 3)
    faces = LocateSettings().side_faces
    kept = _drop_side_faces(list(boxes), frame, side, faces)
    expected = _side_faces_pair_by_pair(boxes, frame, side, faces)
    assert [id(box) for box in kept] == [id(box) for box in expected]

def _nearest_core_on_the_whole_grid(cores, top):
    """Who owns each cell, by the definition: the nearest core's number (1..) over the
    whole grid, the first of cores equally near, where the top map or a core is."""
    distances = [
        np.round(cv2.distanceTransform(np.where(p, 0, 255).astype(np.uint8), cv2.DIST_L2, 3), 3)
        for p in cores
    ]
    nearest = np.argmin(np.stack(distances), axis=0) + 1
    reach = top | np.logical_or.reduce(cores)
    return np.where(reach, nearest, 0)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 8),
    reach_cells=st.sampled_from([2, 4, 16]),
)
def test_each_core_owns_the_cells_nearest_to_it_however_far_its_window_reaches(
    seed, count, reach_cells
):
    # Tops touch, cores lie side by side and stray top cells lie far from any core, so
    # the windowed distances meet cells beyond every window and the whole-grid
    # fallback alike.
    from vision.read.tops import _owners

    rng = np.random.default_rng(seed)
    top = rng.random((40, 56)) < 0.15
    cores = []
    taken = np.zeros_like(top)
    for _ in range(count):
        y, x = int(rng.integers(0, 36)), int(rng.integers(0, 52))
        core = np.zeros_like(top)
        core[y : y + int(rng.integers(1, 4)), x : x + int(rng.integers(1, 4))] = True
        if (cv2.dilate(taken.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)[core].any():
            continue  # cores are separate components of the core map
        taken |= core
        top[max(y - 5, 0) : y + 8, max(x - 5, 0) : x + 8] = True
        cores.append(core)
    owners = _owners(cores, top, reach_cells)
    np.testing.assert_array_equal(owners, _nearest_core_on_the_whole_grid(cores, top))


def test_a_cell_as_near_to_two_cores_goes_to_the_first():
    from vision.read.tops import _owners

    top = np.zeros((9, 15), bool)
    top[2:7, 1:14] = True
    left, right = np.zeros_like(top), np.zeros_like(top)
    left[4, 3], right[4, 11] = True, True
    owners = _owners([left, right], top, 16)
    assert owners[4, 7] == 1 and owners[4, 8] == 2 and owners[4, 6] == 1
    assert (owners[:, 7][top[:, 7]] == 1).all()  # the middle column, equally near both


def test_the_network_input_can_be_sized_to_bring_dice_to_their_trained_size():
    assert net_size(1280, 960, 640) == (640, 480)
    assert output_size(1280, 720, 848) == (424, 240)
    with pytest.raises(ValueError, match="multiple of 16"):
        net_size(1280, 960, 300)
    box = np.array([(0, 0), (30, 0), (30, 30), (0, 30)], np.float32)
    small = Located((box,), die_side=30.0, scores=(1.0,), net_width=320, frame_width=1280)
    assert small.net_die_side == pytest.approx(7.5)
    assert fitted_net_width(small) == 848  # 30-pixel dice shown at 20 pixels
    big = replace(small, die_side=150.0)
    assert fitted_net_width(big) == 176
    usual = replace(small, die_side=80.0)
    assert fitted_net_width(usual) == 320 and fits(usual)
    assert not fits(replace(usual, scores=(0.7,)))  # the right size, but doubtful
    low_end = replace(small, die_side=68.0)  # 17 pixels: fits, but a search looks again
    assert fits(low_end) and fitted_net_width(low_end) == 384


def test_the_locate_settings_passed_in_are_the_ones_judged_by():
    box = np.array([(0, 0), (30, 0), (30, 30), (0, 30)], np.float32)
    usual = Located((box,), die_side=80.0, scores=(0.95,), net_width=320, frame_width=1280)
    assert fits(usual) and not fits(usual, LocateSettings(fit_score=0.99))
    assert not fits(usual, LocateSettings(fit_range=(21.0, 32.0)))  # 20 network pixels
    small = replace(usual, die_side=30.0)
    assert fitted_net_width(small, LocateSettings(net_width_range=(96, 640))) == 640


def _look(boxes, scores, net_width, frame_width=600) -> Located:
    sides = [float(np.linalg.norm(box[1] - box[0])) for box in boxes]
    return Located(tuple(boxes), die_side=float(np.median(sides)) if sides else 0.0,
                   scores=tuple(scores), net_width=net_width, frame_width=frame_width)


def _pips(cx: float, cy: float, side: float) -> list[np.ndarray]:
    """The four pips of a pip die's 4 as boxes of a fifth of its side."""
    offset, pip = side * 0.22, side * 0.18
    return [_square(cx + dx, cy + dy, pip) for dx in (-offset, offset) for dy in (-offset, offset)]


def test_a_finer_look_at_a_sure_dies_pips_is_its_print_not_dice():
    from vision.read.tops import print_of

    die = _look([_square(300, 200, 70)], [1.0], 160)
    pips = _look(_pips(300, 200, 70), [0.94, 0.91, 0.9, 0.92], 640)
    assert print_of(pips, die) and not print_of(die, pips)
    # Two dice seen as one box at a coarse look are half its size: dice, not print.
    pair = _look([_square(282, 200, 34), _square(318, 200, 34)], [1.0, 1.0], 640)
    assert not print_of(pair, die)
    # Small boxes elsewhere in the frame, or a doubtful coarse box, decide nothing.
    assert not print_of(_look(_pips(100, 350, 70), [0.95] * 4, 640), die)
    assert not print_of(pips, replace(die, scores=(0.6,)))


class _CannedLooks:
    """A TopFinder whose looks at each network width are given (no network): `other`
    holds the looks at a frame whose levels are shown otherwise (lifted, darkened or
    lightened), `by_exposure` those of one such exposure where they differ."""

    def __init__(
        self,
        looks: dict[int, Located],
        other: dict[int, Located] | None = None,
        by_exposure: dict[Exposure, dict[int, Located]] | None = None,
    ):
        self.looks = looks
        self.other = other or {}
        self.by_exposure = by_exposure or {}
        self.widths: list[int] = []  # each look's width, one with other levels negative
        self.exposures: list[Exposure] = []  # each look's levels
        self.settings = LocateSettings()

    def locate_at(self, frame, tray, net_width, *, exposure=Exposure.AS_SEEN):
        changed = exposure is not Exposure.AS_SEEN
        self.widths.append(-net_width if changed else net_width)
        self.exposures.append(exposure)
        looks = self.by_exposure.get(exposure, self.other if changed else self.looks)
        return looks.get(net_width, _look([], [], net_width))


LIT = np.full((960, 1280, 3), 200, np.uint8)
"""A frame as bright as the training frames: when dice are missing, a look with its
shadows lightened and one with its highlights darkened, never a lifted one."""
DARK = np.full((960, 1280, 3), 40, np.uint8)
BRIGHT = np.full((960, 1280, 3), 255, np.uint8)
"""A frame clipped at white: a darkened look when dice are missing."""


def test_the_search_keeps_the_look_that_saw_the_die_over_the_one_that_counted_its_pips():
    from vision.read.tops import TopFinder

    die = _look([_square(300, 200, 70)], [1.0], 160)
    pips = _look(_pips(300, 200, 70), [0.94, 0.91, 0.9, 0.92], 640)
    too_big = _look([_square(300, 200, 70)], [0.84], 320)  # 37 network pixels: no fit
    canned = _CannedLooks({320: too_big, 160: die, 640: pips})
    found = TopFinder.locate(canned, LIT[:450, :600])
    assert found is die
    assert canned.widths[:5] == [320, -320, -320, 160, 640]


def test_small_dice_a_coarse_look_saw_as_one_sure_blob_are_dice_not_print():
    from vision.read.tops import print_of

    blob = _look([_square(300, 200, 100)], [0.95], 160)
    ten = [_square(260 + 20 * (i % 5), 185 + 30 * (i // 5), 19) for i in range(10)]
    assert not print_of(_look(ten, [0.98] * 10, 640), blob)  # more than a six's pips
    four = [_square(285 + 30 * (i % 2), 185 + 30 * (i // 2), 27) for i in range(4)]
    assert not print_of(_look(four, [0.98] * 4, 640), blob)  # over a fifth of its size


def _row(count: int, net_width: int, frame_width: int = 1280) -> Located:
    """`count` sure dice in a row, 80 frame pixels (20 at the trained width) across."""
    return _look([_square(100 + 100 * i, 400, 80) for i in range(count)], [1.0] * count,
                 net_width, frame_width)


@pytest.mark.parametrize(("first", "closer", "widths", "kept"), [
    (8, 10, [320, -320, -320, 400], 10),  # most of a roll: a closer look finds the two missing
    (8, 7, [320, -320, -320, 400], 8),  # the closer look saw less: the first kept
    (10, 10, [320], 10),  # a whole roll: one look
    (3, 5, [320, -320, -320], 3),  # a few dice: one look, and two with other levels
])
def test_a_look_at_most_of_a_roll_is_compared_with_a_closer_one(first, closer, widths, kept):
    from vision.read.tops import TopFinder

    canned = _CannedLooks({320: _row(first, 320), 400: _row(closer, 400)})
    found = TopFinder.locate(canned, LIT)
    assert canned.widths == widths and len(found.boxes) == kept


@pytest.mark.parametrize(("plain", "lifted", "closer", "widths", "kept"), [
    (5, 10, 10, [320, -320], 10),  # the lifted look found the dice the dark one missed
    (5, 9, 10, [320, -320, -400], 10),  # ... and most of a roll: the closer look lifted too
    (9, 6, 6, [320, -320, 400], 9),  # the lifted look saw less: the first kept
    (10, 0, 0, [320], 10),  # a whole roll in the dark: no lifted look
])
def test_an_under_exposed_frame_short_of_dice_is_looked_at_lifted(
    plain, lifted, closer, widths, kept
):
    from vision.read.tops import TopFinder

    canned = _CannedLooks({320: _row(plain, 320), 400: _row(plain, 400)},
                          {320: _row(lifted, 320), 400: _row(closer, 400)})
    found = TopFinder.locate(canned, DARK)
    assert canned.widths == widths and len(found.boxes) == kept


@pytest.mark.parametrize(("lightened", "darkened", "further", "kept"), [
    (10, 6, [], 10),  # dark dice sunk in black: the lightened look found all ten
    (9, 6, [Exposure.LIGHTENED], 10),  # ... most of them: the closer look lightened too
    (6, 9, [Exposure.DARKENED], 10),  # dark dice lifted to grey: the darkened look
    (4, 4, [], 5),  # neither saw more: the first kept
])
def test_a_well_exposed_frame_short_of_dice_is_looked_at_through_other_tone_curves(
    lightened, darkened, further, kept
):
    """A camera's hard tone curve sinks dark dice into black on a bright cloth, a soft
    one lifts them towards a grey cloth: the frame's exposure is fine, so neither a
    lift nor the over-exposed frame's darkening is called for, but the better of a
    lightened and a darkened look finds them; the further looks keep its levels."""
    from vision.read.tops import TopFinder

    canned = _CannedLooks(
        {320: _row(5, 320), 400: _row(5, 400)},
        by_exposure={
            Exposure.LIGHTENED: {320: _row(lightened, 320), 400: _row(10, 400)},
            Exposure.DARKENED: {320: _row(darkened, 320), 400: _row(10, 400)},
        },
    )
    found = TopFinder.locate(canned, LIT)
    assert canned.exposures[:3] == [Exposure.AS_SEEN, Exposure.LIGHTENED, Exposure.DARKENED]
    assert canned.exposures[3:] == further
    assert len(found.boxes) == kept


@pytest.mark.parametrize(("plain", "darkened", "widths", "kept"), [
    (5, 10, [320, -320], 10),  # the darkened look found the dice the clipped one missed
    (9, 6, [320, -320, 400], 9),  # the darkened look saw less: the first kept
    (10, 0, [320], 10),  # a whole roll: no second look
])
def test_an_over_exposed_frame_short_of_dice_is_looked_at_darkened(plain, darkened, widths, kept):
    from vision.read.tops import TopFinder

    canned = _CannedLooks({320: _row(plain, 320), 400: _row(plain, 400)},
                          {320: _row(darkened, 320), 400: _row(darkened, 400)})
    found = TopFinder.locate(canned, BRIGHT)
    assert canned.widths == widths and len(found.boxes) == kept




def test_the_reader_hands_the_locator_its_settings():
    from vision.read.pipeline import DiceReader
    from vision.read.settings import ReaderSettings

    locate = LocateSettings(no_top=0.5)
    reader = DiceReader(settings=ReaderSettings(locate=locate), calibration=None)
    assert isinstance(reader.finder, TopFinder) and reader.finder.settings is locate


@settings(max_examples=40, deadline=None)
@given(
    corners=st.lists(
        st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)), min_size=3, max_size=8
    ),
)
def test_side_lengths_are_each_corners_distance_from_the_one_before(corners):
    from vision.read.vectors import side_lengths

    points = np.array(corners)
    expected = [np.hypot(*(points[k] - points[k - 1])) for k in range(len(points))]
    np.testing.assert_allclose(side_lengths(points), expected, rtol=1e-12, atol=1e-9)
    stacked = side_lengths(np.stack([points, points[::-1]]))
    np.testing.assert_allclose(stacked[0], expected, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(stacked[1], side_lengths(points[::-1]), rtol=1e-12, atol=1e-9)
