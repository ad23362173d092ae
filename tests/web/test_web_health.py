"""GET /api/health: the route `phase10 doctor` and deploy/install.sh ask whether the
scorepad answers (issue 14)."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from scorepad_helpers import make_config

from web.app import close_app, create_app


def test_health_says_ok_with_the_version_and_no_camera(client: FlaskClient) -> None:
    reply = client.get("/api/health")
    assert reply.status_code == 200 and reply.is_json
    assert reply.get_json() == {
        "ok": True, "version": metadata.version("phase10-dice"), "camera": None,
    }


def test_health_gives_the_cameras_state(camera_app: Flask) -> None:
    answer = camera_app.test_client().get("/api/health").get_json()
    assert answer["ok"] is True
    assert answer["camera"] == {"source": "demo", "running": True, "error": None}


def test_health_needs_no_pin(tmp_path: Path) -> None:
    app = create_app(make_config(tmp_path, pin="1234"))
    try:
        assert app.test_client().get("/api/health").get_json()["ok"] is True
    finally:
        close_app(app)
