"""The scorepad's Flask app factory: `create_app(config)` wires store, live hub, camera and views.

Everything the views need hangs off `app.extensions["phase10"]` (a `Table`),
built from the one validated Config; nothing here reads the environment.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from flask import Flask

from scorer.dice_set import PRINTED_DICE, DiceSet
from web.camera import CameraFeed, WatcherFactory, resolve_source, vision_factory
from web.camera_settings import SettingsFile
from web.config import Config
from web.errors import register_error_handlers
from web.layout_service import TableLayout
from web.live import Hub
from web.photo import PhotoReader
from web.pin_guard import PinGuard
from web.profile_service import TableProfile
from web.reader import ReaderFactory, TableReader
from web.request_numbers import BoundedIntConverter
from web.service import GameService
from web.store import GameStore
from web.table_dice import TableDice
from web.views import api, backup, camera, cards, pages, photo, players, profile, setup, stream

log = logging.getLogger(__name__)

#: The camera set-up page's settings, beside the database in the data directory.
CAMERA_SETTINGS_FILE = "camera.json"


@dataclass
class Table:
    """The app's long-lived parts: what the views use, and what `close_app` shuts."""

    config: Config
    store: GameStore
    hub: Hub
    service: GameService
    camera: CameraFeed | None
    setup: SettingsFile
    dice: TableDice = field(default_factory=lambda: TableDice(PRINTED_DICE))  # the set in use
    pins: PinGuard = field(default_factory=PinGuard)
    photos: PhotoReader = field(default_factory=PhotoReader)
    profile: TableProfile | None = None  # the dice profile in the data folder
    layout: TableLayout | None = None  # the household's dice layout file

    def close(self) -> None:
        if self.camera is not None:
            self.camera.stop()
        if self.profile is not None:
            self.profile.close()  # a scored roll being learnt is finished first
        self.hub.close()
        self.store.close()


def create_app(config: Config, *, watcher_factory: WatcherFactory | None = None,
               photo_reader_factory: ReaderFactory | None = None,
               dice_set: DiceSet | None = None) -> Flask:
    """Build the scorepad app; a camera thread starts unless the camera is "none".

    `dice_set`: the household's dice (`phase10 serve` builds it from the layout file);
    None: the layout saved in the data folder, else the printed table. The app holds it
    and swaps it when the players save another layout on /setup (`web.table_dice`).

    Photos uploaded from phones are read by a reader of their own, loaded on the
    first photo (`photo_reader_factory` replaces vision's DiceReader)."""
    app = Flask(__name__)
    app.url_map.converters["int"] = BoundedIntConverter  # before any route is added
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    app.json.sort_keys = False  # type: ignore[attr-defined]
    store = GameStore(config.database_path)
    hub = Hub()
    dice = TableDice(PRINTED_DICE)
    service = GameService(store, hub, dice)
    settings = SettingsFile(config.data_dir / CAMERA_SETTINGS_FILE)

    def attach(reader: TableReader) -> None:
        """Every reader reads with the table's dice set and its dice profile (the photos'
        reader also teaches the profile)."""
        dice.attach(reader)
        dice_profile.attach(reader)

    photos = PhotoReader(photo_reader_factory, threads=config.camera_threads, on_load=attach)
    dice_profile = TableProfile(config.data_dir, store, photos.using, dice)
    layout = TableLayout(config.data_dir, dice_profile.confirmed_rolls, dice)
    dice.swap(dice_set if dice_set is not None else layout.saved_dice() or PRINTED_DICE)
    service.on_die_corrected(dice_profile.die_corrected)
    service.on_roll_scored(dice_profile.roll_scored)
    feed = None
    if config.camera != "none":
        source = resolve_source(config.camera)
        factory = watcher_factory or vision_factory(source, config.camera_threads,
                                                    on_reader=attach)
        feed = CameraFeed(source, factory, service, dice_profile)
        service.camera_attached = True
        feed.apply_settings(settings.current)
    app.extensions["phase10"] = Table(config, store, hub, service, feed, settings, dice,
                                      photos=photos, profile=dice_profile, layout=layout)
    register_error_handlers(app)
    for blueprint in (pages.bp, api.bp, cards.bp, photo.bp, stream.bp, camera.bp, setup.bp,
                      profile.bp, backup.bp, players.bp):
        app.register_blueprint(blueprint)
    if feed is not None:
        # Started once the app is built: a camera that fails at once logs its traceback,
        # and Python 3.11's traceback formatting parses source (`ast`) while the routes
        # above are compiled (`ast` too): two threads doing so at once can fail in Python
        # 3.11 (CPython gh-106905, "AST constructor recursion depth mismatch").
        feed.start()
    log.info("scorepad ready: data in %s, camera %s", config.data_dir, config.camera)
    return app


def table_of(app: Flask) -> Table:
    return app.extensions["phase10"]


def close_app(app: Flask) -> None:
    """Stop the camera, end the live streams and close the database."""
    table_of(app).close()
