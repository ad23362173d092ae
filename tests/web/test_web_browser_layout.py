"""The household's dice layout on /setup in a real headless Chromium, phone-sized (issues
15, 47): the confirmed rolls do not fit the printed table, the page proposes the layout
that does, the players agree, and it is saved and used at once, without a restart."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from flask import Flask
from layout_helpers import confirm_rolls
from scorepad_helpers import make_config

from scorer.layout_file import LAYOUT_FILE_NAME
from web.app import close_app, create_app

pytestmark = pytest.mark.browser


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    confirm_rolls(tmp_path / "data")
    application = create_app(make_config(tmp_path))
    yield application
    close_app(application)


def test_the_proposed_layout_is_shown_checked_and_saved(app, page, tmp_path):
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    assert page.inner_text("[data-testid=teach-layout]").startswith("Your dice differ")
    box = page.locator("[data-testid=layout-box]")
    assert box.get_attribute("open") is not None  # opened: there is something to decide
    message = page.inner_text("[data-testid=layout-message]")
    assert "changes 1 face of the table (H1 5R to 5G)" in message
    assert page.locator("[data-testid=layout-printed]").is_disabled()  # it is in use
    assert page.locator("[data-testid=teach-confirm]").is_hidden()  # nothing read to confirm
    editor = page.locator("[data-testid=layout-text]")
    assert "H1: 5G 6O 7B 8G 9O 10G" in editor.input_value()

    editor.fill(editor.input_value().replace("H1: 5G", "H1: 5B"))  # a slip while checking
    page.click("[data-testid=layout-save]")
    page.wait_for_function(
        "document.querySelector('[data-testid=layout-error]').textContent.length > 0")
    assert "cannot be thrown with this layout" in page.inner_text("[data-testid=layout-error]")
    assert not (tmp_path / "data" / LAYOUT_FILE_NAME).exists()

    editor.fill(editor.input_value().replace("H1: 5B", "H1: 5G"))
    page.click("[data-testid=layout-save]")
    page.wait_for_selector("#layout-box[data-in-use=yours]")
    assert page.inner_text("[data-testid=layout-message]") == (
        "The scorepad uses your dice's layout.")
    assert page.inner_text("[data-testid=layout-error]") == ""
    assert page.locator("[data-testid=layout-restart]").count() == 0  # nothing to restart
    saved = json.loads((tmp_path / "data" / LAYOUT_FILE_NAME).read_text())
    assert {"name": "H1", "faces": "5G 6O 7B 8G 9O 10G"} in saved["dice"]
    page.screenshot(path=str(tmp_path / "layout-phone.png"), full_page=True)

    page.click("[data-testid=layout-printed]")  # the confirm dialog is accepted
    page.wait_for_selector("#layout-box[data-in-use=printed]")
    assert not (tmp_path / "data" / LAYOUT_FILE_NAME).exists()


#: Two sets of 3 with two green 5s: the household's dice throw it, the printed table cannot.
MAKES_WITH_TWO_GREEN_FIVES = "5G 5G 5R 9R 9G 9G 1B 4O 2R 3B"
MARKED = "document.querySelectorAll('[data-testid=dice] .die.impossible').length"


def test_saving_the_layout_stops_the_flags_on_a_roll_it_explains_without_a_restart(app, page):
    client = app.test_client()
    game = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json
    client.post(f"/api/games/{game['id']}/roll", json={"roll": MAKES_WITH_TWO_GREEN_FIVES})
    page.goto(f"{page.base_url}/games/{game['id']}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    page.wait_for_function(f"{MARKED} === 2")  # two 5G: the printed table has one

    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    assert "H1: 5G 6O" in page.locator("[data-testid=layout-text]").input_value()
    page.click("[data-testid=layout-save]")
    page.wait_for_selector("#layout-box[data-in-use=yours]")

    page.goto(f"{page.base_url}/games/{game['id']}")  # the same server, never restarted
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    page.wait_for_function(f"{MARKED} === 0")
    state = client.get(f"/api/games/{game['id']}").json["current"]
    assert state["explained"] and not state["needs_confirmation"]
