"""Two phones in a real headless Chromium: a camera reading shows up live on both, one tap
on an unsure die corrects it everywhere, and a roll-off is settled by taps."""

from __future__ import annotations

import pytest
from flask import Flask
from scorepad_helpers import reading_of

from vision.camera.camera_contract import RollEvent

pytestmark = pytest.mark.browser


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    """The scorepad with a fake camera (conftest's `watcher`)."""
    return camera_app


def roll_shown(tab, notation: str) -> None:
    tab.wait_for_function(f"document.getElementById('game').dataset.roll === '{notation}'")


def test_camera_reading_reaches_both_phones_and_a_tap_corrects_a_die(app, watcher, new_tab):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    first, second = new_tab(), new_tab(1280, 800)
    for tab in (first, second):
        tab.goto(f"{tab.base_url}/games/{game_id}")
        tab.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
        assert tab.get_attribute("[data-testid=hand-entry]", "open") is not None

    first.check("[data-testid=use-camera]")  # one phone chooses this game for the camera
    for tab in (first, second):
        tab.wait_for_function("document.getElementById('use-camera').checked")
        tab.wait_for_function("!document.getElementById('hand-entry').open")
    turns_before = watcher.new_turns
    watcher.push(RollEvent(reading_of("8R 8B 6G 10O 10G 7R WR 2B 1G 3R", unsure=(2,)), 2))
    for tab in (first, second):
        roll_shown(tab, "8R 8B 6G 10O 10G 7R WR 2B 1G 3R")
        assert tab.inner_text("[data-testid=roll-number]") == "Roll 2/3"
        assert tab.locator(".die.unsure").count() == 1
        assert tab.inner_text("[data-testid=verdict-headline]") == "Does not make Phase 1"
        assert tab.locator(".die .letter").all_inner_texts()[:4] == ["R", "B", "G", "O"]

    first.click(".die[data-index='2']")
    first.click("#fix-values .value[data-value='8']")
    first.click("#fix-colours .swatch[data-colour='G']")
    first.click("#fix-ok")
    for tab in (first, second):
        roll_shown(tab, "8R 8B 8G 10O 10G 7R WR 2B 1G 3R")
        assert tab.locator(".die.unsure").count() == 0
        assert tab.inner_text("[data-testid=verdict-headline]") == "Makes Phase 1 for 44 points"
        wild = tab.locator(".die.wild")
        assert "=10" in wild.inner_text() and "used" in (wild.get_attribute("class") or "")

    # 8R 8B 8G 10O 10G cannot all show at once: marked "!", scored once checked
    assert second.locator(".die.impossible").count() == 5
    assert second.is_disabled("[data-testid=take-score]")
    second.check("[data-testid=confirm-dice]")
    second.click("[data-testid=take-score]")
    for tab in (first, second):
        tab.wait_for_function("document.getElementById('game').dataset.version === '2'")
        assert tab.inner_text("td[data-player='Ann'][data-row='phase-1']") == "44"
    assert watcher.new_turns == turns_before + 1
    assert first.get_attribute("[data-testid=camera-link]", "href") == "/camera/"


def test_roll_off_by_taps_sets_the_play_order(new_tab, app):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"], "roll_off": True}
                          ).json["id"]
    tab = new_tab()
    tab.goto(f"{tab.base_url}/games/{game_id}")
    assert tab.is_visible("[data-testid=roll-off]")
    tab.click("[data-testid=roll-off-Ann-6]")
    tab.wait_for_function("document.getElementById('game').dataset.version === '2'")
    tab.click("[data-testid=roll-off-Bob-9]")
    tab.wait_for_function("document.getElementById('game').dataset.version === '3'")
    assert tab.is_hidden("[data-testid=roll-off]")
    assert tab.inner_text("[data-testid=status]").startswith("Bob")
    assert tab.inner_text("thead th.active") == "Bob"
    throws = tab.inner_text("[data-testid=roll-off-throws]")
    assert throws == "Roll-off: Ann 6 · Bob 9 → play order Bob, Ann"
