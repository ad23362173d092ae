"""What a family met at a real table (issue 11), in a phone-sized headless Chromium:
the start page keeps the names being typed while the table plays on, the join QR
codes, and the scorepad's own conveniences."""

from __future__ import annotations

import time

import pytest
from flask import Flask
from scorepad_helpers import MAKES, NEVER, reading_of

from vision.camera.camera_contract import RollEvent

pytestmark = pytest.mark.browser


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    """The scorepad with a fake camera (conftest's `watcher`)."""
    return camera_app


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
    text = ""
    for _ in range(60):  # a busy machine may still be laying out the opened details
        shot = cv2.imdecode(np.frombuffer(qr.screenshot(), np.uint8), cv2.IMREAD_GRAYSCALE)
        # OpenCV's detector misses some codes at one scale and reads them at another (the
        # code changes with the server's port): the picture as shot, with a white margin,
        # then enlarged three times
        framed = cv2.copyMakeBorder(shot, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
        for image in (shot, framed, cv2.resize(framed, None, fx=3, fy=3,
                                               interpolation=cv2.INTER_NEAREST)):
            text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
            if text:
                break
        if text:
            break
        phone.wait_for_timeout(250)
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


def play_until(client, game_id: int, done, makes=("Bob",)) -> dict:
    """Play turns through the API: the players in `makes` make their phase, the others miss."""
    state = client.get(f"/api/games/{game_id}").json
    while not done(state):
        player, phase = state["active_player"], state["active_phase"]["number"]
        if player in makes:
            reply = client.post(f"/api/games/{game_id}/score",
                                json={"player": player, "roll": MAKES[phase][0]})
        else:
            reply = client.post(f"/api/games/{game_id}/fail",
                                json={"player": player, "roll": NEVER})
        assert reply.status_code == 200, reply.json
        state = reply.json
    return state


def finished(state: dict) -> list[str]:
    return [c["player"] for c in state["scorepad"]["columns"] if c["finished"]]


def test_end_turn_without_a_score_asks_first_when_the_phase_is_made(app, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    asked: list[str] = []
    page.on("dialog", lambda dialog: asked.append(dialog.message))  # the fixture accepts it
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    take, fail = page.locator("[data-testid=take-score]"), page.locator("[data-testid=fail-turn]")
    # visually apart: another look, and space between them
    looks = [b.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]")
             for b in (take, fail)]
    assert looks[0] != looks[1]
    assert fail.bounding_box()["y"] >= take.bounding_box()["y"] + take.bounding_box()["height"] + 8

    client.post(f"/api/games/{game_id}/roll", json={"roll": NEVER})
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{NEVER}'")
    fail.click()  # nothing to lose: no question
    page.wait_for_function("document.getElementById('game').dataset.version === '2'")
    assert asked == []

    client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]})
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{MAKES[1][0]}'")
    fail.click()
    page.wait_for_function("document.getElementById('game').dataset.version === '3'")
    assert len(asked) == 1 and "makes Phase 1 for 34 points" in asked[0]
    assert "End Bob's turn without a score" in asked[0]


def test_a_late_reply_does_not_take_back_a_roll_put_on_the_table_meanwhile(app, page):
    """The reply to ending a turn lands after the next roll reached the page by the live
    stream: the page keeps the newer roll (the stream brings every change)."""
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    client.post(f"/api/games/{game_id}/roll", json={"roll": NEVER})
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{NEVER}'")

    def late_reply(route) -> None:
        reply = route.fetch()  # the turn ends on the server, and the stream says so
        client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]})
        time.sleep(0.5)  # the page takes both states from the stream meanwhile
        route.fulfill(response=reply)

    page.route(f"**/api/games/{game_id}/fail", late_reply)
    page.locator("[data-testid=fail-turn]").click()
    page.wait_for_function("document.getElementById('game').dataset.busy === 'no'")
    assert page.evaluate("document.getElementById('game').dataset.roll") == MAKES[1][0]
    assert page.evaluate("document.getElementById('game').dataset.version") == "2"


