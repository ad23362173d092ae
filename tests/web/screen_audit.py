"""Checks of a phone-sized page as a player sees it: a screenshot kept beside the test, no
text running out of its box, and no control too small to tap (under 24 px).

The check reads the laid-out page the screenshot shows: every visible control (button,
input, select, summary, link in a sentence excepted) and every element whose text is
wider than its box (scrolling panels, such as the score sheet, are meant to scroll).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The smallest tap target a control may have, each way (WCAG 2.2's minimum).
MIN_TARGET_PX = 24

#: The check, run in the page (a function of the minimum size).
_AUDIT = (Path(__file__).with_name("screen_audit.js")).read_text()


def audit_screen(page: Any, shot: Path) -> dict[str, list[str]]:
    """Screenshot the page to `shot` and list what is too small or runs over."""
    page.screenshot(path=str(shot), full_page=True)
    found: dict[str, list[str]] = page.evaluate(_AUDIT, MIN_TARGET_PX)
    return found


def assert_readable(page: Any, shot: Path) -> None:
    """The page on a phone: nothing overflows, every control is at least 24 px each way."""
    found = audit_screen(page, shot)
    assert found == {"small": [], "overflowing": []}, found
