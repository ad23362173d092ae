"""Dice the camera found but could not read (issue 13), in a phone-sized headless Chromium:
shown as "?" with a request to fix them, scoring held until they are, and the set-up
page's test reading."""

from __future__ import annotations

import pytest
from fakes import FakeWatcher
from flask import Flask
from test_web_browser_setup import LiveSetupWatcher
from test_web_unreadable import READ, reading_with_unreadable

from vision.camera.camera_contract import RollEvent

pytestmark = pytest.mark.browser


@pytest.fixture
def watcher() -> FakeWatcher:
    return LiveSetupWatcher(reading_with_unreadable())


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    """The scorepad with this file's fake camera (its `watcher`)."""
    return camera_app


def test_the_game_page_asks_the_players_to_fix_an_unreadable_die(app, watcher, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.put("/api/camera/game", json={"game": game_id})
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    watcher.push(RollEvent(reading_with_unreadable(), 1))
    page.wait_for_selector("[data-testid=unreadable-note]")

    unreadable = page.locator("#dice .die.unreadable")
    assert unreadable.count() == 1 and unreadable.inner_text() == "?"
    assert page.locator("#dice .die").count() == 10
    assert "tap the ?" in page.inner_text("[data-testid=unreadable-note]")
    assert "cannot be scored" in page.inner_text("[data-testid=unreadable-note]")
    assert page.inner_text("[data-testid=verdict-headline]").startswith("Without the ? dice")
    assert page.is_disabled("[data-testid=take-score]")

    unreadable.click()
    assert page.inner_text("#fix-preview") == "??"
    assert page.is_disabled("#fix-ok")  # a face needs both a number and a colour
    page.click("#fix-values .value[data-value='3']")
    page.click("#fix-colours .swatch[data-colour='R']")
    page.click("#fix-ok")
    page.wait_for_function(
        f"document.getElementById('game').dataset.roll === '{READ} 3R'")
    assert page.locator("#dice .die.unreadable").count() == 0
    assert page.locator("[data-testid=unreadable-note]").count() == 0
    assert page.inner_text("[data-testid=take-score]") == "Take 34 points"
    page.click("[data-testid=take-score]")
    page.wait_for_function("document.getElementById('game').dataset.version === '2'")


def test_the_set_up_pages_test_reading_shows_an_unreadable_die(app, page):
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#stage[data-ready=yes]")
    page.click("[data-testid=test-read]")
    page.wait_for_selector("[data-testid=test-overlay]:not([hidden])")
    assert "1 of them could not be read (shown as ?)" in page.inner_text(
        "[data-testid=test-message]")
    items = page.locator("#test-dice li")
    assert items.count() == 10
    assert page.locator("#test-dice .die.unreadable").inner_text() == "?"
    assert page.locator("#test-dice li.unreadable").inner_text().endswith("could not be read")


def test_a_roll_read_from_a_soft_picture_asks_the_players_to_focus_the_camera(app, watcher, page):
    """A reading flagged `out-of-focus` (`vision.read.focus`: its dice were sharpened to be
    read) tells the players beside the roll; the next sharp roll does not."""
    from vision.reading import Reading

    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.put("/api/camera/game", json={"game": game_id})
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    sharp = reading_with_unreadable(f"{READ} 3R", unreadable=0)
    soft = Reading(sharp.dice, sharp.frame_size, ("out-of-focus",))
    watcher.push(RollEvent(soft, 1))
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{READ} 3R'")
    source = page.inner_text("[data-testid=roll-source]")
    assert source.startswith("read by the camera") and "out of focus" in source
    watcher.push(RollEvent(Reading(sharp.dice, sharp.frame_size), 2))
    page.wait_for_function(
        "document.getElementById('roll-number').textContent.startsWith('Roll 2')")
    assert page.inner_text("[data-testid=roll-source]") == "read by the camera"
