"""Fonts cut for a training machine draw exactly as the installed ones (models/cut_fonts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.synth.font_library import FONT_ROOTS, Split, font_files


def _a_training_font() -> Path:
    files = font_files(Split.TRAIN, require=False)
    if not files:
        pytest.skip("no training font installed (models/install_fonts.sh)")
    return max(files, key=lambda path: path.stat().st_size)  # the most glyphs to cut


def test_a_cut_font_is_small_keeps_its_place_and_draws_as_the_full_one(tmp_path):
    pytest.importorskip("fontTools")
    pytest.importorskip("PIL")
    from models.cut_fonts import cut_font, relative_to_root

    source = _a_training_font()
    relative = relative_to_root(source)
    assert not relative.is_absolute() and any((root / relative) == source for root in FONT_ROOTS)
    size = cut_font(source, tmp_path / relative)  # raises CutFontError if it draws otherwise
    assert (tmp_path / relative).is_file()
    from fontTools.ttLib import TTFont

    from models.cut_fonts import KEPT_CHARACTERS

    with TTFont(source, fontNumber=0, lazy=True) as font:
        beyond = set(font.getBestCmap()) - set(KEPT_CHARACTERS)
    # A font already cut (a training machine's PHASE10_FONT_ROOTS) has nothing left to drop.
    assert size < source.stat().st_size if beyond else size <= source.stat().st_size


def test_a_font_that_would_draw_otherwise_is_refused(tmp_path, monkeypatch):
    pytest.importorskip("fontTools")
    pytest.importorskip("PIL")
    from models import cut_fonts

    monkeypatch.setattr(cut_fonts, "KEPT_CHARACTERS", range(0x41, 0x5B))  # letters: no digits
    with pytest.raises(cut_fonts.CutFontError, match="drawn from the cut file differs"):
        cut_fonts.cut_font(_a_training_font(), tmp_path / "cut.otf")


def test_a_path_outside_every_font_root_is_refused(tmp_path):
    from models.cut_fonts import relative_to_root

    with pytest.raises(ValueError, match="none of the font roots"):
        relative_to_root(tmp_path / "stray.ttf")
