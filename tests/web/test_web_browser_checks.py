"""Checks before anything is lost or mis-scored, in a phone-sized headless Chromium: the
list of games (archive with Undo, delete after a confirmation, paging), dice to check
before scoring (issue 11), and a correction previewed before it is confirmed (issue 16)."""

from __future__ import annotations

import pytest
from flask import Flask
from scorepad_helpers import MAKES, NEVER, reading_of

from vision.camera.camera_contract import RollEvent

pytestmark = pytest.mark.browser

#: Makes phase 1, but the ten dice have one 5G: the two 5G cannot show together.
TWO_5G = "8R 8B 8G 10O 5G 5G WR WB 1G 3R"


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    """The scorepad with a fake camera (conftest's `watcher`)."""
    return camera_app


def listed(page, group: str) -> list[int]:
    return [int(i) for i in page.locator(f"[data-testid=games-{group}] li").evaluate_all(
        "items => items.map(li => li.dataset.gameId)")]


def test_archive_with_undo_and_delete_after_a_confirmation(app, new_tab):
    client = app.test_client()
    games = [client.post("/api/games", json={"players": [f"A{i}", f"B{i}"]}).json["id"]
             for i in range(12)]
    page = new_tab(320, 640)  # the narrowest phone
    page.goto(page.base_url + "/")
    page.wait_for_function("document.getElementById('games').dataset.live === 'yes'")
    assert listed(page, "playing") == games[::-1][:10]  # newest first, a page of 10
    page.click("[data-testid=more-playing]")
    page.wait_for_function("document.querySelectorAll('[data-testid=games-playing] li')"
                           ".length === 12")
    assert listed(page, "playing") == games[::-1]

    # archive: gone from the list at once, with an Undo that brings it back
    newest = games[-1]
    page.click(f"[data-testid=archive-{newest}]")
    page.wait_for_selector("[data-testid=games-toast]", state="visible")
    assert f"Game {newest}" in page.inner_text("[data-testid=games-toast]")
    page.wait_for_function(f"!document.querySelector('[data-game-id=\"{newest}\"]')")
    assert client.get("/api/games?archived=1").json["games"][0]["id"] == newest
    page.click("[data-testid=games-undo]")
    page.wait_for_function(f"!!document.querySelector('#games [data-game-id=\"{newest}\"]')")
    assert client.get("/api/games?archived=1").json["total"] == 0

    # archived again, it is listed under "Archived games" and restored from there
    page.click(f"[data-testid=archive-{newest}]")
    page.wait_for_function(f"!document.querySelector('#games [data-game-id=\"{newest}\"]')")
    page.click("[data-testid=archived-games] summary")
    page.wait_for_selector(f"[data-testid=restore-{newest}]")
    page.click(f"[data-testid=restore-{newest}]")
    page.wait_for_function(f"!!document.querySelector('#games [data-game-id=\"{newest}\"]')")

    # delete: the dialog names the game; "Keep it" keeps it, "Delete for good" deletes it
    doomed = games[3]
    page.click(f"[data-testid=delete-{doomed}]")
    dialog = page.locator("[data-testid=delete-dialog]")
    assert dialog.is_visible()
    assert f"Game {doomed} (A3, B3" in page.inner_text("[data-testid=delete-what]")
    page.click("[data-testid=delete-cancel]")
    assert not dialog.is_visible()
    assert client.get(f"/api/games/{doomed}").status_code == 200
    page.click(f"[data-testid=delete-{doomed}]")
    page.click("[data-testid=delete-confirm]")
    page.wait_for_function(f"!document.querySelector('[data-game-id=\"{doomed}\"]')")
    assert client.get(f"/api/games/{doomed}").status_code == 404
    assert "deleted" in page.inner_text("[data-testid=games-toast]")
    assert sorted(g["id"] for g in client.get("/api/games").json["games"]) == \
        [g for g in games if g != doomed]  # every other game is still there


def test_a_phone_showing_a_deleted_game_is_told(app, new_tab):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    phone = new_tab()
    phone.goto(f"{phone.base_url}/games/{game_id}")
    phone.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    client.delete(f"/api/games/{game_id}")
    phone.wait_for_selector("[data-testid=deleted]", state="visible")
    assert "deleted" in phone.inner_text("[data-testid=deleted]")
    assert phone.evaluate("document.getElementById('turn-area').inert") is True


def assert_takes_without_a_check(page, points: int):
    """The page asks no check and offers to take `points`; its Take button."""
    assert page.locator("[data-testid=confirm-box]").is_hidden()
    take = page.locator("[data-testid=take-score]")
    assert take.inner_text() == f"Take {points} points" and take.is_enabled()
    return take


def camera_roll_on_page(app, watcher, page, reading) -> tuple:
    """A new game on the camera, its page open and live, and `reading` (of MAKES[1]) put on
    the table by the camera: (the app's client, the game's id)."""
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.put("/api/camera/game", json={"game": game_id})
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    watcher.push(RollEvent(reading, 1))
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{MAKES[1][0]}'")
    return client, game_id


