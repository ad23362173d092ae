"""Issue 16's rules through the JSON API: the roll-off order and its throws, last tries
that go straight on, the First Finish Bonus option, and an old stored log."""

from __future__ import annotations

import json
from pathlib import Path

from scorepad_helpers import MAKES, NEVER

from web.app import table_of

LEGACY_LOGS = Path(__file__).parent.parent / "data" / "legacy_game_logs.json"


def new_game(client, players, **options) -> dict:
    reply = client.post("/api/games", json={"players": list(players), **options})
    assert reply.status_code == 201, reply.json
    return reply.json


def act(client, state: dict, action: str, **body) -> dict:
    reply = client.post(f"/api/games/{state['id']}/{action}", json=body)
    assert reply.status_code == 200, reply.json
    return reply.json


def turn(client, state: dict, made: bool) -> dict:
    """The active player makes their phase with a known roll, or fails it."""
    roll = MAKES[state["active_phase"]["number"]][0] if made else NEVER
    return act(client, state, "score" if made else "fail", player=state["active_player"], roll=roll)


def rounds(client, state: dict, count: int) -> dict:
    for _ in range(count * len(state["players"])):
        state = turn(client, state, True)
    return state


def test_the_roll_off_orders_everyone_and_the_state_keeps_every_throw(client):
    state = new_game(client, ["A", "B", "C", "D"], roll_off=True)
    assert state["roll_off_throws"] == {"A": [], "B": [], "C": [], "D": []}
    for player, value in (("A", 6), ("B", 9), ("C", 6), ("D", 8)):
        state = act(client, state, "roll-off", player=player, value=value)
    assert state["roll_off_pending"] == ["A", "C"]  # tied below the top: they throw again
    state = act(client, state, "roll-off", player="C", value=10)
    state = act(client, state, "roll-off", player="A", value=5)
    assert state["roll_off_pending"] == [] and state["play_order"] == ["B", "D", "C", "A"]
    assert state["roll_off_throws"] == {"A": [6, 5], "B": [9], "C": [6, 10], "D": [8]}
    assert [c["player"] for c in state["scorepad"]["columns"]] == ["B", "D", "C", "A"]
    assert state["active_player"] == "B"


def _chained_finish(client, rule: str | None) -> dict:
    """Bea finishes first; Cy, after her, makes phase 9 on his last try and goes on to 10."""
    options = {} if rule is None else {"first_finish": rule}
    state = rounds(client, new_game(client, ["Al", "Bea", "Cy"], **options), 8)
    state = turn(client, turn(client, turn(client, state, True), True), False)  # Cy stays on 9
    state = turn(client, turn(client, state, False), True)  # Al fails; Bea finishes
    state = turn(client, state, True)  # Cy makes 9 ...
    assert (state["active_player"], state["active_phase"]["number"], state["round"]) == (
        "Cy",
        10,
        10,
    )
    state = turn(client, state, True)  # ... and 10 in the same round
    state = turn(client, state, False)  # Al fails his last try
    assert state["is_over"]
    return state


def test_the_default_reading_is_the_newest_printing_and_pays_the_chained_finish(client):
    state = _chained_finish(client, None)
    assert state["first_finish"]["rule"] == "same_round"
    assert state["first_finish"]["printing"] == "2011 and 2020 printings"
    assert "later in the same round" in state["first_finish"]["description"]
    assert [c["first_finish_bonus"] for c in state["scorepad"]["columns"]] == [0, 40, 40]
    assert state["rules"] == 2


def test_the_2010_reading_is_kept_in_the_log_and_pays_only_those_already_on_phase_10(client, app):
    state = _chained_finish(client, "already_on_phase_10")
    assert state["first_finish"]["printing"] == "2010 printing"
    assert [c["first_finish_bonus"] for c in state["scorepad"]["columns"]] == [0, 40, 0]
    stored = table_of(app).service.store.load(state["id"])
    assert stored.events[0]["first_finish"] == "already_on_phase_10"
    assert stored.events[0]["rules"] == 2


def test_a_bad_first_finish_option_is_refused_by_name(client):
    reply = client.post("/api/games", json={"players": ["Al", "Bea"], "first_finish": "2010"})
    assert reply.status_code == 400
    assert "field 'first_finish'" in reply.json["error"] and "'2010'" in reply.json["error"]
    reply = client.post("/api/games", json={"players": ["Al", "Bea"], "first_finish": 2010})
    assert reply.status_code == 400 and "'first_finish'" in reply.json["error"]
    assert client.get("/api/games").json["games"] == []


def test_an_old_stored_log_shows_the_scorepad_it_had(client, app):
    legacy = json.loads(LEGACY_LOGS.read_text())["games"][0]
    store = table_of(app).service.store
    game_id = store.create_game({"players": legacy["events"][0]["players"]}, legacy["events"], {})
    state = client.get(f"/api/games/{game_id}").json
    assert state["rules"] == 1 and state["first_finish"]["rule"] == "same_round"
    assert state["play_order"] == legacy["state"]["play_order"]
    assert state["turns"] == legacy["state"]["turns"]
    totals = [c["grand_total"] for c in state["scorepad"]["columns"]]
    assert totals == [c["grand_total"] for c in legacy["state"]["scorepad"]["columns"]]


def test_the_pages_show_the_option_and_the_game_s_reading(client):
    page = client.get("/").get_data(as_text=True)
    assert 'value="same_round" checked' in page and 'value="already_on_phase_10"' in page
    assert "2010 printing" in page
    state = new_game(client, ["Al", "Bea"], first_finish="already_on_phase_10")
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert "First Finish Bonus, 2010 printing" in page
