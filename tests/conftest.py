"""Fixtures shared by every test folder, and the Hypothesis profiles.

Profiles: "ci" (the default: `make test`, CI) runs each property test as often as
it asks; "dev" (`make check`) a tenth as often, with no deadline; "thorough" ten
times as often, with no deadline (a hunt for rare failures, run by hand). The
HYPOTHESIS_PROFILE environment variable or pytest's `--hypothesis-profile` picks
one (the option wins). A test that names its own count of examples takes it
from `property_budget.examples`, so that it keeps its share under each profile.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from property_budget import CI_EXAMPLES

from vision.synth import font_library

settings.register_profile("ci", max_examples=CI_EXAMPLES, print_blob=True)
settings.register_profile("dev", max_examples=CI_EXAMPLES // 10, deadline=None)
settings.register_profile("thorough", max_examples=CI_EXAMPLES * 10, deadline=None,
                          print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def no_fonts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A machine with none of the training fonts installed (an empty font folder)."""
    monkeypatch.setattr(font_library, "FONT_ROOTS", (tmp_path / "fonts",))
    font_library._family_files.cache_clear()
    yield
    font_library._family_files.cache_clear()