def test_unsure_dice_are_marked_and_scoring_waits_for_the_check(app, watcher, page):
    client, game_id = camera_roll_on_page(app, watcher, page,
                                          reading_of(MAKES[1][0], unsure=(2,)))

    unsure = page.locator("[data-testid=dice] .die.unsure")
    assert unsure.count() == 1 and unsure.get_attribute("data-index") == "2"
    assert unsure.locator(".unsure-mark").inner_text() == "?"
    assert "unsure of one die" in page.inner_text("[data-testid=confirm-text]")
    take = page.locator("[data-testid=take-score]")
    assert take.inner_text() == "Take 34 points" and take.is_disabled()
    page.check("[data-testid=confirm-dice]")
    assert take.is_enabled()
    page.uncheck("[data-testid=confirm-dice]")
    assert take.is_disabled()

    # tapping the die and keeping its face makes it sure: no check needed any more
    unsure.click()
    page.click("#die-dialog #fix-ok")
    page.wait_for_function("!document.querySelector('[data-testid=dice] .die.unsure')")
    # the live stream may show the fixed die before the fix's own reply is in: a tap on
    # Take made meanwhile is not sent (one request at a time), so wait as a player would
    page.wait_for_function("document.getElementById('game').dataset.busy !== 'yes'")
    assert page.locator("[data-testid=confirm-box]").is_hidden()
    take.click()
    page.wait_for_function("document.getElementById('game').dataset.version === '2'")
    assert client.get(f"/api/games/{game_id}").json["turns"][0]["score"] == MAKES[1][1]


def test_a_die_in_doubt_of_its_colour_alone_is_marked_but_phase_1_scores_without_a_check(
        app, watcher, page):
    client, game_id = camera_roll_on_page(app, watcher, page,
                                          reading_of(MAKES[1][0], colour_doubt=(5,)))

    doubted = page.locator("[data-testid=dice] .die.colour-doubt")
    assert doubted.count() == 1 and doubted.get_attribute("data-index") == "5"
    assert doubted.locator(".unsure-mark").inner_text() == "?"
    assert "unsure of its colour" in doubted.get_attribute("aria-label")
    note = page.inner_text("[data-testid=settled-note]")
    assert "unsure of the colour of one die" in note and "Phase 1" in note
    take = assert_takes_without_a_check(page, 34)
    take.click()
    page.wait_for_function("document.getElementById('game').dataset.version === '2'")
    assert client.get(f"/api/games/{game_id}").json["turns"][0]["score"] == MAKES[1][1]


def test_a_number_in_doubt_between_faces_that_score_alike_is_named_and_needs_no_check(
        app, watcher, page):
    # die 6 (7R) read as 7 where a 9 is likely too: neither joins a set of phase 1
    camera_roll_on_page(
        app, watcher, page, reading_of(MAKES[1][0], unsure=(5,), value_doubt=(5,),
                                       likely={5: "9R"}))
    settled = page.locator("[data-testid=dice] .die.settled")
    assert settled.count() == 1 and settled.get_attribute("data-index") == "5"
    note = page.inner_text("[data-testid=settled-note]")
    assert "It shows 7 or 9: either way, the roll makes Phase 1 for 34 points" in note
    assert_takes_without_a_check(page, 34)


def test_a_settled_die_with_many_likely_faces_is_not_listed(app, watcher, page):
    # 7R as 9, 6, 5 (5,5,W scores as 10,W,W does), or a low face no ten dice show with it
    camera_roll_on_page(app, watcher, page, reading_of(
        MAKES[1][0], unsure=(5,), value_doubt=(5,), likely={5: "9R 6R 5R 1R 2R"}))
    note = page.inner_text("[data-testid=settled-note]")
    assert "Whatever it most likely shows, the roll makes Phase 1 for 34 points" in note


def test_tapping_a_doubted_die_offers_the_faces_the_camera_found_likely(app, watcher, page):
    # die 6 (7R) read as 7 where a 10 is likely too: as a 10 the roll scores 44, not 34
    client, game_id = camera_roll_on_page(
        app, watcher, page, reading_of(MAKES[1][0], unsure=(5,), value_doubt=(5,),
                                       likely={5: "10R 10O"}))
    assert ("unsure of one die (marked ?), read as 7 red but maybe 10 red or 10 orange"
            in page.inner_text("[data-testid=confirm-text]"))
    page.locator("[data-testid=dice] .die[data-index='5']").click()
    offered = page.locator("[data-testid=fix-might-be] button")
    assert [offered.nth(i).inner_text() for i in range(offered.count())] == ["10R", "10O"]
    offered.first.click()
    assert page.inner_text("#fix-preview") == "10R"
    page.click("#die-dialog #fix-ok")
    page.wait_for_function("!document.querySelector('[data-testid=dice] .die.unsure')")
    assert client.get(f"/api/games/{game_id}").json["current"]["notation"].split()[5] == "10R"
    # a die the camera could not tell the faces of offers none
    page.locator("[data-testid=dice] .die[data-index='0']").click()
    assert page.locator("[data-testid=fix-might-be]").is_hidden()


