"""Training the frame-colour network: rows from cached frames, the fit, the export."""

from __future__ import annotations

import numpy as np
import pytest

from scorer.dice import COLOUR_RGB
from vision.read.frame_colours import (
    COOL_PAIR,
    FEATURES,
    WARM_PAIR,
    PairNetwork,
    crop_lightness,
    pair_rows,
)
from vision.read.frame_inks import frame_ink_evidence, ink_chroma
from vision.read.model_io import COLOUR_LABELS

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from models.train_frame_colours import (  # noqa: E402 (after the skip)
    VALIDATION_EVERY,
    Rows,
    TrainConfig,
    build_rows,
    chunk_tag,
    export,
    ink_spread_of,
    is_steep,
    pair_direction,
    train,
    view_of,
)

RED, ORANGE, GREEN, BLUE = (COLOUR_LABELS.index(letter) for letter in "ROGB")


def _crop(rgb: tuple[int, int, int]) -> np.ndarray:
    crop = np.full((40, 40, 3), 240, np.uint8)
    crop[14:26, 12:28] = rgb[::-1]
    return crop


def _frame_rows(pair, frame) -> np.ndarray:
    """The reader's rows for `pair` of one frame (lists of ink RGB, colour probs, truth)."""
    crops = np.stack([_crop(ink) for ink, _, _ in frame])
    probs = np.stack([p for _, p, _ in frame])
    chroma = ink_chroma(crops)
    return pair_rows(pair, chroma, probs, crop_lightness(crops),
                     frame_ink_evidence(chroma, probs)).rows


def _write_chunk(path, frames):
    """frames: lists of (ink RGB, colour probs, true colour index)."""
    parts = {"chroma": [], "colour": [], "light": [], "truth": []}
    for dice in frames:
        crops = np.stack([_crop(ink) for ink, _, _ in dice])
        parts["chroma"].append(ink_chroma(crops))
        parts["colour"].append(np.stack([probs for _, probs, _ in dice]))
        parts["light"].append(crop_lightness(crops))
        parts["truth"].append(np.array([truth for _, _, truth in dice]))
    np.savez(path, sizes=np.array([len(f) for f in frames]),
             **{k: np.concatenate(v) for k, v in parts.items()})


