"""The household's dice layout on /api/profile/layout (issues 15, 47): proposed from the
confirmed rolls, saved when the players agree, and used at once by everything that
depends on the faces, without a restart."""

from __future__ import annotations

import json

import pytest
from layout_helpers import GREEN_FIVE, TWO_GREEN_FIVES, confirm_rolls
from scorepad_helpers import make_config

from scorer import Die
from scorer.dice import inventory_matching
from scorer.dice_set import PRINTED_DICE
from scorer.inventory import DEFAULT_LAYOUT
from scorer.layout_file import LAYOUT_FILE_NAME, layout_text
from web.app import close_app, create_app, table_of
from web.service import game_topic

PRINTED = layout_text(DEFAULT_LAYOUT)
#: Two sets of 3 (Phase 1) with two green 5s: the household's dice throw it, the printed
#: table (one green 5) cannot.
MAKES_WITH_TWO_GREEN_FIVES = "5G 5G 5R 9R 9G 9G 1B 4O 2R 3B"


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
        assert layout["proposal"] is None
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
        assert after["in_use"] == "yours" and after["saved"] == after["text"] == proposal["text"]
        assert after["proposal"] is None  # the rolls fit the layout in use now
        assert after["message"] == "The scorepad uses your dice's layout."
        written = json.loads((data / LAYOUT_FILE_NAME).read_text())
        assert {"name": "H1", "faces": "5G 6O 7B 8G 9O 10G"} in written["dice"]
        assert [die["name"] for die in written["dice"]] == [die.name for die in GREEN_FIVE]

        back = client.delete("/api/profile/layout").json["dice_layout"]
        assert not (data / LAYOUT_FILE_NAME).exists()
        assert back["in_use"] == "printed" and back["saved"] is None
        assert back["text"] == PRINTED and back["proposal"] == layout["proposal"]
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


class _Reader:
    """A stand-in for vision's DiceReader: the app sets the dice set it reads with."""

    dice_set = None


def _flagged(client, game_id: int) -> list[bool]:
    state = client.get(f"/api/games/{game_id}").json
    return [die["impossible"] for die in state["current"]["dice"]]


def test_a_saved_layout_is_used_at_once_by_everything_that_depends_on_the_faces(tmp_path,
                                                                                  data):
    confirm_rolls(data)
    app = create_app(make_config(tmp_path), photo_reader_factory=_Reader)
    app.testing = True
    try:
        client = app.test_client()
        reader = table_of(app).photos.using(lambda loaded: loaded)  # the photos' reader
        assert reader.dice_set == PRINTED_DICE
        game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
        state = client.post(f"/api/games/{game_id}/roll",
                            json={"roll": MAKES_WITH_TWO_GREEN_FIVES}).json
        assert _flagged(client, game_id) == [True, True] + [False] * 8
        assert state["current"]["explained"] is False and state["current"]["needs_confirmation"]
        score = f"/api/score?roll={MAKES_WITH_TWO_GREEN_FIVES}&phase=1"
        assert client.get(score).json["explained"] is False
        refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
        assert refused.status_code == 409, refused.json
        assert "cannot show dice 1 (5G), 2 (5G) together" in refused.json["error"]
        profile = client.get("/api/profile").json
        assert profile["layout"]["unexplained"]  # the profile's layout check flags rolls

        proposal = profile["dice_layout"]["proposal"]["text"]
        phones = table_of(app).hub.subscribe(game_topic(game_id))  # a phone on the game page
        assert client.put("/api/profile/layout", json={"layout": proposal}).status_code == 200

        sent = phones.get(timeout=5)  # the open game's state is sent again at once
        assert sent is not None and sent.event == "state"
        assert not any(die["impossible"] for die in sent.data["current"]["dice"])
        assert _flagged(client, game_id) == [False] * 10  # the same roll, no restart
        now = client.get(f"/api/games/{game_id}").json["current"]
        assert now["explained"] is True and not now["needs_confirmation"]
        assert client.get(score).json["explained"] is True
        assert client.get(f"/api/games/{game_id}/advice").status_code == 200
        profile = client.get("/api/profile").json
        assert profile["layout"]["rolls"] == 40 and profile["layout"]["unexplained"] == []
        assert reader.dice_set == table_of(app).dice.current != PRINTED_DICE
        assert reader.dice_set.by_name("H1").faces[0] == Die.from_text("5G")
        scored = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
        assert scored.status_code == 200, scored.json  # nothing left to confirm

        client.delete("/api/profile/layout", json={})  # back to the printed table, at once
        assert reader.dice_set == PRINTED_DICE
        assert client.get(score).json["explained"] is False
    finally:
        close_app(app)


def test_the_scorepad_opens_with_the_layout_saved_in_its_data_folder_or_the_one_given(
        tmp_path, data):
    confirm_rolls(data)
    client_app = open_app(tmp_path)
    try:
        layout = client_app.test_client().get("/api/profile").json["dice_layout"]
        client_app.test_client().put("/api/profile/layout",
                                     json={"layout": layout["proposal"]["text"]})
    finally:
        close_app(client_app)
    again = open_app(tmp_path)  # opened again later: the saved layout
    try:
        layout = again.test_client().get("/api/profile").json["dice_layout"]
        assert layout["in_use"] == "yours" and "H1: 5G 6O" in layout["text"]
    finally:
        close_app(again)
    given = create_app(make_config(tmp_path), dice_set=PRINTED_DICE)  # what `cli` built
    try:
        assert given.test_client().get("/api/profile").json["dice_layout"]["in_use"] == "printed"
    finally:
        close_app(given)


@pytest.mark.slow
def test_phase10_serve_uses_a_saved_layout_at_once_and_at_its_next_start(tmp_path, data):
    from test_web_crash import call, free_port, serve

    confirm_rolls(data)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    process = serve(port, data, log)
    try:
        game = call(base, "POST", "/api/games", {"players": ["Ann", "Bob"]})
        state = call(base, "POST", f"/api/games/{game['id']}/roll", {
            "roll": TWO_GREEN_FIVES, "version": game["version"], "roll_id": game["roll_id"]})
        assert state["current"]["dice"][0]["impossible"]
        layout = call(base, "GET", "/api/profile")["dice_layout"]
        assert layout["in_use"] == "printed"
        saved = call(base, "PUT", "/api/profile/layout",
                     {"layout": layout["proposal"]["text"]})["dice_layout"]
        assert saved["in_use"] == "yours" and saved["proposal"] is None
        state = call(base, "GET", f"/api/games/{game['id']}")
        assert not any(die["impossible"] for die in state["current"]["dice"])
        assert process.poll() is None  # the same process: nothing started again
    finally:
        process.terminate()
        process.wait(10)

    process = serve(port, data, log)  # started by hand later: the saved layout again
    try:
        assert call(base, "GET", "/api/profile")["dice_layout"]["in_use"] == "yours"
    finally:
        process.terminate()
        process.wait(10)
    assert "using the dice layout in" in log.read_text()
