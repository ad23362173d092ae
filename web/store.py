"""SQLite storage of every game's event log, so no restart or power cut loses a game.

Each game is a row (its settings and a summary for the list of past games),
an append-only list of events (the engine's own `to_dict()` form) and the
current, not yet scored roll. A few table-wide choices (which game the camera
feeds) are kept too, so a restart resumes them. Every write is one transaction committed before
it returns, on a WAL database with synchronous=FULL.

A game may be archived (hidden from the main list, kept whole, restorable) or
deleted (its rows removed in one transaction that touches no other game). Ids
come from AUTOINCREMENT, so a deleted game's id is never given to a new game: a
phone still showing it gets "no game", never someone else's game.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    settings TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '{}',
    finished INTEGER NOT NULL DEFAULT 0,
    archived TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS current_rolls (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS table_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

#: Columns added to `games` after its first version: name -> definition (added on open).
_ADDED_COLUMNS = {"archived": "TEXT"}

#: The most games one page of the list holds.
MAX_PAGE = 200

#: Which games a list holds: those being played, the finished ones, or both.
LIST_STATUSES = ("all", "playing", "finished")

#: The largest id SQLite can hold (a signed 64-bit integer); larger ones are no game.
MAX_ID = 2**63 - 1


class UnknownGameError(LookupError):
    """A game id that the store does not hold."""

    def __init__(self, game_id: object) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


@dataclass(frozen=True)
class StoredGame:
    """One game as saved: settings, the event log and the current roll (or None)."""

    id: int
    created: str
    updated: str
    settings: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    current: dict[str, Any] | None
    summary: dict[str, Any]
    finished: bool


@dataclass(frozen=True)
class GameSummary:
    """A line of the list of games: enough to browse without replaying anything."""

    id: int
    created: str
    updated: str
    settings: dict[str, Any]
    summary: dict[str, Any]
    finished: bool
    archived: str | None = None
    """When the game was archived (ISO time, UTC), or None: it is in the main list."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created": self.created,
            "updated": self.updated,
            "players": self.settings.get("players", []),
            "solitaire": bool(self.settings.get("solitaire", False)),
            "game": self.settings.get("game", "dice"),  # games stored before cards are dice
            "finished": self.finished,
            **self.summary,
            "archived": self.archived,
        }


@dataclass(frozen=True)
class GamePage:
    """One page of the list of games, and how many games the whole list holds."""

    games: tuple[GameSummary, ...]
    total: int
    offset: int
    limit: int


def _check_id(game_id: int) -> None:
    """An id SQLite cannot even hold is no game (rather than an OverflowError)."""
    if not isinstance(game_id, int) or not 0 <= game_id <= MAX_ID:
        raise UnknownGameError(game_id)


