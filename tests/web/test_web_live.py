"""Live updates: the hub's per-client queues and the server-sent event stream over real HTTP."""

from __future__ import annotations

import http.client
import json
import threading

from scorepad_helpers import MAKES

from web.live import QUEUE_SIZE, Hub, Message, event_stream


def test_every_subscriber_of_a_topic_gets_the_message():
    hub = Hub()
    one, two, other = hub.subscribe("game:1"), hub.subscribe("game:1"), hub.subscribe("game:2")
    assert hub.publish("game:1", "state", {"v": 1}) == 2
    assert one.get(0.1).data == {"v": 1} and two.get(0.1).data == {"v": 1}
    assert other.get(0.01) is None
    one.close()
    assert hub.client_count == 2


def test_a_slow_client_keeps_only_the_newest_messages():
    hub = Hub()
    slow = hub.subscribe("t")
    for n in range(QUEUE_SIZE + 5):
        hub.publish("t", "state", n)
    received = [slow.get(0.01).data for _ in range(QUEUE_SIZE)]
    assert received == list(range(5, QUEUE_SIZE + 5))


def test_stream_sends_state_then_heartbeats_then_updates_and_ends_on_close():
    hub = Hub()
    subscription = hub.subscribe("t")
    stream = event_stream(subscription, Message("t", "state", {"v": 0}), heartbeat_s=0.01)
    assert next(stream).startswith("retry:")
    assert next(stream) == 'event: state\ndata: {"v":0}\n\n'
    assert next(stream) == ": heartbeat\n\n"
    hub.publish("t", "state", {"v": 1})
    assert next(stream) == 'event: state\ndata: {"v":1}\n\n'
    hub.close()
    assert list(stream) == []
    assert hub.client_count == 0


def read_events(response, count: int) -> list[dict]:
    """Parse `count` server-sent events (skipping heartbeats) from a streaming response."""
    events, data = [], None
    while len(events) < count:
        line = response.readline().decode()
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "\n" and data is not None:
            events.append(data)
            data = None
    return events


def test_a_phone_following_the_stream_sees_the_scored_turn(live_server):
    client = live_server.app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    connection = http.client.HTTPConnection("127.0.0.1", live_server.server.server_port,
                                            timeout=10)
    connection.request("GET", f"/stream/games/{game_id}")
    response = connection.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type").startswith("text/event-stream")
    first = read_events(response, 1)[0]
    assert first["version"] == 1 and first["active_player"] == "Ann"

    def score() -> None:
        client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "roll": MAKES[1][0]})

    threading.Thread(target=score).start()
    update = read_events(response, 1)[0]
    assert update["active_player"] == "Bob"
    assert update["scorepad"]["columns"][0]["phase_scores"][0] == MAKES[1][1]
    connection.close()
