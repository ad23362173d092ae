"""One game as the service answers for it: a frozen snapshot, taken under the service's lock.

Callers read typed values here (the roll on the table, the active phase)
instead of the JSON state phones get; `web.presenters` turns a view into that
JSON. A snapshot holds no engine object, so it stays true after the lock is
let go, whatever the next action changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scorer import (
    CardGame,
    CardScorepad,
    CardWinnerRule,
    FirstFinishRule,
    Game,
    HandRecord,
    Scorepad,
    TurnRecord,
)
from scorer.dice_set import DiceSet
from web.table_roll import TableRoll
from web.undo_words import undo_words


@dataclass(frozen=True)
class GameView:
    """A dice game: its sheet, turns, whose turn and which phase, and the roll on the table."""

    id: int
    created: str
    updated: str
    version: int
    players: tuple[str, ...]
    solitaire: bool
    play_order: tuple[str, ...]
    round: int
    roll_off_pending: tuple[str, ...]
    roll_off_throws: Mapping[str, tuple[int, ...]]
    first_finish: FirstFinishRule
    rules: int
    active_player: str | None
    active_phase: int | None
    """The phase the active player attempts; None once over or while the roll-off is on."""
    is_over: bool
    winners: tuple[str, ...]
    scorepad: Scorepad
    turns: tuple[TurnRecord, ...]
    camera: bool
    """Whether the table's camera feeds this game."""
    table_roll: TableRoll | None
    undo: str | None = None
    """What "Undo" would take back, in words (`web.undo_words`); None: nothing."""

    @classmethod
    def of(cls, game: Game, game_id: int, *, created: str, updated: str, camera: bool,
           table_roll: TableRoll | None) -> GameView:
        over = bool(game.is_over)
        return cls(
            id=game_id,
            created=created,
            updated=updated,
            version=len(game.events),
            players=tuple(game.players),
            solitaire=bool(game.solitaire),
            play_order=tuple(game.play_order),
            round=game.round,
            roll_off_pending=tuple(game.roll_off_pending),
            roll_off_throws=dict(game.roll_off_throws),
            first_finish=game.first_finish,
            rules=game.rules,
            active_player=None if over else game.active_player,
            active_phase=None if over or game.roll_off_pending else game.active_phase,
            is_over=over,
            winners=tuple(game.winners) if over else (),
            scorepad=game.scorepad,
            turns=tuple(game.turns),
            camera=camera and not over,
            table_roll=table_roll,
            undo=undo_words(game),
        )


@dataclass(frozen=True)
class CardGameView:
    """A card game: its sheet and hands (no dice, rolls or camera)."""

    id: int
    created: str
    updated: str
    version: int
    players: tuple[str, ...]
    hand: int
    """The number of the next hand (of the last one once the game is over)."""
    winner_rule: CardWinnerRule
    is_over: bool
    winners: tuple[str, ...]
    scorepad: CardScorepad
    hands: tuple[HandRecord, ...]

    @classmethod
    def of(cls, game: CardGame, game_id: int, *, created: str, updated: str) -> CardGameView:
        return cls(
            id=game_id,
            created=created,
            updated=updated,
            version=len(game.events),
            players=tuple(game.players),
            hand=game.hand_number,
            winner_rule=game.winner_rule,
            is_over=bool(game.is_over),
            winners=tuple(game.winners),
            scorepad=game.scorepad,
            hands=tuple(game.hands),
        )


@dataclass(frozen=True)
class GameState:
    """A game as the phones see it: its view, and the dice set the roll on the table is
    checked against (impossible faces), both as they were when it was taken."""

    view: GameView | CardGameView
    dice_set: DiceSet

    @property
    def id(self) -> int:
        return self.view.id

    @property
    def version(self) -> int:
        return self.view.version

    @property
    def is_over(self) -> bool:
        return self.view.is_over

    @property
    def roll_id(self) -> int | None:
        """The id of the roll on the table (None: none, or a card game)."""
        view = self.view
        if isinstance(view, GameView) and view.table_roll is not None:
            return view.table_roll.roll_id
        return None


@dataclass(frozen=True)
class GamesChanged:
    """The list of games changed (a game started, ended, was archived or deleted)."""

    game_id: int


@dataclass(frozen=True)
class GameDeleted:
    """A game was deleted: phones showing it leave it."""

    game_id: int
