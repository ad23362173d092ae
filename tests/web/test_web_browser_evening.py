"""An evening at the table (issue 46), replayed in a phone-sized headless Chromium: each of
the problems met that night, step by step as a player met it, no longer shows; each
screen is photographed and checked for text running over and controls under 24 px."""

from __future__ import annotations

import pytest
from flask import Flask
from scorepad_helpers import MAKES, NEVER
from screen_audit import assert_readable

pytestmark = pytest.mark.browser

#: Faces the ten dice cannot show together (two 5G) that make no phase 1.
IMPOSSIBLE_MISS = "8R 8B 5G 10O 5G 7R 2R 1B 1G 3R"


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    """The scorepad with a fake camera (conftest's `watcher`)."""
    return camera_app


def open_game(page, game_id: int) -> None:
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")


def type_roll(page, roll: str) -> None:
    page.fill("[data-testid=notation-input]", roll)
    page.click("[data-testid=notation-submit]")


def test_1_the_hint_gives_no_points_to_dice_the_phase_does_not_use(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann"], "solitaire": True}).json["id"]
    open_game(page, game_id)
    type_roll(page, MAKES[1][0])
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{MAKES[1][0]}'")
    page.click("#hint summary")
    page.wait_for_function("document.querySelector('[data-testid=hint]').textContent"
                           ".startsWith('Keep')")
    text = page.inner_text("[data-testid=hint]")
    assert text.startswith("Keep the three 8s, the 10 and the two Wilds for 2 sets of 3, and "
                           "re-roll the other 4 dice")
    assert "for their points" not in text and "the 3" not in text and "the 1 " not in text
    assert_readable(page, tmp_path / "hint.png")


def test_2_dice_marked_with_an_exclamation_mark_are_explained(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    open_game(page, game_id)
    type_roll(page, IMPOSSIBLE_MISS)
    page.wait_for_function(
        f"document.getElementById('game').dataset.roll === '{IMPOSSIBLE_MISS}'")
    assert page.locator("[data-testid=dice] .impossible-mark").count() >= 1
    assert page.inner_text("[data-testid=verdict-headline]") == "Does not make Phase 1"
    box = page.locator("[data-testid=confirm-box]")
    assert box.is_visible()
    text = page.inner_text("[data-testid=confirm-text]")
    assert "cannot show" in text and "(marked !)" in text and "probably read wrong" in text
    assert "Tap a marked die to say what it really shows." in text
    assert page.locator("[data-testid=confirm-dice]").is_hidden()  # nothing to score yet
    assert_readable(page, tmp_path / "marked.png")


def test_3_the_correction_dialog_reads_plainly(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    for player, roll, action in (("Ann", "6O 5O WO 7R 8R 9B 10G 1G 2B 3R", "fail"),
                                 ("Bob", MAKES[1][0], "score"),
                                 ("Ann", MAKES[1][0], "score")):
        client.post(f"/api/games/{game_id}/{action}", json={"player": player, "roll": roll})
    open_game(page, game_id)
    page.click("td[data-player=Ann][data-row=phase-1]")
    dice = page.locator("[data-testid=turn-list] .mini-die")
    assert dice.count() == 20  # two turns on Phase 1, ten dice each, drawn as dice
    first = dice.first
    assert first.locator("b").inner_text() == "6" and first.locator("small").inner_text() == "O"
    assert "monospace" not in first.evaluate("d => getComputedStyle(d).fontFamily")
    page.click("[data-testid=correct-turn-0]")
    page.fill("[data-testid=turn-roll]", MAKES[1][0])
    page.check("[data-testid=turn-made]")
    for testid in ("turn-made", "turn-missed"):  # each radio right beside its words
        radio = page.locator(f"[data-testid={testid}]").bounding_box()
        label = page.locator(f"label:has([data-testid={testid}])").bounding_box()
        assert radio["width"] < 40 and radio["x"] - label["x"] < 10
    page.click("[data-testid=turn-save]")
    preview = page.locator("[data-testid=turn-preview]")
    preview.wait_for(state="visible")
    assert "null" not in preview.inner_text() and "undefined" not in preview.inner_text()
    assert_readable(page, tmp_path / "correction.png")


def test_5_refusals_are_in_plain_words_and_said_once(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    two = page
    open_game(two, game_id)
    # a phone a step behind is told what happened, not "(version 2, you sent 1)"
    client.post(f"/api/games/{game_id}/fail", json={"player": "Ann"})
    stale = client.post(f"/api/games/{game_id}/fail", json={"player": "Bob", "version": 1})
    assert stale.json["error"].startswith("the game moved on on another phone")
    assert "version" not in stale.json["error"]
    # typed nothing: what to type, not "field 'roll' has no dice"
    two.click("[data-testid=notation-submit]")
    two.wait_for_function("document.getElementById('entry-error').textContent.length > 0")
    error = two.inner_text("[data-testid=entry-error]")
    assert error.startswith("Type the roll first: all ten dice, like 8R")
    assert "field" not in error
    # a photo that is no picture: said once, under the photo
    two.set_input_files("[data-testid=photo-input]", files=[
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not a photo at all"}])
    two.wait_for_function(  # the refusal, not "Reading the photo…" while it is sent
        "(() => { const t = document.getElementById('photo-status').textContent;"
        " return t.length > 0 && !t.startsWith('Reading the photo'); })()")
    said = two.inner_text("[data-testid=photo-status]")
    assert two.evaluate("(text) => [...document.querySelectorAll('#game p')]"
                        ".filter((p) => p.innerText.includes(text)).length", said[:20]) == 1
    assert_readable(two, tmp_path / "refusal.png")


def test_6_a_half_typed_roll_is_a_slip_not_a_roll(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann"], "solitaire": True}).json["id"]
    open_game(page, game_id)
    type_roll(page, "8R 8B")
    page.wait_for_function("document.getElementById('entry-error').textContent.length > 0")
    assert page.inner_text("[data-testid=entry-error]") == (
        "That is 2 dice, and a roll has all ten: add the other 8, then tap again "
        "(nothing was used up)")
    assert page.inner_text("[data-testid=roll-number]") == "No roll yet"
    assert client.get(f"/api/games/{game_id}").json["current"] is None
    assert page.input_value("[data-testid=notation-input]") == "8R 8B"  # kept to finish
    assert_readable(page, tmp_path / "half-typed.png")


def test_7_offline_buttons_look_off(app, live_server, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]})
    open_game(page, game_id)
    take = page.locator("[data-testid=take-score]")
    assert take.inner_text() == "Take 34 points" and take.is_enabled()
    app.extensions["phase10"].hub.close()  # the scorepad stops
    live_server.server.shutdown()
    live_server.server.server_close()
    page.wait_for_selector("[data-testid=offline]", state="visible")
    shown = take.evaluate("""b => { let o = 1; for (let n = b; n; n = n.parentElement)
        o *= Number(getComputedStyle(n).opacity); return o; }""")
    assert shown <= 0.5  # dimmed with the rest of the turn's controls
    assert take.evaluate("b => getComputedStyle(b.closest('#turn-area')).pointerEvents") == "none"
    page.screenshot(path=str(tmp_path / "offline.png"), full_page=True)


def test_8_undo_says_what_it_undid(app, page, tmp_path):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.post(f"/api/games/{game_id}/fail", json={"player": "Ann", "roll": NEVER})
    client.post(f"/api/games/{game_id}/fail", json={"player": "Bob", "roll": NEVER})
    client.post(f"/api/games/{game_id}/correct",
                json={"turn": 0, "roll": MAKES[1][0], "made": True})
    open_game(page, game_id)
    undo = page.locator("[data-testid=undo]")
    assert undo.inner_text() == "Undo the correction"
    assert undo.get_attribute("title") == "Undo the correction of Ann's turn in round 1"
    undo.click()  # the confirm dialog ("Undo the correction of Ann's ...?") is accepted
    page.wait_for_selector("[data-testid=undone]", state="visible")
    assert page.inner_text("[data-testid=undone]") == \
        "Undone: the correction of Ann's turn in round 1."
    assert page.inner_text("td[data-player=Ann][data-row=phase-1]") == ""
    assert undo.inner_text() == "Undo last turn"
    assert undo.get_attribute("title") == "Undo Bob's turn on Phase 1 (no score)"
    assert_readable(page, tmp_path / "undone.png")