def _summary_of(row: Sequence[Any]) -> GameSummary:
    """A list line from its row (id, created, updated, settings, summary, finished, archived)."""
    return GameSummary(int(row[0]), str(row[1]), str(row[2]), json.loads(row[3]),
                       json.loads(row[4]), bool(row[5]), row[6])


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class GameStore:
    """The scorepad's database; one connection shared under a lock (writes are tiny)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        self._add_columns()
        log.info("game store at %s", self.path)

    def _add_columns(self) -> None:
        """Bring a database written by an older scorepad up to date (one transaction)."""
        with self._transaction() as db:
            have = {row[1] for row in db.execute("PRAGMA table_info(games)")}
            for name, definition in _ADDED_COLUMNS.items():
                if name not in have:
                    db.execute(f"ALTER TABLE games ADD COLUMN {name} {definition}")
                    log.info("games table: column %s added", name)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create_game(
        self,
        settings: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        summary: Mapping[str, Any],
    ) -> int:
        """Save a new game with its first events; returns its id."""
        now = _now()
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (created, updated, settings, summary) VALUES (?, ?, ?, ?)",
                (now, now, _dump(settings), _dump(summary)),
            )
            game_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                [(game_id, seq, _dump(event)) for seq, event in enumerate(events)],
            )
        return game_id

    def append_event(
        self,
        game_id: int,
        seq: int,
        event: Mapping[str, Any],
        *,
        summary: Mapping[str, Any],
        finished: bool,
        current: Mapping[str, Any] | None = None,
    ) -> None:
        """Commit one accepted action: the event at position `seq`, the summary and the roll.

        The current roll is replaced by `current` (None clears it, as a scored
        turn does). A `seq` already taken raises sqlite3.IntegrityError.
        """
        with self._transaction() as db:
            self._require(db, game_id)
            db.execute(
                "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                (game_id, seq, _dump(event)),
            )
            db.execute(
                "UPDATE games SET updated = ?, summary = ?, finished = ? WHERE id = ?",
                (_now(), _dump(summary), int(finished), game_id),
            )
            self._write_current(db, game_id, current)

    def set_current(self, game_id: int, current: Mapping[str, Any] | None) -> None:
        """Save (or clear) the roll on the table that has not been scored yet."""
        with self._transaction() as db:
            self._require(db, game_id)
            self._write_current(db, game_id, current)

    def load(self, game_id: int, *, events: bool = True) -> StoredGame:
        """The saved game; `events=False` skips the log (state reads need only the rest)."""
        _check_id(game_id)
        with self._lock:
            row = self._db.execute(
                "SELECT id, created, updated, settings, summary, finished FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise UnknownGameError(game_id)
            log_rows = self._db.execute(
                "SELECT body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall() if events else []
            current = self._db.execute(
                "SELECT body FROM current_rolls WHERE game_id = ?", (game_id,)
            ).fetchone()
        return StoredGame(
            id=row[0],
            created=row[1],
            updated=row[2],
            settings=json.loads(row[3]),
            summary=json.loads(row[4]),
            finished=bool(row[5]),
            events=tuple(json.loads(body) for (body,) in log_rows),
            current=json.loads(current[0]) if current else None,
        )

    def list_games(self, limit: int = MAX_PAGE) -> list[GameSummary]:
        """Games not archived, most recently played first."""
        return list(self.page(limit=limit).games)

    def page(self, *, status: str = "all", archived: bool = False, offset: int = 0,
             limit: int = MAX_PAGE) -> GamePage:
        """One page of games, most recently played first.

        `status` keeps the games being played, the finished ones or both;
        `archived` lists the archived games instead of the others.
        """
        if status not in LIST_STATUSES:
            raise ValueError(f"status {status!r}: expected one of {', '.join(LIST_STATUSES)}")
        where = ["archived IS NOT NULL" if archived else "archived IS NULL"]
        if status != "all":
            where.append("finished = 1" if status == "finished" else "finished = 0")
        clause = " AND ".join(where)
        with self._lock:
            total = self._db.execute(f"SELECT COUNT(*) FROM games WHERE {clause}").fetchone()[0]
            rows = self._db.execute(
                "SELECT id, created, updated, settings, summary, finished, archived FROM games "
                f"WHERE {clause} ORDER BY updated DESC, id DESC LIMIT ? OFFSET ?",
                (limit, offset),
            ).fetchall()
        games = tuple(_summary_of(row) for row in rows)
        return GamePage(games, int(total), offset, limit)

    def summary(self, game_id: int) -> GameSummary:
        """One game's line of the list (archived or not)."""
        _check_id(game_id)
        with self._lock:
            row = self._db.execute(
                "SELECT id, created, updated, settings, summary, finished, archived FROM games "
                "WHERE id = ?", (game_id,),
            ).fetchone()
        if row is None:
            raise UnknownGameError(game_id)
        return _summary_of(row)

    def set_archived(self, game_id: int, archived: bool) -> None:
        """Archive a game (hidden from the main list, kept whole) or bring it back.

        Archiving keeps the time it was archived; the game's own `updated` time,
        which orders the list, does not change.
        """
        with self._transaction() as db:
            self._require(db, game_id)
            db.execute("UPDATE games SET archived = ? WHERE id = ?",
                       (_now() if archived else None, game_id))

    def delete_game(self, game_id: int, *, forget: tuple[str, ...] = ()) -> None:
        """Remove one game: its events, its roll on the table and its row, in one transaction.

        Every statement names this game's id, so no other game is touched; a
        failure part-way rolls back and the game is still whole. `forget` names
        table settings that hold this game's id (the camera's game): each is
        cleared in the same transaction when it still names this game.
        """
        with self._transaction() as db:
            self._require(db, game_id)
            db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM current_rolls WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            for key in forget:
                db.execute("DELETE FROM table_settings WHERE key = ? AND value = ?",
                           (key, _dump(game_id)))

    def setting(self, key: str) -> Any:
        """A table-wide choice saved with `set_setting` (None when never set)."""
        with self._lock:
            row = self._db.execute(
                "SELECT value FROM table_settings WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        """Save a table-wide choice (None forgets it)."""
        with self._transaction() as db:
            if value is None:
                db.execute("DELETE FROM table_settings WHERE key = ?", (key,))
            else:
                db.execute(
                    "INSERT INTO table_settings (key, value) VALUES (?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, _dump(value)),
                )

    @staticmethod
    def _require(db: sqlite3.Connection, game_id: int) -> None:
        _check_id(game_id)
        if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise UnknownGameError(game_id)

    @staticmethod
    def _write_current(
        db: sqlite3.Connection, game_id: int, current: Mapping[str, Any] | None
    ) -> None:
        if current is None:
            db.execute("DELETE FROM current_rolls WHERE game_id = ?", (game_id,))
        else:
            db.execute(
                "INSERT INTO current_rolls (game_id, body) VALUES (?, ?) "
                "ON CONFLICT(game_id) DO UPDATE SET body = excluded.body",
                (game_id, _dump(current)),
            )

    # --- backup: every row out, and rows back in beside what is here --------------------

    def dump_rows(self) -> dict[str, Any]:
        """Every game (its row, its log, its roll on the table) and the table's settings,
        as stored: what a backup holds (`web.backup`)."""
        with self._lock:
            games = []
            for row in self._db.execute(
                    "SELECT id, created, updated, settings, summary, finished, archived "
                    "FROM games ORDER BY id").fetchall():
                game_id = row[0]
                events = [json.loads(body) for (body,) in self._db.execute(
                    "SELECT body FROM events WHERE game_id = ? ORDER BY seq", (game_id,))]
                current = self._db.execute(
                    "SELECT body FROM current_rolls WHERE game_id = ?", (game_id,)).fetchone()
                games.append({
                    "id": game_id, "created": row[1], "updated": row[2],
                    "settings": json.loads(row[3]), "summary": json.loads(row[4]),
                    "finished": bool(row[5]), "archived": row[6], "events": events,
                    "current": None if current is None else json.loads(current[0]),
                })
            settings = {key: json.loads(value) for key, value in self._db.execute(
                "SELECT key, value FROM table_settings ORDER BY key")}
        return {"games": games, "settings": settings}

    def has_game(self, game_id: int) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM games WHERE id = ?",
                                    (game_id,)).fetchone() is not None

    def insert_rows(self, games: Sequence[Mapping[str, Any]], settings: Mapping[str, Any],
                    ) -> list[int]:
        """Add backed-up games in one transaction, each under its own id when that id is
        free here, else under a new one; a setting is added only where none is kept.
        Nothing here is changed or removed. Returns each game's id here, in order."""
        ids = []
        with self._transaction() as db:
            for game in games:
                free = db.execute("SELECT 1 FROM games WHERE id = ?",
                                  (game["id"],)).fetchone() is None
                cursor = db.execute(
                    "INSERT INTO games (id, created, updated, settings, summary, finished, "
                    "archived) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game["id"] if free else None, game["created"], game["updated"],
                     _dump(game["settings"]), _dump(game["summary"]), int(game["finished"]),
                     game["archived"]))
                game_id = int(cursor.lastrowid or 0)
                db.executemany("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                               [(game_id, seq, _dump(e)) for seq, e in enumerate(game["events"])])
                if game["current"] is not None:
                    db.execute("INSERT INTO current_rolls (game_id, body) VALUES (?, ?)",
                               (game_id, _dump(game["current"])))
                ids.append(game_id)
            for key, value in settings.items():
                db.execute("INSERT OR IGNORE INTO table_settings (key, value) VALUES (?, ?)",
                           (key, _dump(value)))
        return ids
