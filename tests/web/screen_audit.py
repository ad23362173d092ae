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

_AUDIT = """(minimum) => {
  const seen = (node) => {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  const small = [];
  for (const node of document.querySelectorAll("button, input, select, textarea, summary, [role=button]")) {
    if (!seen(node) || node.closest("[hidden], dialog:not([open])")) continue;
    if (node.type === "hidden" || (node.type === "file" && node.hidden)) continue;
    let box = node.getBoundingClientRect();
    if ((node.type === "checkbox" || node.type === "radio") && node.closest("label")) {
      box = node.closest("label").getBoundingClientRect();  /* the label is the tap target */
    }
    if (box.width < minimum || box.height < minimum) {
      small.push(`${node.tagName.toLowerCase()}#${node.id || node.dataset.testid || ""} ` +
                 `${Math.round(box.width)}x${Math.round(box.height)} "${(node.innerText || node.value || "").slice(0, 30)}"`);
    }
  }
  const overflowing = [];
  for (const node of document.body.querySelectorAll("*")) {
    if (!seen(node) || !node.textContent.trim() || node.children.length > 0 && node.tagName === "DIV") continue;
    const style = getComputedStyle(node);
    if (["auto", "scroll"].includes(style.overflowX) || node.closest(".sheet-scroll, dialog:not([open])")) continue;
    if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0 && style.display !== "inline") {
      overflowing.push(`${node.tagName.toLowerCase()}#${node.id || node.dataset.testid || ""} "${node.textContent.trim().slice(0, 40)}"`);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) overflowing.push("the page scrolls sideways");
  return { small, overflowing };
}"""


def audit_screen(page: Any, shot: Path) -> dict[str, list[str]]:
    """Screenshot the page to `shot` and list what is too small or runs over."""
    page.screenshot(path=str(shot), full_page=True)
    found: dict[str, list[str]] = page.evaluate(_AUDIT, MIN_TARGET_PX)
    return found


def assert_readable(page: Any, shot: Path) -> None:
    """The page on a phone: nothing overflows, every control is at least 24 px each way."""
    found = audit_screen(page, shot)
    assert found == {"small": [], "overflowing": []}, found
