"""Issue 45's findings on a careless or hostile network, each as a request: no 500s,
numbers bounded before parsing, card points bounded, every change guarded by what
the phone saw, refusals in JSON."""

from __future__ import annotations

import pytest
from scorepad_helpers import MAKES, NEVER

BIG = "9" * 5000  # int() refuses more than 4,300 digits: this used to be a 500
LONG = "9" * 4000  # int() takes this one: it used to be stored, then break the next write


def new_game(client, players=("Ann", "Bob")) -> dict:
    return client.post("/api/games", json={"players": list(players)}).json


def refused(reply, status: int, *words: str) -> dict:
    assert reply.status_code == status, (reply.status_code, reply.data[:300])
    assert reply.is_json, reply.data[:300]
    for word in words:
        assert word in reply.json["error"], reply.json["error"]
    return reply.json


@pytest.mark.parametrize("query", [{"offset": BIG}, {"limit": BIG}, {"offset": LONG},
                                   {"offset": "1" * 20}, {"limit": "0"}])
def test_a_huge_offset_or_limit_is_a_400_naming_it(client, query):
    name = next(iter(query))
    refused(client.get("/api/games", query_string=query), 400, f"query '{name}'")


@pytest.mark.parametrize("phase", [BIG, LONG, "11", "0", "-1", "1.0", "¹"])
def test_a_huge_or_wrong_phase_is_a_400(client, phase):
    refused(client.get("/api/score", query_string={"roll": MAKES[1][0], "phase": phase}), 400,
            "query 'phase'", "1-10")


def test_a_verdict_needs_a_roll(client):
    refused(client.get("/api/score", query_string={"phase": "1"}), 400, "'roll' is missing")
    refused(client.get("/api/score", query_string={"roll": " ", "phase": "1"}), 400, "'roll'")
    refused(client.get("/api/score", query_string={"roll": NEVER, "phase": "1", "x": "1"}),
            400, "unknown query 'x'")


def test_a_game_number_too_long_for_any_game_is_a_404_in_json(client):
    for path in (f"/api/games/{BIG}", f"/api/games/{'1' * 20}", f"/stream/games/{BIG}"):
        refused(client.get(path), 404, "no game")
    refused(client.post(f"/api/games/{BIG}/score", json={"player": "Ann"}), 404, "no game")
    refused(client.delete(f"/api/games/{BIG}"), 404, "no game")


def test_the_live_streams_refuse_in_json(client):
    refused(client.get("/stream/nothing"), 404, "nothing at /stream/nothing")
    refused(client.post("/stream/games"), 405, "POST is not taken here", "GET")


@pytest.mark.parametrize("number", [BIG, LONG, "1" * 20, "1e999", "-1e999", "NaN", "Infinity"])
def test_a_huge_number_in_a_body_is_refused_and_changes_nothing(client, number):
    game = new_game(client)
    for path, body in ((f"/api/games/{game['id']}/fail", '{"player": "Ann", "version": %s}'),
                       (f"/api/games/{game['id']}/roll", '{"roll": "5R", "roll_number": %s}'),
                       ("/api/camera/game", '{"game": %s}')):
        reply = client.open(path, method="PUT" if "camera" in path else "POST",
                            data=body % number, content_type="application/json")
        assert reply.status_code == 400, (path, reply.status_code, reply.data[:200])
        assert "number" in reply.json["error"] or "JSON object" in reply.json["error"]
    assert client.get(f"/api/games/{game['id']}").json == game


def card_game(client) -> dict:
    return client.post("/api/games", json={"game": "cards", "players": ["Ann", "Bob"]}).json


def hand(bob: int) -> list[dict]:
    return [{"player": "Ann", "made": True, "points": 0},
            {"player": "Bob", "made": False, "points": bob}]


@pytest.mark.parametrize("points", [280, 10**30, 10**4000])
def test_card_points_beyond_what_a_hand_holds_are_refused(client, points):
    game = card_game(client)
    base = f"/api/games/{game['id']}"
    refused(client.post(f"{base}/hand", json={"hand": hand(points), "version": 1}), 400,
            "at most 11 cards" if points < 10**20 else "digits")
    played = client.post(f"{base}/hand", json={"hand": hand(275), "version": 1})
    assert played.status_code == 200
    refused(client.put(f"{base}/hands/0", json={"hand": hand(points), "version": 2}), 400)
    after = client.get(base).json
    assert after["version"] == 2 and after["scorepad"]["columns"][1]["grand_total"] == 275
    assert client.post(f"{base}/hand", json={"hand": hand(5), "version": 2}).status_code == 200


