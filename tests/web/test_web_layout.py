"""The household's dice layout on /api/profile/layout (issue 15): proposed from the
confirmed rolls, saved when the players agree, used from the next start."""

from __future__ import annotations

import json

import pytest
from layout_helpers import GREEN_FIVE, TWO_GREEN_FIVES, confirm_rolls
from scorepad_helpers import make_config

from scorer.dice import inventory_matching
from scorer.inventory import DEFAULT_LAYOUT
from scorer.layout_file import LAYOUT_FILE_NAME, layout_text
from web.app import close_app, create_app

PRINTED = layout_text(DEFAULT_LAYOUT)


@pytest.fixture
def data(tmp_path):
    return tmp_path / "data"


def open_app(tmp_path, **changes):
    app = create_app(make_config(tmp_path, **changes))
    app.testing = True
    return app


def test_without_confirmed_rolls_the_printed_table_is_shown_and_nothing_proposed(tmp_path):
    app = open_app(tmp_path)
    try:
        layout = app.test_client().get("/api/profile").json["dice_layout"]
        assert layout["in_use"] == "printed" and layout["text"] == PRINTED
        assert layout["proposal"] is None and not layout["restart_needed"]
        assert layout["message"] == "The scorepad uses the printed dice table."
        page = app.test_client().get("/setup").get_data(as_text=True)
        assert 'data-testid="layout-text"' in page and "H1: 5R 6O 7B 8G 9O 10G" in page
    finally:
        close_app(app)


def test_rolls_of_other_dice_get_a_proposal_the_players_can_save(tmp_path, data):
    confirm_rolls(data)
    app = open_app(tmp_path)
    try:
        client = app.test_client()
        layout = client.get("/api/profile").json["dice_layout"]
        proposal = layout["proposal"]
        assert proposal["changes"] == [{"die": "H1", "before": "5R", "after": "5G"}]
        assert proposal["explained"] == proposal["rolls"] == 40
        assert "H1: 5G 6O 7B 8G 9O 10G" in proposal["text"]
        assert "changes 1 face of the table (H1 5R to 5G)" in layout["message"]
        assert "H1: 5G 6O" in client.get("/setup").get_data(as_text=True)  # in the editor

        saved = client.put("/api/profile/layout", json={"layout": proposal["text"]})
        assert saved.status_code == 200, saved.json
        after = saved.json["dice_layout"]
        assert after["restart_needed"] and after["saved"] == proposal["text"]
        assert after["message"].startswith("Your dice's layout is saved: the scorepad uses it "
                                           "from its next start")
        written = json.loads((data / LAYOUT_FILE_NAME).read_text())
        assert {"name": "H1", "faces": "5G 6O 7B 8G 9O 10G"} in written["dice"]
        assert [die["name"] for die in written["dice"]] == [die.name for die in GREEN_FIVE]

        back = client.delete("/api/profile/layout").json["dice_layout"]
        assert not (data / LAYOUT_FILE_NAME).exists()
        assert not back["restart_needed"] and back["saved"] is None
    finally:
        close_app(app)


def test_a_layout_that_cannot_throw_a_confirmed_roll_or_is_no_layout_is_refused(tmp_path,
                                                                                  data):
    rolls = confirm_rolls(data)
    wrong = [roll for roll in rolls if inventory_matching(roll) is None]
    assert wrong  # the printed table cannot throw some of them
    app = open_app(tmp_path)
    try:
        client = app.test_client()
        refused = client.put("/api/profile/layout", json={"layout": PRINTED})
        assert refused.status_code == 422
        assert refused.json["error"] == (
            f"{len(wrong)} of your 40 confirmed rolls cannot be thrown with this layout "
            f"(the first: {wrong[0]}): check the faces on your dice")
        bad = client.put("/api/profile/layout", json={"layout": "H1: 5R 6O"})
        assert bad.status_code == 400 and bad.json["error"] == "die H1 has 2 faces, not 6"
        assert client.put("/api/profile/layout", json={}).status_code == 400
        assert not (data / LAYOUT_FILE_NAME).exists()
    finally:
        close_app(app)


