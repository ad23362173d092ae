"""Snap the dice (issue 18), in a phone-sized headless Chromium: a 4000x3000 photo of ten
rendered dice, taken at an angle and stored sideways with an EXIF orientation tag, goes
through the page's "Snap the dice" button; the roll appears on the table with the right
dice, read from a photo, and scoring it works. A photo with no dice says so and leaves
the table alone."""

from __future__ import annotations

import numpy as np
import pytest
from photo_helpers import encode, phone_photo
from scorepad_helpers import MAKES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROLL, SCORE = MAKES[1]  # 2 sets of 3, 34 points


@pytest.fixture(scope="module")
def photo_file(tmp_path_factory):
    """The phone's photo on disk, as the file chooser hands it over."""
    photo = phone_photo(3, roll=ROLL, size=(4000, 3000), tilt=0.07, orientation=6)
    assert len(photo.truth) == 10 and photo.upright.shape == (3000, 4000, 3)
    path = tmp_path_factory.mktemp("phone") / "IMG_0001.jpg"
    path.write_bytes(photo.data)
    return path, photo.truth


def snap(page, path) -> None:
    """Tap "Snap the dice" and hand the phone's file chooser the photo."""
    with page.expect_file_chooser() as chooser:
        page.click("[data-testid=snap]")
    assert chooser.value.element.get_attribute("capture") == "environment"
    chooser.value.set_files(str(path))


def test_a_phone_photo_is_read_onto_the_table_and_scored(client, page, photo_file):
    path, truth = photo_file
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    assert page.inner_text("[data-testid=snap]") == "Snap the dice"

    snap(page, path)
    page.wait_for_function("document.getElementById('game').dataset.roll !== ''", timeout=60_000)
    shown = sorted(page.locator("#dice .die").evaluate_all(
        "dice => dice.map(die => die.dataset.notation)"))
    assert shown == truth
    assert page.inner_text("#roll-source") == "read from a photo"
    assert page.inner_text("[data-testid=roll-number]") == "Roll 1/3"
    assert page.is_visible("[data-testid=photo-overlay]")
    assert page.inner_text("[data-testid=photo-message]").startswith("10 dice found in the photo")
    natural = page.eval_on_selector("[data-testid=photo-overlay]",
                                    "img => [img.naturalWidth, img.naturalHeight]")
    assert natural[0] > natural[1]  # upright: the tray photographed in landscape
    assert page.inner_text("[data-testid=verdict-headline]") == f"Makes Phase 1 for {SCORE} points"

    page.click("[data-testid=take-score]")
    page.wait_for_function("document.getElementById('game').dataset.version === '2'")
    state = client.get(f"/api/games/{game_id}").json
    assert state["scorepad"]["columns"][0]["phase_scores"][0] == SCORE
    assert state["turns"][0]["made"] and sorted(state["turns"][0]["roll"].split()) == truth
    assert state["active_player"] == "Bob"


def test_a_photo_without_dice_says_so_and_leaves_the_table_alone(client, page, tmp_path):
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    typed = client.post(f"/api/games/{game_id}/roll", json={"roll": ROLL}).json
    felt = tmp_path / "felt.jpg"
    felt.write_bytes(encode(np.full((1200, 1600, 3), (60, 110, 35), np.uint8), 6))
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")

    snap(page, felt)
    page.wait_for_function(
        "document.getElementById('photo-status').textContent.startsWith('no dice found')")
    assert page.is_visible("[data-testid=photo-overlay]")
    assert page.inner_text("[data-testid=photo-message]") == "no dice found in the photo"
    assert page.inner_text("#roll-source") == "entered by hand"
    assert client.get(f"/api/games/{game_id}").json["roll_id"] == typed["roll_id"]
