"""Fixtures of the scorepad tests: an app over a temporary database, its client, a live server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import BaseWSGIServer, make_server

from web.app import close_app, create_app
from web.config import Config

#: Rolls that make a phase, with the score the solver gives them (checked in the tests).
MAKES: dict[int, tuple[str, int]] = {
    1: ("8R 8B 8G 10O 5G 7R WR WB 1G 3R", 34),
    2: ("WO WB 1O 4R 10G 9B 8B 10B 10G 10O", 57),
    3: ("WO WO WG 4R 10G 9B 10O 10B 10G 10O", 59),
    4: ("4G 1R 2R WG 7B 5G 10O 6G 8O 9G", 49),
    5: ("WR 4O 3R 2O 8G 10R 5O 6G 7R 9G", 52),
    6: ("WR 4O 3R 2O 8G 10R 5O 6G 7R 9G", 54),
    7: ("1B WB 1O WR 10G 10R 10O 10B 10G 10O", 60),
    8: ("WR 4O 2R 1G 9O 8O 10O 7O 8O 10O", 56),
    9: ("1B WB 1O WR 10G 10R 10O 10B 10G 10O", 60),
    10: ("4G 4O WB 4R 10G 5G 10O 10B 10G 10O", 62),
}
#: Makes no phase at all.
NEVER = "5R 5G 7B 7G 9O 9R 1B 1R 3O 3G"


def make_config(tmp_path: Path, **changes: object) -> Config:
    return Config(data_dir=tmp_path / "data", camera="none", heartbeat_s=0.2).replace(**changes)


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return make_config(tmp_path)


@pytest.fixture
def app(config: Config) -> Iterator[Flask]:
    application = create_app(config)
    application.testing = True
    yield application
    close_app(application)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@dataclass
class LiveServer:
    """The app served over real HTTP on 127.0.0.1 (a free port), in a thread."""

    app: Flask
    server: BaseWSGIServer

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"


@pytest.fixture
def live_server(app: Flask) -> Iterator[LiveServer]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    yield LiveServer(app, server)
    app.extensions["phase10"].hub.close()  # end the open streams first
    server.shutdown()
    server.server_close()
    thread.join(5)
