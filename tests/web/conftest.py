"""Fixtures of the scorepad tests: an app over a temporary database, its client, a live server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from scorepad_helpers import make_config
from werkzeug.serving import BaseWSGIServer, make_server

from web.app import close_app, create_app
from web.config import Config


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
