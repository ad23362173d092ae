"""Real photos for the locator: each die's middle taught, its rim left out, the rest 'no die'."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.real_photos import (
    CORE_SHARE,
    DIE_PER_LABEL,
    LABEL_SPAN,
    MASK_GROWTH,
    LabelledPhotos,
    Photo,
    load_photos,
    photo_sample,
)
from vision.read.tops_input import CHANNELS, NET_STRIDE


def _write_set(folder: Path) -> None:
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    rng = np.random.default_rng(0)
    for name in ("desk_1", "desk_2", "valid_1"):
        image = rng.integers(60, 200, (480, 640, 3), dtype=np.uint8)
        cv2.imwrite(str(folder / "images" / f"{name}.jpg"), image)
        (folder / "labels" / f"{name}.txt").write_text("2 0.5 0.5 0.0625 0.0833\n")
    cv2.imwrite(str(folder / "images" / "unlabelled.jpg"), image)


def test_only_labelled_photos_outside_the_held_out_split_are_trained_on(tmp_path):
    _write_set(tmp_path)
    names = [photo.path.stem for photo in load_photos(tmp_path)]
    assert names == ["desk_1", "desk_2", "valid_1"]
    assert [p.held_out for p in load_photos(tmp_path)] == [False, False, True]
    assert len(LabelledPhotos(tmp_path)) == 2


def test_a_dies_top_is_estimated_from_its_label_and_its_pips(tmp_path):
    _write_set(tmp_path)
    photo = load_photos(tmp_path)[0]
    assert photo.pips.tolist() == [3]  # class 2: three pips
    assert photo.top_sides((640, 480)) == pytest.approx([40 / LABEL_SPAN[2]])
    boxes = np.array([[0.5, 0.5, 0.05, 0.05]] * 3)  # 32 x 24 pixels each
    pips = Photo(Path("x.jpg"), boxes, np.array([1, 6, 0])).top_sides((640, 480))
    assert pips[0] > pips[1]  # a one's box is its single pip: the top is far larger
    assert pips[0] == pytest.approx(32 / 0.38) and pips[1] == pytest.approx(32 / 0.83)
    assert pips[2] == pytest.approx(32 / np.median(LABEL_SPAN))  # pips unknown


def test_a_sample_teaches_each_dies_middle_leaves_its_rim_out_and_no_die_elsewhere():
    image = np.full((480, 640, 3), 120, np.uint8)
    box = np.array([[0.5, 0.5, 0.0625, 0.0625]])  # pips boxed 40 x 30 pixels, in the middle
    rng = np.random.default_rng(3)
    window = (640, 480)  # the whole (scaled) photo, so the die is inside it
    crop, targets, mask = photo_sample(image, box, rng, window)
    assert crop.shape == (480, 640, 3)
    assert targets.shape == mask.shape == (len(CHANNELS), 240, 320)
    top, core, hand = (CHANNELS.index(name) for name in ("top", "core", "hand"))
    assert (mask[hand] == 255).all() and not targets[hand].any()  # no photo shows a hand
    die = DIE_PER_LABEL * 40 / NET_STRIDE  # the die's side in cells, about the label's centre
    for channel in (top, core):
        taught = np.argwhere(targets[channel] > 0)
        (y0, x0), (y1, x1) = taught.min(axis=0), taught.max(axis=0)
        assert (x0 + x1 + 1) / 2 == pytest.approx(160, abs=1)
        assert (y0 + y1 + 1) / 2 == pytest.approx(120, abs=1)
        assert x1 - x0 + 1 == pytest.approx(CORE_SHARE * die, abs=2)
        assert (mask[channel][targets[channel] > 0] == 255).all()  # the middle is taught
        left_out = np.argwhere(mask[channel] == 0)
        assert left_out[:, 1].max() - left_out[:, 1].min() + 1 == pytest.approx(
            MASK_GROWTH * die, abs=2
        )
        assert mask[channel][0, 0] == 255 and targets[channel][0, 0] == 0  # far off: no die


def test_a_batch_draws_windows_at_the_training_scale(tmp_path):
    _write_set(tmp_path)
    images, targets, masks = LabelledPhotos(tmp_path).batch(np.random.default_rng(1), 5, (160, 128))
    assert images.shape == (5, 128, 160, 3) and images.dtype == np.uint8
    assert targets.shape == masks.shape == (5, len(CHANNELS), 64, 80)


@pytest.mark.slow
def test_masked_cells_teach_nothing_and_photo_windows_join_the_batch(tmp_path):
    torch = pytest.importorskip("torch")
    from models.train_locator import _loss, _with_photos

    logits = torch.full((1, len(CHANNELS), 4, 4), -3.0)  # sure there is no die
    target = torch.zeros(1, len(CHANNELS), 4, 4)
    wrong = target.clone()
    wrong[:, :, :2] = 1.0  # half the cells say there is one ...
    mask = torch.ones_like(target)
    mask[:, :, :2] = 0.0  # ... and are masked out
    assert float(_loss(logits, wrong, mask)) == pytest.approx(float(_loss(logits, target, mask)))
    assert float(_loss(logits, wrong)) != pytest.approx(float(_loss(logits, target)))

    _write_set(tmp_path)
    x = torch.zeros(3, 5, 128, 160)
    y = torch.zeros(3, len(CHANNELS), 64, 80)
    rng = np.random.default_rng(0)
    x2, y2, mask2 = _with_photos(x, y, LabelledPhotos(tmp_path), rng, 2, (160, 128))
    assert x2.shape[0] == y2.shape[0] == mask2.shape[0] == 5
    assert bool((mask2[:3] == 1).all()) and bool((mask2[3:] == 0).any())


def test_photo_samples_come_light_and_dark_so_the_locator_does_not_learn_dice_are_white():
    from models.real_photos import recoloured

    white_die_on_a_light_desk = np.full((32, 32, 3), 220, np.uint8)
    rng = np.random.default_rng(0)
    means = [float(recoloured(white_die_on_a_light_desk, rng).mean()) for _ in range(40)]
    dark = sum(mean < 60 for mean in means)
    assert 10 <= dark <= 30 and all(mean < 60 or mean > 170 for mean in means)