def test_end_game_banner_after_the_first_finish_names_who_plays_on_and_who_is_out(app, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob", "Cleo"]}).json["id"]
    play_until(client, game_id, lambda s: finished(s))
    page.goto(f"{page.base_url}/games/{game_id}")
    banner = page.locator("[data-testid=finish-banner]")
    assert banner.inner_text() == "Bob finished: Ann and Cleo keep rolling until they miss."
    client.post(f"/api/games/{game_id}/fail", json={"player": "Cleo", "roll": NEVER})
    page.wait_for_function("document.getElementById('finish-banner').textContent"
                           ".includes('Cleo is out')")
    assert banner.inner_text() == \
        "Bob finished: Ann keeps rolling until a miss. Cleo is out."


def test_solitaire_ends_with_a_final_score_and_failed_turns_at_minus_five(app, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann"], "solitaire": True}).json["id"]
    for _ in range(2):
        client.post(f"/api/games/{game_id}/fail", json={"player": "Ann", "roll": NEVER})
    state = play_until(client, game_id, lambda s: s["is_over"], makes=("Ann",))
    total = state["scorepad"]["columns"][0]["grand_total"]
    assert total == sum(score for score, _ in
                        ((MAKES[n][1], n) for n in range(1, 11))) + 40 + 40 - 10
    page.goto(f"{page.base_url}/games/{game_id}")
    assert page.inner_text("[data-testid=winner]") == f"Final score: {total} points"
    assert "Winner" not in page.inner_text("#game")
    assert page.inner_text("[data-testid=standings]").endswith("2 failed turns, −10")
    assert page.inner_text("td[data-row=failed_turns]") == "−10"
    assert page.is_hidden("[data-testid=finish-banner]")


def test_a_server_that_cannot_be_reached_blocks_the_buttons_and_says_so(app, live_server, page):
    game_id = app.test_client().post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    assert page.is_hidden("[data-testid=offline]")
    app.extensions["phase10"].hub.close()  # the scorepad goes away: streams end, port closes
    live_server.server.shutdown()
    live_server.server.server_close()
    page.wait_for_selector("[data-testid=offline]", state="visible")
    assert "No connection to the scorepad" in page.inner_text("[data-testid=offline]")
    assert page.evaluate("document.getElementById('turn-area').inert") is True
    assert page.evaluate("document.getElementById('undo').inert") is True


def test_an_earlier_turn_is_corrected_from_the_scorepad(app, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "roll": MAKES[1][0]})
    client.post(f"/api/games/{game_id}/fail", json={"player": "Bob", "roll": NEVER})
    page.goto(f"{page.base_url}/games/{game_id}")
    page.wait_for_function("document.getElementById('game').dataset.live === 'yes'")
    bob = page.locator("td[data-player=Bob][data-row=phase-1]")
    assert bob.inner_text() == "" and "editable" in bob.get_attribute("class")
    assert "editable" not in (page.locator("td[data-player=Bob][data-row=phase-2]")
                              .get_attribute("class") or "")

    bob.click()  # the turn's roll and outcome
    assert page.inner_text("#turn-title") == "Bob, Phase 1"
    assert page.inner_text("[data-testid=turn-list] li").replace("\n", "").startswith(
        f"Round 1: {NEVER.replace(' ', '')} · no score")  # the roll drawn as dice
    assert page.get_attribute("[data-testid=turn-list] .roll-chips", "aria-label") == NEVER
    page.click("[data-testid=correct-turn-1]")
    assert page.input_value("[data-testid=turn-roll]") == NEVER
    page.check("[data-testid=turn-made]")
    page.click("[data-testid=turn-save]")  # made, with the roll as it was: refused by the rules
    page.wait_for_function("document.getElementById('turn-error').textContent !== ''")
    assert page.locator("[data-testid=turn-dialog]").is_visible()
    page.fill("[data-testid=turn-roll]", MAKES[1][0])
    page.click("[data-testid=turn-save]")  # first what it changes, then the correction
    page.wait_for_selector("[data-testid=turn-confirm]", state="visible")
    page.click("[data-testid=turn-confirm]")
    page.wait_for_function("document.getElementById('game').dataset.version === '4'")
    assert not page.locator("[data-testid=turn-dialog]").is_visible()
    assert bob.inner_text() == str(MAKES[1][1])
    assert client.get(f"/api/games/{game_id}").json["turns"][1]["made"] is True


OVERLAPS = """root => {
  const boxes = [...root.querySelectorAll('button, input, .die, summary, label')]
    .filter(e => e.offsetParent !== null && !e.closest('dialog'))
    .map(e => [e, e.getBoundingClientRect()]).filter(([, r]) => r.width && r.height);
  const found = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, r] = boxes[i], [b, s] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    const name = (e) => e.id || e.className || e.tagName;
    if (x > 1 && y > 1) found.push(name(a) + ' / ' + name(b));
  }
  return found;
}"""


@pytest.mark.parametrize("path", ["/", "/games/{id}"])
def test_a_320_pixel_phone_has_no_overlaps_and_the_sheet_scrolls_under_fixed_labels(
        app, new_tab, path):
    client = app.test_client()
    players = ["Annabelle", "Bartholomew", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"]
    game_id = client.post("/api/games", json={"players": players}).json["id"]
    client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]})
    page = new_tab(320, 640)
    page.goto(page.base_url + path.format(id=game_id))
    page.wait_for_load_state("networkidle")
    if path != "/":  # no camera for this game: hand entry is open, picker and all
        assert page.get_attribute("[data-testid=hand-entry]", "open") is not None
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    overlaps = page.locator("main").evaluate(OVERLAPS)
    assert overlaps == [], "; ".join(overlaps)
    if path == "/":
        return
    scroller = page.locator(".sheet-scroll")
    assert scroller.evaluate("s => s.scrollWidth > s.clientWidth")  # eight players scroll
    label = page.locator("tr[data-row=grand_total] th")
    left = label.bounding_box()["x"]
    scroller.evaluate("s => { s.scrollLeft = s.scrollWidth; }")
    page.wait_for_function("document.querySelector('.sheet-scroll').scrollLeft > 0")
    assert abs(label.bounding_box()["x"] - left) < 1  # the row labels stay put
    last = page.locator("td[data-player=Hal][data-row=grand_total]").bounding_box()
    assert last["x"] >= label.bounding_box()["x"] + label.bounding_box()["width"] - 1


def test_the_hint_on_the_page_is_in_plain_words(app, page):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    roll = "8R 8B 5G 10O 5R 7R 1B 2B 1G 3R"
    client.post(f"/api/games/{game_id}/roll", json={"roll": roll})
    page.goto(f"{page.base_url}/games/{game_id}")
    page.click("#hint summary")
    page.wait_for_function("document.querySelector('[data-testid=hint]').textContent"
                           ".startsWith('Keep')")
    assert page.inner_text("[data-testid=hint]") == (
        "Keep the two 8s and the two 5s for 2 sets of 3, and re-roll the other 6 dice: "
        "94 % chance to make Phase 1 this turn.")
