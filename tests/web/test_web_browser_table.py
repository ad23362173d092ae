"""What a family met at a real table (issue 11), in a phone-sized headless Chromium:
the start page keeps the names being typed while the table plays on, the join QR
codes, and the scorepad's own conveniences."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from scorepad_helpers import MAKES, FakeWatcher, RollEvent, open_camera_app, reading_of

from web.app import close_app

pytestmark = pytest.mark.browser


@pytest.fixture
def watcher() -> FakeWatcher:
    return FakeWatcher()


@pytest.fixture
def app(tmp_path, watcher) -> Iterator[Flask]:
    application = open_camera_app(tmp_path, watcher)
    yield application
    close_app(application)


def test_start_page_keeps_typed_names_when_a_game_starts_or_a_camera_roll_arrives(
        app, watcher, page):
    client = app.test_client()
    page.goto(page.base_url + "/")
    page.wait_for_function("document.getElementById('games').dataset.live === 'yes'")
    inputs = page.locator("[data-testid=player-input]")
    inputs.nth(0).fill("Ann")
    inputs.nth(1).fill("Bo")  # half typed
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 200); "
                  "window.notReloaded = true")

    game_id = client.post("/api/games", json={"players": ["Cleo", "Dan"]}).json["id"]
    page.wait_for_function("document.getElementById('games').dataset.count === '1'")
    client.put("/api/camera/game", json={"game": game_id})
    watcher.push(RollEvent(reading_of(MAKES[1][0]), 1))  # a camera roll for that game
    page.wait_for_function("document.querySelector('[data-testid=games]').innerText"
                           ".includes('Cleo, Dan')")
    client.post(f"/api/games/{game_id}/score", json={"player": "Cleo"})
    second = client.post("/api/games", json={"players": ["Eve", "Fay"]}).json["id"]
    page.wait_for_function("document.getElementById('games').dataset.count === '2'")

    assert page.evaluate("window.notReloaded") is True
    assert [inputs.nth(i).input_value() for i in range(2)] == ["Ann", "Bo"]
    # newest first, under "Playing now"
    ids = page.locator("[data-testid=games-playing] li").evaluate_all(
        "items => items.map(li => li.dataset.gameId)")
    assert ids == [str(second), str(game_id)]


def test_the_game_pages_qr_code_opens_the_game_not_the_start_page(app, new_tab):
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    game_id = app.test_client().post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    phone = new_tab()
    phone.goto(f"{phone.base_url}/games/{game_id}")
    phone.click("details.join summary")
    qr = phone.locator("[data-testid=join-qr]")
    qr.evaluate("img => img.complete || new Promise(done => img.onload = done)")
    shot = np.frombuffer(qr.screenshot(), np.uint8)
    image = cv2.resize(cv2.imdecode(shot, cv2.IMREAD_GRAYSCALE), None, fx=3, fy=3,
                       interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text.endswith(f"/games/{game_id}"), text
    assert phone.inner_text("[data-testid=join-address]") == text
    other = new_tab()  # the phone that scanned it lands on the game
    other.goto(phone.base_url + "/games/" + text.rsplit("/games/", 1)[1])
    other.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    assert other.inner_text("[data-testid=status]").startswith("Ann")


def test_the_picker_buttons_are_laid_out_as_a_grid(app, page):
    game_id = app.test_client().post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    page.goto(f"{page.base_url}/games/{game_id}")
    page.click("[data-testid=hand-entry] summary")
    assert page.eval_on_selector("#picker .picker-values",
                                 "e => getComputedStyle(e).display") == "grid"
    tops = page.locator("#picker .picker-values .value").evaluate_all(
        "buttons => buttons.map(b => Math.round(b.getBoundingClientRect().top))")
    assert len(set(tops)) == 2  # 11 faces in rows of six, not one per line