#: Every change of a dice game a phone can ask for (web/API.md, "What the phone saw").
DICE_CHANGES = [
    ("post", "score", {"player": "Ann"}),
    ("post", "fail", {"player": "Ann"}),
    ("post", "undo", {}),
    ("post", "correct", {"turn": 0, "roll": NEVER, "made": False}),
    ("post", "roll", {"roll": NEVER}),
    ("put", "roll", {"roll": NEVER}),
    ("delete", "roll", {}),
    ("post", "roll/dice/0", {"die": "5R"}),
]


@pytest.mark.parametrize(("method", "path", "body"), DICE_CHANGES)
@pytest.mark.parametrize("sent", [{}, {"version": 2}, {"roll_id": 1}, {"version": None,
                                                                         "roll_id": 1}])
def test_a_change_without_what_the_phone_saw_is_refused(client, method, path, body, sent):
    game = new_game(client)
    base = f"/api/games/{game['id']}"
    client.post(f"{base}/fail", json={"player": "Ann"})
    state = client.post(f"{base}/roll", json={"roll": MAKES[1][0]}).json
    assert (state["version"], state["roll_id"]) == (2, 1)
    reply = getattr(client, method)(f"{base}/{path}", json={**body, **sent}, seen=False)
    refused(reply, 428, "what the phone showed", "'version' and 'roll_id'", "reload")
    assert client.get(base).json == state


def test_a_card_hand_without_the_version_is_refused(client):
    game = card_game(client)
    base = f"/api/games/{game['id']}"
    refused(client.post(f"{base}/hand", json={"hand": hand(5)}, seen=False), 428, "'version'")
    refused(client.post(f"{base}/undo", json={}, seen=False), 428, "'version'")
    assert client.get(base).json == game


def test_fixing_the_roll_from_a_screen_older_than_the_score_is_refused(client):
    """The race of the audit: "fix the roll" sent while another phone took the score put
    the fix on the next player's turn."""
    game = new_game(client)
    base = f"/api/games/{game['id']}"
    shown = client.post(f"{base}/roll", json={"roll": NEVER}).json  # both phones show this
    fix = {"roll": MAKES[1][0], "version": shown["version"], "roll_id": shown["roll_id"]}
    took = client.post(f"{base}/fail", json={"player": "Ann", "version": shown["version"],
                                             "roll_id": shown["roll_id"]})
    assert took.status_code == 200 and took.json["active_player"] == "Bob"
    for method in ("put", "post"):
        refused(getattr(client, method)(f"{base}/roll", json=fix), 409, "moved on")
    refused(client.post(f"{base}/roll/dice/0", json={"die": "5R", "version": shown["version"],
                                                    "roll_id": shown["roll_id"]}), 409)
    assert client.get(base).json == took.json  # Bob's turn has no roll of Ann's


def test_a_roll_replaced_on_another_phone_is_not_scored_or_fixed(client):
    game = new_game(client)
    base = f"/api/games/{game['id']}"
    shown = client.post(f"{base}/roll", json={"roll": MAKES[1][0]}).json
    newer = client.post(f"{base}/roll", json={"roll": NEVER}).json
    stale = {"version": shown["version"], "roll_id": shown["roll_id"]}
    refused(client.post(f"{base}/score", json={"player": "Ann", **stale}), 409, "changed")
    refused(client.put(f"{base}/roll", json={"roll": MAKES[2][0], **stale}), 409, "changed")
    refused(client.delete(f"{base}/roll", json=stale), 409, "changed")
    assert client.get(base).json == newer
    now = {"version": newer["version"], "roll_id": newer["roll_id"]}
    fixed = client.put(f"{base}/roll", json={"roll": MAKES[1][0], **now})
    assert fixed.status_code == 200 and fixed.json["current"]["roll_number"] == 2


