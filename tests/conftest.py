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


def _fonts_or_skip(split: font_library.Split) -> tuple[Path, ...]:
    try:
        return font_library.font_files(split)
    except font_library.MissingFontError as error:
        pytest.skip(f"needs the {split.value} fonts: {error}")


@pytest.fixture
def training_fonts() -> tuple[Path, ...]:
    """The training families' files, or a skip naming the packages to install."""
    return _fonts_or_skip(font_library.Split.TRAIN)


@pytest.fixture
def held_out_fonts() -> tuple[Path, ...]:
    """The held-out families' files, or a skip naming the packages to install."""
    return _fonts_or_skip(font_library.Split.HELD_OUT)


#: Errors that mean an optional part is missing (fonts, a training package, a browser):
#: a test that meets one must skip and name what to install, never fail or error.
OPTIONAL_PART_ERRORS: tuple[type[BaseException], ...] = (
    font_library.MissingFontError,
    ModuleNotFoundError,
)

SKIPPED_FILE_VARIABLE = "PHASE10_SKIPPED_FILE"
"""Names a file each skipped test's id is appended to: CI runs the suite on a machine as
the README leaves it, installs the optional parts, then runs again what skipped."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """A test that fails for a missing optional part says so: it should have skipped."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.excinfo is not None and isinstance(
        call.excinfo.value, OPTIONAL_PART_ERRORS
    ):
        report.sections.append((
            "missing optional part",
            f"{item.nodeid} failed for a missing optional part ({call.excinfo.value}); "
            "it must skip naming the package instead (the training_fonts or "
            "held_out_fonts fixture, or pytest.importorskip)",
        ))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Append each skipped test's id to the file PHASE10_SKIPPED_FILE names, if any."""
    path = os.environ.get(SKIPPED_FILE_VARIABLE)
    if path and report.skipped and not hasattr(report, "wasxfail"):
        with open(path, "a", encoding="utf-8") as file:
            file.write(report.nodeid + "\n")


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """A module skipped as a whole counts too (its file is run again)."""
    path = os.environ.get(SKIPPED_FILE_VARIABLE)
    if path and report.skipped and report.nodeid:
        with open(path, "a", encoding="utf-8") as file:
            file.write(report.nodeid + "\n")
