"""Backups of the whole scorepad and exports of one game, and putting them back.

A backup is every game as stored (its row, its event log, its roll on the table) and
the table's settings, in one JSON file; a game's export is the same for one game.
Putting either back adds games beside those already here and changes none of them:
a game already here, identical, is skipped; one whose id is taken gets a new id. A
file that is not a backup, or holds a game whose log does not replay, is refused
whole before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorer import replay_log
from web.commands import BadActionError
from web.service import LAST_ROLL_ID
from web.store import GameStore
from web.table_roll import TableRoll

BACKUP_FORMAT = "phase10-scorepad-backup"
GAME_FORMAT = "phase10-game"
VERSION = 1

_GAME_KEYS = {"id": int, "created": str, "updated": str, "settings": dict, "summary": dict,
              "finished": bool, "events": list}


class NotABackupError(BadActionError):
    """A file given to restore that is not a scorepad backup (or game export) it can read."""


@dataclass(frozen=True)
class Restored:
    """What putting a backup back did: the games added (their ids here), those skipped."""

    added: tuple[int, ...]
    already_here: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"added": list(self.added), "already_here": list(self.already_here)}


def backup(store: GameStore) -> dict[str, Any]:
    """The whole scorepad as one JSON-ready dict."""
    return {"format": BACKUP_FORMAT, "version": VERSION, **store.dump_rows()}


def game_export(store: GameStore, game_id: int) -> dict[str, Any]:
    """One game as stored, to keep or to bring back on another scorepad."""
    store.load(game_id, events=False)  # an unknown game: 404
    game = next(g for g in store.dump_rows()["games"] if g["id"] == game_id)
    return {"format": GAME_FORMAT, "version": VERSION, "game": game}


def parse_file(data: bytes) -> Any:
    """A file's JSON, or the refusal a person can act on."""
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise NotABackupError(
            "this file is not a scorepad backup: choose the .json file that "
            "\"Download a backup\" saved") from None


def _checked_game(game: Any, where: str) -> dict[str, Any]:
    if not isinstance(game, dict):
        raise NotABackupError(f"{where} is not a game: choose a backup the scorepad saved")
    for key, kind in _GAME_KEYS.items():
        if not isinstance(game.get(key), kind) or (kind is int and isinstance(game[key], bool)):
            raise NotABackupError(f"{where} has no proper {key!r}: choose a backup the "
                                  "scorepad saved, unchanged")
    if not (game.get("archived") is None or isinstance(game.get("archived"), str)):
        raise NotABackupError(f"{where} has no proper 'archived': choose an unchanged backup")
    try:
        replay_log(game["events"])
        if game.get("current") is not None:
            TableRoll.from_dict(game["current"])
    except Exception as error:  # noqa: BLE001 - any fault in the file refuses it whole
        raise NotABackupError(f"{where} does not replay ({error}): choose an unchanged "
                              "backup") from None
    return {**game, "current": game.get("current")}


def _games_of(data: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The games and settings of a backup or of one game's export, checked."""
    if not isinstance(data, dict) or data.get("format") not in (BACKUP_FORMAT, GAME_FORMAT):
        raise NotABackupError("this file is not a scorepad backup: choose the .json file "
                              "that \"Download a backup\" (or a game's export) saved")
    if data.get("version") != VERSION:
        raise NotABackupError(f"this backup is of version {data.get('version')!r}, and this "
                              f"scorepad reads version {VERSION}: update the scorepad first")
    if data["format"] == GAME_FORMAT:
        return [_checked_game(data.get("game"), "the game")], {}
    games, settings = data.get("games"), data.get("settings", {})
    if not isinstance(games, list) or not isinstance(settings, dict):
        raise NotABackupError("this backup has no list of games: choose an unchanged backup")
    return [_checked_game(g, f"game {i + 1} of the file") for i, g in enumerate(games)], settings


def _same(stored: Mapping[str, Any], game: Mapping[str, Any]) -> bool:
    keys = ("created", "updated", "settings", "events", "current")
    return all(stored.get(key) == game.get(key) for key in keys)


def restore(store: GameStore, data: Any) -> Restored:
    """Add the file's games beside those here (nothing here changes); see the module."""
    games, settings = _games_of(data)
    here = {g["id"]: g for g in store.dump_rows()["games"]}
    new = [g for g in games if not (g["id"] in here and _same(here[g["id"]], g))]
    skipped = tuple(g["id"] for g in games if g not in new)
    added = store.insert_rows(new, {k: v for k, v in settings.items() if k != LAST_ROLL_ID})
    last = max([int(store.setting(LAST_ROLL_ID) or 0)]
               + [g["current"]["id"] for g in new if isinstance(g["current"], dict)
                  and isinstance(g["current"].get("id"), int)]
               + [int(settings.get(LAST_ROLL_ID) or 0)])
    store.set_setting(LAST_ROLL_ID, last)  # a roll id is never handed out twice
    return Restored(tuple(added), skipped)