class FakeClock:
    """The PIN guard's clock, moved by hand (no test waits for real time)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_pin_guessed_from_250_addresses_locks_the_table_for_everyone(tmp_path):
    from scorepad_helpers import make_config

    from web.app import close_app, create_app
    from web.pin_guard import LIMITS

    app = create_app(make_config(tmp_path, pin="2468"))
    clock = FakeClock()
    guard = app.extensions["phase10"].pins
    guard._clock = clock
    client = app.test_client()

    def roll(pin: str, address: str):
        return client.post(f"/api/games/{game_id}/roll", json={"roll": NEVER},
                           headers={"X-Table-Pin": pin},
                           environ_base={"REMOTE_ADDR": address})

    try:
        game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]},
                              headers={"X-Table-Pin": "2468"}).json["id"]
        answers = []
        for guess in range(250 * 5):  # five guesses from each of 250 addresses
            address = f"10.0.{guess // 5 // 250}.{guess // 5 % 250}"
            answers.append(roll(f"{guess:04d}", address).status_code)
        assert answers[:LIMITS.table_budget] == [403] * LIMITS.table_budget
        assert set(answers[LIMITS.table_budget:]) == {429}  # every guess after: unchecked
        assert roll("2468", "10.0.0.1").status_code == 429  # the right PIN too, from anyone
        family = roll("2468", "192.168.1.20")
        refused(family, 429, "the table is locked for 15 minutes", "scores can still be read")
        assert int(family.headers["Retry-After"]) == LIMITS.table_lock_s
        assert client.get("/api/config").json["pin_locked_s"] == LIMITS.table_lock_s
        assert client.get(f"/api/games/{game_id}").status_code == 200  # reading goes on
        clock.now += LIMITS.table_lock_s - 1
        assert roll("2468", "192.168.1.20").status_code == 429  # for the lock's whole length
        clock.now += 1
        assert client.get("/api/config").json["pin_locked_s"] == 0
        assert roll("2468", "192.168.1.20").status_code == 200
    finally:
        close_app(app)


def test_each_further_table_lock_is_longer_until_a_right_pin():
    from web.pin_guard import PinGuard, PinLimits

    clock = FakeClock()
    guard = PinGuard(clock, PinLimits(table_budget=3, table_lock_s=60, table_lock_max_s=200))
    locks = []
    for _round in range(4):
        for address in range(3):
            guard.wrong(f"10.1.0.{_round * 3 + address}")
        locks.append(guard.table_locked_for())
        clock.now += locks[-1]
    assert locks == [60, 120, 200, 200]
    guard.right("192.168.1.20")
    for address in range(3):
        guard.wrong(f"10.2.0.{address}")
    assert guard.table_locked_for() == 60


def test_a_flood_of_addresses_does_not_forget_a_locked_one():
    from web.pin_guard import PinGuard, PinLimits, PinLockedError

    clock = FakeClock()
    limits = PinLimits(table_budget=10**9)  # the per-address limit alone
    guard = PinGuard(clock, limits)
    for _ in range(limits.lockout_after):
        guard.wrong("10.9.9.9")
    for address in range(4200):  # each sends one wrong PIN
        guard.wrong(f"10.{address // 250}.{address % 250}.1")
    with pytest.raises(PinLockedError, match="locked out"):
        guard.check_allowed("10.9.9.9")
    assert guard.wrong_count("10.9.9.9") == limits.lockout_after


def test_a_pin_may_be_a_long_phrase(tmp_path):
    from scorepad_helpers import make_config

    from web.config import ConfigError

    phrase = "correct horse battery staple 42"
    assert make_config(tmp_path, pin=phrase).pin == phrase
    with pytest.raises(ConfigError, match="at most 64"):
        make_config(tmp_path, pin="x" * 65)


@pytest.mark.parametrize("path", ["/api/profile/check", "/api/camera/test-reading"])
@pytest.mark.parametrize(("data", "words"), [
    ("[1, 2", "JSON object"), ("[]", "JSON object"), ('{"face": "8R"}', "unknown field 'face'"),
    ('{"n": ' + "9" * 5000 + "}", "digits"),
])
def test_reads_that_change_nothing_still_refuse_a_malformed_body(client, path, data, words):
    reply = client.post(path, data=data, content_type="application/json")
    refused(reply, 400, words)


def test_live_streams_past_the_servers_room_are_told_to_close_one(tmp_path):
    from scorepad_helpers import make_config

    from web.app import close_app, create_app

    app = create_app(make_config(tmp_path, live_streams=1, server_threads=8))
    client = app.test_client()
    try:
        first = client.get("/stream/games", buffered=False)
        assert first.status_code == 200
        refused(client.get("/stream/games"), 503, "as many as it has room for", "close")
        first.close()
        assert app.extensions["phase10"].hub.client_count == 0
        again = client.get("/stream/games", buffered=False)
        assert again.status_code == 200
        again.close()
    finally:
        close_app(app)