def test_in_phase_8_a_colour_doubt_that_cannot_change_the_score_is_explained(
        app, watcher, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann"], "solitaire": True}).json["id"]
    for phase in range(1, 8):
        client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[phase][0]})
        assert client.post(f"/api/games/{game_id}/score", json={"player": "Ann"}).status_code == 200
    client.put("/api/camera/game", json={"game": game_id})
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    # die 1 is a Wild beside seven natural orange dice: whatever its colour, 56 points
    watcher.push(RollEvent(reading_of(MAKES[8][0], colour_doubt=(0,)), 1))
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{MAKES[8][0]}'")

    doubted = page.locator("[data-testid=dice] .die.colour-doubt")
    assert doubted.count() == 1 and doubted.get_attribute("data-index") == "0"
    note = page.inner_text("[data-testid=settled-note]")
    assert "Whatever its colour, the roll makes Phase 8 for 56 points" in note
    assert_takes_without_a_check(page, 56)


def test_faces_the_dice_cannot_show_together_are_marked_and_confirmed(app, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    page.fill("[data-testid=notation-input]", TWO_5G)
    page.click("[data-testid=notation-submit]")
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{TWO_5G}'")

    marked = page.locator("[data-testid=dice] .die.impossible")
    assert marked.evaluate_all("dice => dice.map(d => d.dataset.index)") == ["4", "5"]
    assert marked.first.locator(".impossible-mark").inner_text() == "!"
    assert "cannot show with the others" in marked.first.get_attribute("aria-label")
    assert "cannot show these 2 faces together" in page.inner_text("[data-testid=confirm-text]")
    take = page.locator("[data-testid=take-score]")
    assert take.is_disabled()
    page.check("[data-testid=confirm-dice]")
    # a new roll on the table needs a new check
    client.put(f"/api/games/{game_id}/roll", json={"roll": TWO_5G})
    page.wait_for_function("!document.getElementById('confirm-dice').checked")
    assert take.is_disabled()
    page.check("[data-testid=confirm-dice]")
    take.click()
    page.wait_for_function("document.getElementById('game').dataset.version === '2'")
    turn = client.get(f"/api/games/{game_id}").json["turns"][0]
    assert turn["made"] is True and turn["roll"] == TWO_5G


def test_a_correction_says_which_later_turns_change_before_it_is_confirmed(app, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    for player, roll, action in (("Ann", NEVER, "fail"), ("Bob", MAKES[1][0], "score"),
                                 ("Ann", MAKES[1][0], "score"), ("Bob", NEVER, "fail"),
                                 ("Ann", NEVER, "fail")):
        client.post(f"/api/games/{game_id}/{action}", json={"player": player, "roll": roll})
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    before = client.get(f"/api/games/{game_id}").json

    page.click("td[data-player=Ann][data-row=phase-1]")
    page.click("[data-testid=correct-turn-0]")
    page.fill("[data-testid=turn-roll]", MAKES[1][0])
    page.check("[data-testid=turn-made]")
    assert page.locator("[data-testid=turn-confirm]").is_hidden()
    page.click("[data-testid=turn-save]")
    preview = page.locator("[data-testid=turn-preview]")
    preview.wait_for(state="visible")
    text = preview.inner_text()
    assert "2 later turns change" in text
    assert page.inner_text("[data-testid=preview-turn-2]") == \
        "Ann, round 2: Phase 1, made, 34 points → Phase 2, made, 41 points"
    assert page.inner_text("[data-testid=preview-turn-4]") == \
        "Ann, round 3: Phase 2, no score → Phase 3, no score"
    assert "Ann 34 → 75" in text
    assert client.get(f"/api/games/{game_id}").json == before  # nothing changed yet

    # changing the correction forgets the preview: it is checked again before confirming
    page.check("[data-testid=turn-missed]")
    assert preview.is_hidden() and page.locator("[data-testid=turn-confirm]").is_hidden()
    page.check("[data-testid=turn-made]")
    page.click("[data-testid=turn-save]")
    page.click("[data-testid=turn-confirm]")
    page.wait_for_function(f"document.getElementById('game').dataset.version === "
                           f"'{before['version'] + 1}'")
    assert not page.locator("[data-testid=turn-dialog]").is_visible()
    after = client.get(f"/api/games/{game_id}").json
    assert [t["phase"] for t in after["turns"]] == [1, 1, 2, 2, 3]
    assert page.inner_text("td[data-player=Ann][data-row=phase-2]") == "41"
