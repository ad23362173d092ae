"""Fixtures of the scorepad tests: an app over a temporary database, its client, a live server."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fakes import FakeWatcher
from flask import Flask
from flask.testing import FlaskClient
from phone_client import PhoneClient
from scorepad_helpers import make_config, open_camera_app
from werkzeug.serving import BaseWSGIServer, make_server

from web.app import close_app, create_app
from web.config import Config


@pytest.fixture(autouse=True)
def phone_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test clients send what the phone saw with each change, as the page does
    (tests/web/phone_client.py); a test of the guard sends its own."""
    monkeypatch.setattr(Flask, "test_client_class", PhoneClient)


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
def watcher() -> FakeWatcher:
    """A stand-in for vision's table watcher, fed readings by the test."""
    return FakeWatcher()


@pytest.fixture
def camera_app(tmp_path: Path, watcher: FakeWatcher) -> Iterator[Flask]:
    """The scorepad with the fake `watcher` in place of vision's table watcher; a test
    file uses it as its `app` with `app = camera_app`-style aliasing (see its users)."""
    application = open_camera_app(tmp_path, watcher)
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


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_path() -> Path:
    """Debian's chromium; installed with apt when missing and running as root, else skip."""
    found = CHROMIUM if CHROMIUM.exists() else None
    if found is None and shutil.which("chromium"):
        found = Path(shutil.which("chromium") or "")
    if found is None and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "chromium"]):
            subprocess.run(command, check=False, capture_output=True, timeout=600)
        found = CHROMIUM if CHROMIUM.exists() else None
    if found is None:
        pytest.skip("no chromium: install Debian's chromium package (apt-get install chromium)")
    return found


@pytest.fixture
def new_tab(live_server) -> Iterator[Callable[..., Any]]:
    """Open phone-sized tabs of a real headless Chromium on the live server; no page errors."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)

        def open_tab(width: int = 390, height: int = 844) -> Any:
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.on("pageerror", lambda error: errors.append(str(error)))
            tab.on("dialog", lambda dialog: dialog.accept())
            tab.set_default_timeout(10_000)
            tab.base_url = live_server.url
            return tab

        yield open_tab
        browser.close()
    assert errors == [], errors


@pytest.fixture
def page(new_tab) -> Any:
    return new_tab()