def test_saving_a_layout_needs_the_table_pin(tmp_path, data):
    app = open_app(tmp_path, pin="2468")
    try:
        client = app.test_client()
        assert client.put("/api/profile/layout", json={"layout": PRINTED}).status_code == 401
        assert client.delete("/api/profile/layout", json={}).status_code == 401
        assert client.put("/api/profile/layout",
                          json={"layout": PRINTED, "pin": "2468"}).status_code == 200
        assert (data / LAYOUT_FILE_NAME).exists()
    finally:
        close_app(app)


def test_a_corrupt_saved_layout_is_reported_not_fatal(tmp_path, data):
    data.mkdir(parents=True)
    (data / LAYOUT_FILE_NAME).write_text("{")
    app = open_app(tmp_path)
    try:
        layout = app.test_client().get("/api/profile").json["dice_layout"]
        assert layout["message"].startswith("The saved layout cannot be used (cannot read")
        assert layout["in_use"] == "printed"
    finally:
        close_app(app)


def _wait_for(condition, seconds: float = 30.0) -> None:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except OSError:  # the scorepad is between processes
            pass
        time.sleep(0.2)
    raise AssertionError("the scorepad did not come back with the layout")


@pytest.mark.slow
def test_the_players_agree_the_scorepad_starts_again_and_uses_their_layout(tmp_path, data):
    from test_web_crash import call, free_port, serve

    confirm_rolls(data)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    process = serve(port, data, log)
    try:
        layout = call(base, "GET", "/api/profile")["dice_layout"]
        assert layout["in_use"] == "printed" and layout["can_restart"]
        saved = call(base, "PUT", "/api/profile/layout",
                     {"layout": layout["proposal"]["text"]})["dice_layout"]
        assert saved["restart_needed"]
        assert call(base, "POST", "/api/profile/layout/restart", {})["restarting"]
        _wait_for(lambda: call(base, "GET", "/api/profile")["dice_layout"]["in_use"] == "yours")
        layout = call(base, "GET", "/api/profile")["dice_layout"]
        assert "H1: 5G 6O" in layout["text"] and not layout["restart_needed"]
        assert layout["proposal"] is None  # the rolls fit the layout in use
        game = call(base, "POST", "/api/games", {"players": ["Ann", "Bob"]})
        state = call(base, "POST", f"/api/games/{game['id']}/roll", {"roll": TWO_GREEN_FIVES})
        assert not any(die["impossible"] for die in state["current"]["dice"])
    finally:
        process.terminate()
        process.wait(10)
    assert "scorepad starting again (the dice layout changed)" in log.read_text()

    process = serve(port, data, log)  # started by hand later: the saved layout again
    try:
        assert call(base, "GET", "/api/profile")["dice_layout"]["in_use"] == "yours"
    finally:
        process.terminate()
        process.wait(10)
    assert "using the dice layout saved in" in log.read_text()


def test_a_scorepad_that_cannot_start_itself_again_says_so(tmp_path):
    app = open_app(tmp_path)
    try:
        client = app.test_client()
        assert client.get("/api/profile").json["dice_layout"]["can_restart"] is False
        reply = client.post("/api/profile/layout/restart", json={})
        assert reply.status_code == 409 and "restart it by hand" in reply.json["error"]
    finally:
        close_app(app)


def test_a_restart_is_asked_of_the_server_after_the_reply(tmp_path):
    import threading

    asked = threading.Event()
    app = create_app(make_config(tmp_path), restart=asked.set)
    try:
        client = app.test_client()
        assert client.get("/api/profile").json["dice_layout"]["can_restart"] is True
        reply = client.post("/api/profile/layout/restart", json={})
        assert reply.status_code == 202 and reply.json["restarting"] is True
        assert asked.wait(5)
    finally:
        close_app(app)
