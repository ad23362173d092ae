"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from vision.synth import font_library


@pytest.fixture
def no_fonts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A machine with none of the training fonts installed (an empty font folder)."""
    monkeypatch.setattr(font_library, "FONT_ROOTS", (tmp_path / "fonts",))
    font_library._family_files.cache_clear()
    yield
    font_library._family_files.cache_clear()
