"""Typed values of the web layer: the roll on the table (its stored form, old forms, one die
fixed) and the service's view of a game."""

from __future__ import annotations

import pytest
from scorepad_helpers import MAKES

from scorer import Die, parse_roll
from web.game_view import CardGameView, GameView
from web.table_roll import RollSource, TableRoll

#: What the scorepad stores today for a camera roll with an unsure and an unreadable die.
STORED = {"id": 7, "dice": ["8R", "8B", "6G"], "roll_number": 2, "source": "camera",
          "unsure": [1, 2], "flags": ["unreadable-dice"], "unreadable": 1}


def test_the_stored_form_reads_back_to_the_same_object():
    table_roll = TableRoll.from_dict(STORED)
    assert table_roll == TableRoll(parse_roll("8R 8B 6G"), 2, RollSource.CAMERA, 7, (1, 2),
                                   ("unreadable-dice",), 1)
    assert table_roll.to_dict() == STORED
    typed = {**STORED, "source": "hand", "unsure": [], "flags": []}
    del typed["unreadable"]  # kept only when some dice could not be read
    assert TableRoll.from_dict(typed).to_dict() == typed


def test_older_stored_forms_load_with_their_defaults():
    before_roll_ids = {"dice": ["8R"], "roll_number": 3, "source": "hand", "unsure": [],
                       "flags": []}
    table_roll = TableRoll.from_dict(before_roll_ids)
    assert table_roll.roll_id is None and table_roll.unreadable == 0
    assert TableRoll.from_dict({}) == TableRoll(parse_roll(""), 1, RollSource.HAND)
    with pytest.raises(ValueError, match="'dice'"):
        TableRoll.from_dict({**STORED, "source": "dice"})


def test_new_sorts_unsure_dice_once_each():
    table_roll = TableRoll.new(parse_roll(MAKES[1][0]), roll_number=1, source=RollSource.PHOTO,
                               roll_id=None, unsure=[4, 1, 4])
    assert table_roll.unsure == (1, 4) and table_roll.to_dict()["source"] == "photo"


def test_a_fixed_die_is_sure_and_an_unreadable_one_joins_the_roll():
    table_roll = TableRoll.from_dict(STORED)
    fixed = table_roll.with_die(1, Die.from_text("8G"))
    assert str(fixed.roll) == "8R 8G 6G" and fixed.unsure == (2,) and fixed.roll_id is None
    read = table_roll.with_die(3, Die.from_text("3R"))
    assert str(read.roll) == "8R 8B 6G 3R" and read.unreadable == 0 and read.dice_count == 4
    assert table_roll.dice_count == 4 and table_roll.scorable_roll() == table_roll.roll
    assert TableRoll.from_dict({"unreadable": 2}).scorable_roll() is None


def test_the_likely_faces_are_kept_for_the_unsure_dice_and_go_with_a_fix():
    roll = parse_roll(MAKES[1][0])  # 7R (die 5) joins neither set; as a 10 it would
    told = TableRoll.new(roll, roll_number=1, source=RollSource.CAMERA, roll_id=3,
                         unsure=[5, 2], value_unsure=[5, 2],
                         likely={5: [Die.from_text("9R")], 7: [Die.from_text("1B")]})
    assert told.likely == ((5, (Die.from_text("9R"),)),)  # die 7 is not unsure
    assert told.to_dict()["likely"] == {"5": ["9R"]}
    assert TableRoll.from_dict(told.to_dict()) == told
    assert told.likely_faces(5) == (Die.from_text("9R"),) and told.likely_faces(2) is None
    alone = told.with_die(2, Die.from_text("8G"))
    assert alone.to_check(1) == () and alone.unchecked(1) == (5,)
    assert alone.with_die(5, Die.from_text("7R")).likely == ()
    untold = TableRoll.new(roll, roll_number=1, source=RollSource.CAMERA, roll_id=3,
                           unsure=[5], value_unsure=[5])
    assert untold.to_check(1) == (5,) and "likely" not in untold.to_dict()


def test_a_game_stored_with_an_old_roll_on_the_table_loads(app, client):
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    service = app.extensions["phase10"].service
    service.store.set_current(game_id, {"dice": MAKES[1][0].split(), "roll_number": 1,
                                        "source": "camera", "unsure": [2], "flags": []})
    state = client.get(f"/api/games/{game_id}").json
    assert state["roll_id"] is None and state["current"]["source"] == "camera"
    assert state["current"]["unsure_count"] == 1 and state["current"]["verdict"]["made"]
    refused = client.post(f"/api/games/{game_id}/score",
                          json={"player": "Ann", "version": 1, "roll_id": None})
    assert refused.status_code == 409 and "unsure of die 3" in refused.json["error"]
    scored = client.post(f"/api/games/{game_id}/score",
                         json={"player": "Ann", "version": 1, "roll_id": None,
                                           "confirmed": True})
    assert scored.status_code == 200 and scored.json["turns"][0]["score"] == MAKES[1][1]


def test_the_service_view_is_a_frozen_snapshot(app, client):
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]})
    service = app.extensions["phase10"].service
    view = service.view(game_id)
    assert isinstance(view, GameView) and view.active_phase == 1 and view.version == 1
    assert view.table_roll is not None and view.table_roll.source is RollSource.HAND
    client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert view.version == 1 and view.table_roll is not None  # taken before the score
    after = service.view(game_id)
    assert after.version == 2 and after.table_roll is None and after.active_player == "Bob"
    cards = client.post("/api/games", json={"players": ["Ann", "Bob"], "game": "cards"}).json
    assert isinstance(service.view(cards["id"]), CardGameView)
