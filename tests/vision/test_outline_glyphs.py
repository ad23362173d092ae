"""Outline-font dice faces: the font table, reserved families, golden masks, dice-set looks."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from regenerate_outline_golden import CASES, strip

from scorer.dice import COLOUR_LETTERS, COLOUR_RGB, WILD
from vision.read.model_io import VALUE_LABELS
from vision.synth import font_library
from vision.synth.conditions import random_conditions
from vision.synth.font_library import (
    FAMILIES,
    MissingFontError,
    ReservedFontError,
    Split,
    font_files,
    is_reserved,
    packages,
)
from vision.synth.glyphs import face_text
from vision.synth.looks import (
    BODIES,
    EVAL_GROUPS,
    TABLE_INKS,
    WIDE_INKS,
    LookMix,
    ink_hue_spreads,
    random_inks,
    random_look,
)

DATA = Path(__file__).resolve().parents[1] / "data"

pytest.importorskip("PIL", reason="Pillow (the dev extra) draws outline fonts")


@pytest.mark.parametrize(
    "path",
    [
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/croscore/Arimo-Bold.ttf",
        "Tinos-Italic.ttf",
        "Cousine-Regular.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSerif.ttf",
        "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
        "C059-Roman.otf",
        "P052-Bold.otf",
        "URWBookman-Light.otf",
        "Z003-MediumItalic.otf",
        "D050000L.otf",
        "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheros-regular.otf",
        "TeX Gyre Pagella.otf",
    ],
)
def test_reserved_families_are_recognised(path):
    assert is_reserved(path)


@pytest.mark.parametrize("path", ["Roboto-Regular.ttf", "NotoSerif-Bold.ttf", "Hack-Regular.ttf"])
def test_other_families_are_not_reserved(path):
    assert not is_reserved(path)


def test_the_table_names_no_reserved_family_and_spans_every_build():
    for family in FAMILIES:
        assert not is_reserved(family.name), family.name
        assert not any(is_reserved(pattern) for pattern in family.patterns), family.name
    assert len({family.name for family in FAMILIES}) >= 40
    builds = {family.build for family in FAMILIES}
    wanted = {"sans", "serif", "slab", "mono", "condensed", "rounded", "geometric", "humanist"}
    assert wanted <= builds
    held_out = {family.build for family in FAMILIES if family.split is Split.HELD_OUT}
    assert {"serif", "mono", "humanist", "rounded", "condensed"} <= held_out


def test_each_family_has_one_entry():
    # A family entered twice (say its OpenType files as a print, its TrueType ones as a
    # hand) would sit in two builds, or two splits, at once.
    names = [family.name.lower() for family in FAMILIES]
    assert sorted(name for name in set(names) if names.count(name) > 1) == []


def test_ci_can_install_only_the_held_out_families_packages():
    held_out = packages(Split.HELD_OUT)
    assert set(held_out) < set(packages())
    assert held_out == tuple(sorted({f.package for f in FAMILIES if f.split is Split.HELD_OUT}))
    assert "fonts-paratype" in held_out and "fonts-noto-core" not in held_out


def test_a_missing_font_package_is_named(no_fonts):
    with pytest.raises(MissingFontError, match="fonts-noto-core") as raised:
        font_files(Split.TRAIN)
    assert "install_fonts.sh" in str(raised.value)
    assert font_files(Split.TRAIN, require=False) == ()


def test_a_reserved_file_matched_by_a_pattern_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "truetype" / "dejavu"
    folder.mkdir(parents=True)
    (folder / "DejaVuSans-LiberationBold.ttf").write_bytes(b"not a font")
    monkeypatch.setattr(font_library, "FONT_ROOTS", (tmp_path,))
    font_library._family_files.cache_clear()
    try:
        with pytest.raises(ReservedFontError, match="Liberation"):
            font_files(Split.TRAIN, require=False)
    finally:
        font_library._family_files.cache_clear()


def test_drawing_a_reserved_font_is_refused():
    from vision.synth.outline_glyphs import OutlineStyle, outline_glyph_mask

    with pytest.raises(ReservedFontError):
        outline_glyph_mask(5, OutlineStyle("/fonts/LiberationSerif-Regular.ttf"))


def _installed(path: Path) -> None:
    if not path.is_file():
        pytest.skip(f"{path} is not installed (Debian's fonts-dejavu-core)")


@pytest.mark.parametrize("stem, font, style", CASES, ids=[case[0] for case in CASES])
def test_every_value_matches_its_golden_mask(stem, font, style):
    _installed(font)
    golden = cv2.imread(str(DATA / "outline_golden" / f"{stem}.png"), cv2.IMREAD_GRAYSCALE)
    drawn = strip(style)
    assert drawn.shape == golden.shape
    tile = drawn.shape[1] // len(VALUE_LABELS)
    for i, value in enumerate(VALUE_LABELS):
        got = drawn[:, i * tile : (i + 1) * tile].astype(np.float32) / 255
        want = golden[:, i * tile : (i + 1) * tile].astype(np.float32) / 255
        assert np.abs(got - want).mean() < 0.02, f"value {value} drifted from its golden mask"


@pytest.mark.parametrize("stem, font, style", CASES, ids=[case[0] for case in CASES])
def test_six_and_nine_differ_the_right_way_up(stem, font, style):
    """The mark is what tells 6 from an upside-down 9: without it they would nearly match."""
    _installed(font)
    from vision.synth.outline_glyphs import outline_glyph_mask

    six, nine = outline_glyph_mask(6, style), outline_glyph_mask(9, style)
    turned = np.rot90(nine, 2)
    overlap = np.minimum(six, turned).sum() / np.maximum(six, turned).sum()
    assert overlap < 0.85
    for mask in (six, nine):
        rows = np.flatnonzero(mask.max(axis=1) > 0.5)
        assert rows.size and rows[0] > 2 and rows[-1] < mask.shape[0] - 3  # inside the face


def test_stroke_width_measures_a_bar():
    from vision.synth.outline_glyphs import stroke_width

    mask = np.zeros((300, 300), np.uint8)
    cv2.rectangle(mask, (20, 100), (219, 111), 255, -1)  # 200 x 12 pixels
    assert stroke_width(mask) == pytest.approx(12, rel=0.08)
    assert stroke_width(np.zeros((9, 9), np.uint8)) == 0.0


@pytest.mark.parametrize("weight", [-0.02, -0.04, -0.08])
def test_a_thinned_set_is_never_drawn_thinner_than_a_maker_prints(weight):
    """A set's weight may thin its strokes, but never below MIN_STROKE: a hairline
    numeral vanishes in a 40-pixel crop, and no dice carry one."""
    font = CASES[0][1]
    _installed(font)
    from vision.synth.glyphs import TEXTURE
    from vision.synth.outline_glyphs import MIN_STROKE, OutlineStyle, stroke_width

    regular = OutlineStyle(str(font))
    thinned = OutlineStyle(str(font), weight=weight)
    digit_px = regular.height * TEXTURE
    for value in (1, 4, 8, 10):
        from vision.synth.outline_glyphs import outline_glyph_mask

        plain = stroke_width(outline_glyph_mask(value, regular) * 255) / digit_px
        thin = stroke_width(outline_glyph_mask(value, thinned) * 255) / digit_px
        assert plain > 1.4 * MIN_STROKE  # a regular face is left as it is
        assert MIN_STROKE * 0.8 <= thin < plain, (value, thin)


def test_random_looks_draw_outline_sets_with_inks_near_their_palette_colours():
    font = CASES[0][1]
    _installed(font)
    rng = np.random.default_rng(5)
    spreads = ink_hue_spreads()
    assert spreads["R"] < spreads["G"]  # red and orange lie close: less room to stray
    darks = []
    for _ in range(40):
        look = random_look(rng, random_conditions(rng, (640, 480)), [font])
        assert look.artwork is not None and look.artwork.font == str(font)
        assert look.inks is not None and len(look.inks) == 4
        darks.append(look.body_dark)
    assert 0.2 < np.mean(darks) < 0.8
    assert {dark for *_, dark, _ in BODIES} == {True, False}
    palette = {letter: _hue(tuple(reversed(COLOUR_RGB[letter]))) for letter in COLOUR_LETTERS}
    for dark in (False, True):
        for _ in range(50):
            for letter, ink in zip(COLOUR_LETTERS, random_inks(rng, dark), strict=True):
                off = abs(_hue(ink) - palette[letter]) % 360
                assert min(off, 360 - off) <= spreads[letter] + 2, (letter, ink)


def _saturation(bgr) -> float:
    return float(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 1]) / 255.0


def test_wide_inks_reach_past_the_table_s_only_where_asked():
    """Training's wider inks stray further in hue (green and blue, not red against orange)
    and pale further on dark bodies, still nearer their own colour than any other."""
    table, wide = ink_hue_spreads(TABLE_INKS), ink_hue_spreads(WIDE_INKS)
    assert wide["G"] > table["G"] and wide["B"] > table["B"]
    assert wide["R"] == table["R"] and wide["O"] == table["O"]
    palette = {letter: _hue(tuple(reversed(COLOUR_RGB[letter]))) for letter in COLOUR_LETTERS}
    rng = np.random.default_rng(11)
    palette_green = _saturation(tuple(reversed(COLOUR_RGB["G"])))
    green_offsets, dark_saturations = [], []
    for _ in range(300):
        inks = dict(zip(COLOUR_LETTERS, random_inks(rng, True, WIDE_INKS), strict=True))
        for letter, ink in inks.items():
            off = abs(_hue(ink) - palette[letter]) % 360
            assert min(off, 360 - off) <= wide[letter] + 2, (letter, ink)
        off = abs(_hue(inks["G"]) - palette["G"]) % 360
        green_offsets.append(min(off, 360 - off))
        dark_saturations.append(_saturation(inks["G"]) / palette_green)
    assert max(green_offsets) > table["G"] + 4
    assert min(dark_saturations) < TABLE_INKS.dark_saturation[0] - 0.1


def test_a_mix_without_wide_inks_draws_the_same_sets_as_before():
    font = CASES[0][1]
    _installed(font)
    plain, unwidened = LookMix((str(font),)), LookMix((str(font),), wide_ink_share=0.0)
    widened = LookMix((str(font),), wide_ink_share=1.0)
    base = random_conditions(np.random.default_rng(3), (640, 480))
    looks = [mix.apply(np.random.default_rng(8), base) for mix in (plain, unwidened, widened)]
    assert looks[0] == looks[1]  # evaluations keep drawing the table's inks, draw for draw
    assert looks[2].inks != looks[0].inks


def _hue(bgr) -> int:
    """Hue in degrees (2-degree steps, OpenCV's)."""
    return 2 * int(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 0])


