"""An evening at the table (issue 46), points 9 and 10: the start page (the games first,
what an empty list says, playing again, solitaire apart, a roll-off tie on screen) and
the set-up page (a tappable checkbox, counts in words, a card-game refusal that goes)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from scorepad_helpers import MAKES
from screen_audit import assert_readable

from web.app import close_app, create_app

pytestmark = pytest.mark.browser


@pytest.fixture
def app(request: pytest.FixtureRequest) -> Flask:
    """The scorepad with a fake camera (conftest's `watcher`); the set-up page's test has
    none, so the page loads whole (a camera's live picture never ends loading)."""
    if "set_up_page" in request.node.name:
        return request.getfixturevalue("app_without_camera")
    return request.getfixturevalue("camera_app")


@pytest.fixture
def app_without_camera(config) -> Iterator[Flask]:
    application = create_app(config)
    yield application
    close_app(application)


def test_9_the_games_come_first_and_an_archived_one_is_not_no_games(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    page.goto(page.base_url + "/")
    page.wait_for_function("document.getElementById('games').dataset.live === 'yes'")
    games = page.locator("[data-testid=past-games]").bounding_box()
    form = page.locator("[data-testid=new-game]").bounding_box()
    assert games["y"] < form["y"]  # the list sits above the long form
    page.click(f"[data-testid=archive-{game_id}]")
    page.wait_for_selector("[data-testid=no-games]")
    assert page.inner_text("[data-testid=no-games]") == \
        "No games playing or finished: one is under “Archived games” below."
    page.reload()
    assert "Archived games" in page.inner_text("[data-testid=no-games]")
    assert_readable(page, tmp_path / "home-archived.png")


def test_9_solitaire_is_a_game_of_its_own_without_first_finish_options(app, page, tmp_path):
    page.goto(page.base_url + "/")
    assert page.is_visible("text=First Finish Bonus (+40)")
    page.click("[data-testid=game-solitaire]")
    assert page.is_hidden("text=Who starts?")
    assert page.is_hidden("text=First Finish Bonus (+40)")
    inputs = page.locator("[data-testid=player-input]")
    assert inputs.nth(0).get_attribute("placeholder") == "Your name"
    assert inputs.nth(1).is_hidden()
    assert_readable(page, tmp_path / "home-solitaire.png")
    inputs.nth(0).fill("Ann")
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    state = app.test_client().get("/api/games/1").json
    assert state["solitaire"] is True and state["players"] == ["Ann"]


def test_9_a_finished_game_is_played_again_by_the_same_players(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann"], "solitaire": True}).json["id"]
    for phase in range(1, 11):
        client.post(f"/api/games/{game_id}/score", json={"player": "Ann",
                                                           "roll": MAKES[phase][0]})
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_selector("[data-testid=play-again]", state="visible")
    assert_readable(page, tmp_path / "game-over.png")
    page.click("[data-testid=play-again]")
    page.wait_for_url(f"**/games/{game_id + 1}")
    again = client.get(f"/api/games/{game_id + 1}").json
    assert again["players"] == ["Ann"] and again["solitaire"] is True and not again["is_over"]


def test_9_a_roll_off_tie_is_said_and_its_button_says_throw(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob", "Cy"],
                                              "roll_off": True}).json["id"]
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    page.click("[data-testid=roll-off-Ann-8]")
    page.wait_for_function("document.getElementById('game').dataset.version === '2'")
    assert page.inner_text("[data-testid=undo]") == "Undo the last throw"
    page.click("[data-testid=roll-off-Bob-8]")
    page.wait_for_function("document.getElementById('game').dataset.version === '3'")
    page.click("[data-testid=roll-off-Cy-5]")
    page.wait_for_selector("[data-testid=roll-off-tie]", state="visible")
    assert page.inner_text("[data-testid=roll-off-tie]") == \
        "Tie: Ann and Bob both rolled 8. Roll again, just you two."
    assert page.inner_text("[data-testid=undo]") == "Undo the last throw"
    assert_readable(page, tmp_path / "roll-off-tie.png")


def test_10_the_set_up_page_reads_and_taps_easily(app, page, tmp_path):
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    learn = page.locator("label:has([data-testid=teach-learn])").bounding_box()
    box = page.locator("[data-testid=teach-learn]").bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24 and learn["height"] >= 24
    progress = page.inner_text("[data-testid=teach-progress]")
    assert "die pictures learnt" in progress and "six faces" in progress
    assert "are needed" not in page.inner_text("[data-testid=teach-layout]")
    page.click("[data-testid=teach-learn]")  # the words beside it tick it too
    assert_readable(page, tmp_path / "setup.png")


def test_10_a_card_game_refusal_goes_once_it_no_longer_applies(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"],
                                              "game": "cards"}).json["id"]
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.version === '1'")
    page.click("[data-testid=out-Bob]")
    page.click("[data-testid=hand-save]")
    page.wait_for_function("document.getElementById('hand-error').textContent.length > 0")
    assert "Enter Ann's points" in page.inner_text("[data-testid=hand-error]")
    page.click("[data-testid=add-5-Ann]")
    assert page.inner_text("[data-testid=hand-error]") == ""
    assert_readable(page, tmp_path / "cards.png")
