"""Teaching the dice profile on /setup in a real headless Chromium, phone-sized (issue 15):
read the tray, fix the one die read wrong with a tap, confirm; the profile grows, and the
next reading of that face is right."""

from __future__ import annotations

import pytest
from flask import Flask
from profile_helpers import MISREAD, READ_AS, TRUE_FACE, FrameWatcher, dice_set_scene, truth_of

pytestmark = pytest.mark.browser


@pytest.fixture
def watcher() -> FrameWatcher:
    return FrameWatcher(dice_set_scene(*MISREAD).image)


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    return camera_app


def read_faces(page) -> list[str]:
    page.wait_for_function("document.querySelectorAll('#teach-dice li').length === 10")
    return [item.get_attribute("data-notation")
            for item in page.locator("#teach-dice li").all()]


def test_roll_fix_one_die_confirm_and_the_next_reading_is_right(app, page, tmp_path):
    truth = truth_of(dice_set_scene(*MISREAD))
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    assert page.inner_text("[data-testid=teach-progress]").startswith(
        "0 rolls confirmed · 0 of the 60 faces seen")
    assert page.inner_text("[data-testid=teach-layout]").startswith("Confirm whole rolls")

    page.click("[data-testid=teach-read]")
    first = read_faces(page)
    assert sorted(first) != truth and first.count(READ_AS) == 1
    assert page.locator("#teach-dice img.teach-crop").count() == 10  # each die's picture

    wrong = page.locator(f"#teach-dice li[data-notation='{READ_AS}']")
    wrong.locator(".die").click()  # one tap on the wrong die
    page.wait_for_selector("[data-testid=teach-dialog][open]")
    page.click(f"#teach-values .value[data-value='{TRUE_FACE[:-1]}']")
    page.click(f"#teach-colours .swatch[data-colour='{TRUE_FACE[-1]}']")
    page.click("[data-testid=teach-ok]")
    page.wait_for_selector("#teach-dice li.fixed")
    fixed = page.locator("#teach-dice li.fixed")
    assert fixed.count() == 1 and fixed.get_attribute("data-notation") == TRUE_FACE
    assert sorted(read_faces(page)) == truth
    page.screenshot(path=str(tmp_path / "teach-phone.png"), full_page=True)

    page.click("[data-testid=teach-confirm]")
    page.wait_for_selector("#teach[data-examples='10']")
    assert page.inner_text("[data-testid=teach-progress]").startswith("1 roll confirmed")
    assert page.inner_text("[data-testid=teach-layout]").startswith(
        "1 confirmed roll fits the dice table")
    summary = app.test_client().get("/api/profile").json
    assert summary["examples"] == 10 and summary["rolls_confirmed"] == 1
    assert page.locator(f"#teach-faces li[data-notation='{TRUE_FACE}']").get_attribute(
        "data-count") == str(truth.count(TRUE_FACE))

    page.click("[data-testid=teach-read]")  # the next reading of the same dice
    again = read_faces(page)
    assert sorted(again) == truth and READ_AS not in again
    assert page.locator("#teach-dice li.fixed").count() == 0