def test_evaluation_groups_keep_training_and_held_out_fonts_apart():
    keys = [group.key for group in EVAL_GROUPS]
    assert keys[:2] == ["held-out-light", "held-out-dark"]
    train = set(font_files(Split.TRAIN, require=False))
    held_out = set(font_files(Split.HELD_OUT, require=False))
    handwritten = set(font_files(Split.HANDWRITTEN, require=False))
    assert not train & held_out and not train & handwritten and not held_out & handwritten
    names = {family.name: family.split for family in FAMILIES}
    assert names["Charis SIL"] is Split.HELD_OUT and names["Noto Serif"] is Split.TRAIN
    assert {"handwritten-light", "handwritten-dark"} <= set(keys)


def test_scripts_and_hands_are_trained_on_and_held_out_apart_from_the_held_out_prints():
    """The held-out figures keep their meaning: no script or hand joins `HELD_OUT`, and the
    hands measured as never seen share no package with the ones trained on."""
    by_split = {split: {f for f in FAMILIES if f.split is split} for split in Split}
    assert not any(f.build in font_library.HANDWRITTEN_BUILDS for f in by_split[Split.HELD_OUT])
    assert {f.build for f in by_split[Split.HANDWRITTEN]} == set(font_library.HANDWRITTEN_BUILDS)
    trained = {f for f in by_split[Split.TRAIN] if f.build in font_library.HANDWRITTEN_BUILDS}
    assert {f.build for f in trained} == set(font_library.HANDWRITTEN_BUILDS)
    assert not {f.package for f in trained} & set(packages(Split.HANDWRITTEN))