def test_rows_keep_warm_dice_that_are_truly_red_or_orange(tmp_path):
    torn = np.array([0.49, 0.49, 0.01, 0.01])
    green = np.array([0.01, 0.01, 0.97, 0.01])
    frame = [
        (COLOUR_RGB["R"], torn, RED),
        (COLOUR_RGB["O"], torn, ORANGE),
        (COLOUR_RGB["G"], torn, GREEN),  # warm to the classifier, truly green: left out
        (COLOUR_RGB["G"], green, GREEN),  # not warm
        (COLOUR_RGB["R"], torn, -1),  # no true die there
    ]
    lone = [(COLOUR_RGB["R"], torn, RED)]  # one die: no frame to compare with
    _write_chunk(tmp_path / "a.npz", [frame, lone] + [frame] * (VALIDATION_EVERY - 1))
    rows = build_rows([tmp_path / "a.npz"])
    per_frame = 2
    assert len(rows.x) == per_frame * VALIDATION_EVERY  # the lone frame adds none
    assert rows.y.tolist() == [1.0, 0.0] * (len(rows.y) // 2)
    assert rows.validation.sum() == per_frame  # frame number 5 of the file
    np.testing.assert_allclose(rows.x[:2], _frame_rows(WARM_PAIR, frame)[:2])


def test_cool_rows_keep_dice_held_green_or_blue_that_are_truly_so(tmp_path):
    torn = np.array([0.01, 0.01, 0.49, 0.49])
    frame = [
        (COLOUR_RGB["G"], torn, GREEN),
        (COLOUR_RGB["B"], torn, BLUE),
        (COLOUR_RGB["R"], torn, RED),  # held cool, truly red: left out
        (COLOUR_RGB["O"], np.array([0.01, 0.97, 0.01, 0.01]), ORANGE),  # not cool
    ]
    _write_chunk(tmp_path / "a.npz", [frame] * VALIDATION_EVERY)
    rows = build_rows([tmp_path / "a.npz"], COOL_PAIR)
    assert len(rows.x) == 2 * VALIDATION_EVERY
    assert rows.y.tolist() == [1.0, 0.0] * VALIDATION_EVERY  # 1: the pair's first, green
    np.testing.assert_allclose(rows.x[:2], _frame_rows(COOL_PAIR, frame)[:2])


def test_a_pairs_direction_is_measured_from_the_fitting_frames_with_both_inks(tmp_path):
    sure = {c: np.eye(4)[c] * 0.97 + 0.01 for c in range(4)}
    both = [(COLOUR_RGB["G"], sure[GREEN], GREEN), (COLOUR_RGB["B"], sure[BLUE], BLUE)]
    one = [(COLOUR_RGB["G"], sure[GREEN], GREEN), (COLOUR_RGB["R"], sure[RED], RED)]
    _write_chunk(tmp_path / "a.npz", [both, one, both, both, both])
    direction, frames = pair_direction([tmp_path / "a.npz"], COOL_PAIR)
    assert frames == 3  # the frame of one cool ink, and the validation frame, left out
    assert np.linalg.norm(direction) == pytest.approx(1.0)
    assert direction @ np.asarray(COOL_PAIR.direction) > 0.95
    assert pair_direction([tmp_path / "a.npz"], WARM_PAIR)[1] == 0


def test_settings_out_of_range_are_refused():
    for bad in ({"frames": 0}, {"hidden": 0}, {"steps": 0}, {"learning_rate": 0.0},
                {"weight_decay": -1.0}, {"workers": 0}, {"steep_share": -0.1},
                {"steep_share": 1.5}, {"alike_share": -0.1}, {"alike_share": 1.5},
                {"aside_share": -0.1}, {"aside_share": 1.5}):
        with pytest.raises(ValueError):
            TrainConfig(**bad)


def test_the_steep_frames_are_the_share_asked_for_and_the_same_each_run():
    seeds = range(1_900_000_000, 1_900_002_000)
    half = [is_steep(seed, 0.5) for seed in seeds]
    assert 0.45 < np.mean(half) < 0.55
    assert half == [is_steep(seed, 0.5) for seed in seeds]  # an interrupted run resumes alike
    assert not any(is_steep(seed, 0.0) for seed in seeds)
    assert all(is_steep(seed, 1.0) for seed in seeds)
    # a larger share keeps every frame a smaller one had steep
    assert all(is_steep(seed, 0.7) for seed, steep in zip(seeds, half, strict=True) if steep)


def test_steep_frames_are_seen_from_aside_at_the_share_asked_for_and_upright_ones_stay():
    from vision.synth.locator_training import STEEP_ASIDE_TRAINING_VIEW, STEEP_TRAINING_VIEW

    seeds = range(1_900_000_000, 1_900_002_000)
    views = [view_of(seed, 0.6, 0.5) for seed in seeds]
    for seed, view in zip(seeds, views, strict=True):  # which frames are steep is unchanged
        assert (view is None) == (not is_steep(seed, 0.6))
    steep = [view for view in views if view is not None]
    aside = [view for view in steep if view.camera_aside]
    assert 0.45 < len(aside) / len(steep) < 0.55
    assert all(view in (STEEP_TRAINING_VIEW, STEEP_ASIDE_TRAINING_VIEW) for view in steep)
    assert STEEP_ASIDE_TRAINING_VIEW.die_px == STEEP_TRAINING_VIEW.die_px  # only the camera moves
    assert views == [view_of(seed, 0.6, 0.5) for seed in seeds]  # a resumed run draws alike
    assert [view_of(seed, 0.6) for seed in seeds] == [
        STEEP_TRAINING_VIEW if is_steep(seed, 0.6) else None for seed in seeds]


def test_a_cached_chunk_is_reused_only_for_the_same_crops_and_shares():
    sha = "27f78d52e487ec610ddf1109ac4ffe91"
    shipped = TrainConfig()
    tag = chunk_tag(sha, shipped, 0.9)
    assert tag.startswith(sha[:16])
    others = {chunk_tag(sha, shipped, 1.0), chunk_tag("0" * 32, shipped, 0.9),
              chunk_tag(sha, TrainConfig(steep_share=0.6), 0.9),
              chunk_tag(sha, TrainConfig(alike_share=0.0), 0.9),
              chunk_tag(sha, TrainConfig(aside_share=0.5), 0.9)}
    assert tag not in others and len(others) == 5
    # whole-box crops with the former shares keep the name chunks drawn so far carry
    assert chunk_tag(sha, shipped, 1.0) == f"{sha[:16]}-steep0.5-alike0.5"
    # no steep frames: none seen from aside, so the share does not split the cache
    assert (chunk_tag(sha, TrainConfig(steep_share=0.0, aside_share=0.5), 0.9)
            == chunk_tag(sha, TrainConfig(steep_share=0.0), 0.9))


def test_the_frames_printed_alike_are_the_share_asked_for_within_the_renderers_spread():
    from vision.synth.conditions import INK_SPREAD as renderers

    seeds = range(1_900_000_000, 1_900_002_000)
    spreads = [ink_spread_of(seed, 0.5) for seed in seeds]
    alike = np.array([s for s in spreads if s is not None])
    assert 0.45 < len(alike) / len(spreads) < 0.55
    assert alike.min() >= 0.0 and alike.max() <= renderers and alike.std() > renderers / 5
    assert spreads == [ink_spread_of(seed, 0.5) for seed in seeds]  # a resumed run draws alike
    assert all(ink_spread_of(seed, 0.0) is None for seed in seeds)
    # its draw is apart from the steep one's: the two shares mix
    steep = np.array([is_steep(seed, 0.5) for seed in seeds])
    drawn = np.array([s is not None for s in spreads])
    assert 0.2 < np.mean(steep & drawn) < 0.3


def test_the_network_learns_a_rule_and_its_export_reads_the_same(tmp_path):
    """Rows whose label is which side of zero one column lies: the fit learns it, and
    the exported file, loaded as the reader loads it, gives the network's odds."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, len(FEATURES))).astype(np.float32)
    column = FEATURES.index("ink along it less the others' least")
    y = (x[:, column] < 0).astype(np.float32)
    rows = Rows(x, y, np.zeros(len(x)), np.arange(len(x)) % 5 == 0)
    net, figures = train(rows, TrainConfig(steps=300, report=100))
    assert figures["validation_wrong"] < 0.03 * rows.validation.sum()
    path = tmp_path / "frame_colours.onnx"
    export(net, path, x[:64])
    loaded = PairNetwork.load(WARM_PAIR, path)
    with torch.no_grad():
        expected = net(torch.from_numpy(x[:64])).numpy()
    np.testing.assert_allclose(loaded.log_odds(x[:64]), expected, atol=1e-4)


def test_missing_training_fonts_stop_the_run_with_the_package_named(monkeypatch, capsys, tmp_path):
    import vision.synth.looks as looks
    from models.train_frame_colours import main
    from vision.synth.font_library import MissingFontError

    def missing(key):
        raise MissingFontError("the training fonts lack fonts-lato: apt install fonts-lato")

    monkeypatch.setattr(looks, "eval_group", missing)
    with pytest.raises(SystemExit):
        main(["--cache", str(tmp_path / "cache"), "--output", str(tmp_path / "m.onnx")])
    assert "fonts-lato" in capsys.readouterr().err
    assert not (tmp_path / "cache").exists(), "nothing is drawn without the fonts"