def test_every_installed_family_carries_each_face_in_its_own_glyphs():
    """A family whose file lacks a numeral or the W is drawn with the font's empty box for
    it, and would teach the network a face no die shows (a formal script such as ATF Typo
    Script has letters but no figures, so it is not in the table)."""
    ttlib = pytest.importorskip("fontTools.ttLib", reason="fontTools (the train extra) reads cmaps")
    needed = {ord(character) for value in (*range(1, 11), WILD) for character in face_text(value)}
    files = [(family.name, path)
             for family in FAMILIES for path in font_library._family_files(family)]
    if not files:
        pytest.skip("no family of the font table is installed (models/install_fonts.sh)")
    lacking = {}
    for name, path in files:
        with ttlib.TTFont(str(path), fontNumber=0, lazy=True) as font:
            missing = needed - set(font.getBestCmap() or {})
        if missing:
            lacking[f"{name}: {path.name}"] = "".join(sorted(map(chr, missing)))
    assert not lacking, lacking


def test_a_build_filter_keeps_only_those_families_files(tmp_path, monkeypatch):
    for folder, name in (("dancingscript", "DancingScript-Regular.otf"),
                         ("inter", "Inter-Regular.otf")):
        (tmp_path / "opentype" / folder).mkdir(parents=True)
        (tmp_path / "opentype" / folder / name).write_bytes(b"not read here")
    monkeypatch.setattr(font_library, "FONT_ROOTS", (tmp_path,))
    font_library._family_files.cache_clear()
    try:
        every = font_files(Split.TRAIN, require=False)
        hands = font_files(Split.TRAIN, require=False, builds=font_library.HANDWRITTEN_BUILDS)
    finally:
        font_library._family_files.cache_clear()
    assert sorted(path.name for path in every) == ["DancingScript-Regular.otf", "Inter-Regular.otf"]
    assert [path.name for path in hands] == ["DancingScript-Regular.otf"]


def test_a_handwritten_share_draws_those_sets_in_the_hands_and_leaves_the_rest_as_before():
    font = CASES[0][1]
    _installed(font)
    hand = "/fonts/AnyHand-Regular.ttf"
    base = random_conditions(np.random.default_rng(3), (640, 480))
    plain = LookMix((str(font),))
    none = LookMix((str(font),), handwritten=(hand,), handwritten_share=0.0)
    every = LookMix((str(font),), handwritten=(hand,), handwritten_share=1.0)
    looks = [mix.apply(np.random.default_rng(8), base) for mix in (plain, none, every)]
    assert looks[0] == looks[1]  # draw for draw, so earlier runs' crops are drawn again
    assert looks[0].artwork.font == str(font) and looks[2].artwork.font == hand
