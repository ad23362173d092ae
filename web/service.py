"""The table's games: engine actions, committed to the store, then announced to every phone.

One lock serialises every change (phones tapping at once, the camera thread).
An action runs on the engine, which either refuses it (a GameError naming why,
nothing changed) or appends an event; the event is committed to SQLite before
anyone hears of it, and if the commit fails the in-memory game is dropped and
replayed from the store, so memory never runs ahead of the disk.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorer import (
    DEFAULT_FIRST_FINISH,
    DEFAULT_WINNER_RULE,
    ROLLS_PER_TURN,
    CardGame,
    CardWinnerRule,
    Die,
    FirstFinishRule,
    Game,
    GameKind,
    InvalidFirstFinishRuleError,
    InvalidWinnerRuleError,
    Roll,
    replay_log,
)
from scorer.dice_set import PRINTED_DICE, DiceSet
from scorer.game import CorrectionPreview
from web.commands import (
    CARD_ACTIONS,
    DICE_ACTIONS,
    ENDS_TURN,
    BadActionError,
    CorrectHand,
    CorrectTurn,
    FailTurn,
    GameAction,
    MissingGuardError,
    PlayHand,
    PreviewCorrection,
    RollOff,
    ScoreTurn,
    Seen,
    Undo,
)
from web.game_summary import summary_of
from web.game_view import CardGameView, GameDeleted, GamesChanged, GameState, GameView
from web.live import Hub
from web.store import MAX_PAGE, GamePage, GameStore, GameSummary, UnknownGameError
from web.table_dice import TableDice
from web.table_roll import RollSource, TableRoll

log = logging.getLogger(__name__)

#: Hub topic of the list of games (new game, game over).
GAMES_TOPIC = "games"
#: The table setting that names the game the camera feeds.
CAMERA_GAME = "camera_game"
#: The table setting that holds the last roll id handed out (ids only grow).
LAST_ROLL_ID = "last_roll_id"


class GameOverError(ValueError):
    """A roll or camera choice for a game that is over (the rules say no: 409)."""


class StaleVersionError(ValueError):
    """An action sent for an older state of the game than the current one (409)."""


class UnreadableDiceError(ValueError):
    """Score refused: the roll on the table has dice the camera could not read (409)."""


class UnconfirmedDiceError(ValueError):
    """Score refused: the roll has dice the camera was unsure of, or faces the dice cannot
    show together, and the request did not say they were checked (`"confirmed": true`; 409)."""


#: Told of each corrected die: (game id, roll before, die index, new face, roll after).
DieCorrectedListener = Callable[[int, TableRoll, int, Die, TableRoll], None]
#: Told of each roll on the table scored as it lies: (game id, the roll scored).
RollScoredListener = Callable[[int, TableRoll], object]


def game_topic(game_id: int) -> str:
    return f"game:{game_id}"


#: Each action's name in the API (refusals name it).
_NAMES: dict[type[GameAction], str] = {
    **{kind: name for name, kind in DICE_ACTIONS.items()},
    **{kind: name for name, kind in CARD_ACTIONS.items()},
}


def _run(game: Game | CardGame, action: GameAction, current: Roll | None) -> None:
    """The engine call an action stands for (the game's kind checked by the caller)."""
    if isinstance(game, CardGame):
        if isinstance(action, PlayHand):
            game.play_hand(action.hand)
        elif isinstance(action, CorrectHand):
            game.correct_hand(action.index, action.hand)
        elif isinstance(action, Undo):
            game.undo()
        return
    if isinstance(action, ScoreTurn):
        roll = action.roll or current
        if roll is None:
            raise BadActionError("no roll to score: send 'roll' or enter the roll first")
        game.score_turn(action.player, roll)
    elif isinstance(action, FailTurn):
        game.fail_turn(action.player, action.roll or current)
    elif isinstance(action, Undo):
        game.undo()
    elif isinstance(action, RollOff):
        game.roll_off(action.player, action.value)
    elif isinstance(action, CorrectTurn):
        game.correct_turn(action.turn, action.roll, action.made)


def actions_of(game: Game | CardGame) -> dict[str, type[GameAction]]:
    """The actions a game of this kind takes, by name."""
    return CARD_ACTIONS if isinstance(game, CardGame) else DICE_ACTIONS


class GameService:
    """Every game at the table: create, act, set the current roll, and the state phones see."""

    def __init__(self, store: GameStore, hub: Hub, dice: TableDice | None = None) -> None:
        """`dice`: the table's dice set, which rolls are checked against (impossible faces);
        the printed table when not given."""
        self.store = store
        self.hub = hub
        self.dice = dice or TableDice(PRINTED_DICE)
        self.dice.on_swap(lambda _: self._announce_dice_changed())
        self._lock = threading.RLock()
        self._games: dict[int, Game | CardGame] = {}
        self._turn_listeners: list[Callable[[int], None]] = []
        self._die_listeners: list[DieCorrectedListener] = []
        self._scored_listeners: list[RollScoredListener] = []
        #: Whether a camera runs at this table (the app sets it); only then is a game fed.
        self.camera_attached = False
        self._camera_game: int | None = store.setting(CAMERA_GAME)

    def on_turn_end(self, listener: Callable[[int], None]) -> None:
        """Call `listener(game_id)` after a turn is scored or failed (the camera starts anew)."""
        self._turn_listeners.append(listener)

    def on_die_corrected(self, listener: DieCorrectedListener) -> None:
        """Call `listener(game_id, before, index, die, after)` after a die of the roll on the
        table is corrected (the dice profile learns the camera's crop of it). A listener
        that fails is logged; the correction stands."""
        self._die_listeners.append(listener)

    def on_roll_scored(self, listener: RollScoredListener) -> None:
        """Call `listener(game_id, table_roll)` after a turn is scored with the roll on the
        table as it lies (its marked dice, `unsure`, those the players checked or
        corrected: the dice profile learns the whole roll; a die doubted for its colour
        alone and taken unchecked where its colour could not change the score is not
        marked there). A
        roll sent with the score instead is not the table's, and is not told. A listener
        that fails is logged; the score stands."""
        self._scored_listeners.append(listener)

    # --- reading ---------------------------------------------------------------------

    def _game(self, game_id: int) -> Game | CardGame:
        game = self._games.get(game_id)
        if game is None:
            stored = self.store.load(game_id)
            game = replay_log(stored.events)  # dice or cards, by the log's first event
            self._games[game_id] = game
        return game

    def _require_dice(self, game_id: int, what: str) -> None:
        """Rolls and the camera are for dice games; a card game refuses them by name."""
        if isinstance(self._game(game_id), CardGame):
            raise BadActionError(f"game {game_id} is a card game: {what}")

    def view(self, game_id: int) -> GameView | CardGameView:
        """One game now, typed: what callers inside the scorepad query (a frozen snapshot)."""
        with self._lock:
            stored = self.store.load(game_id, events=False)
            game = self._game(game_id)
            if isinstance(game, CardGame):
                return CardGameView.of(game, game_id, created=stored.created,
                                       updated=stored.updated)
            return GameView.of(
                game, game_id, created=stored.created, updated=stored.updated,
                camera=self.camera_attached and self._camera_game == game_id,
                table_roll=_table_roll(stored.current),
            )

    def state(self, game_id: int) -> GameState:
        """Everything a phone draws for one game (also each live update), typed."""
        return GameState(self.view(game_id), self.dice.current)

    def list_games(self) -> list[GameSummary]:
        return list(self.store.list_games())

    def games_page(self, *, status: str = "all", archived: bool = False, offset: int = 0,
                   limit: int = MAX_PAGE) -> GamePage:
        """A page of the list of games (most recently played first); see GameStore.page."""
        return self.store.page(status=status, archived=archived, offset=offset, limit=limit)

    def preview_correction(self, game_id: int, asked: PreviewCorrection
                           ) -> tuple[int, CorrectionPreview]:
        """What a correction of an earlier turn would change, changing nothing: the game's
        version it was worked out for, and the engine's CorrectionPreview. Refused like the
        correction itself when that would be refused."""
        with self._lock:
            game = self._game(game_id)
            if isinstance(game, CardGame):
                raise BadActionError(f"game {game_id} is a card game: correct a hand instead")
            _check_version(asked.version, game)
            return len(game.events), game.preview_correction(asked.turn, asked.roll, asked.made)

    def camera_game(self) -> int | None:
        """The game the camera's readings go to: the one chosen for it, while it is not over.

        None until a game is chosen: a camera never guesses, since a roll put on
        the wrong game would replace the roll typed there.
        """
        with self._lock:
            game_id = self._camera_game
            if game_id is None:
                return None
            try:
                return None if self.store.load(game_id, events=False).finished else game_id
            except UnknownGameError:
                return None

    def use_camera(self, game_id: int | None) -> None:
        """Feed the camera's rolls to this game from now on (None: to no game); kept on disk."""
        with self._lock:
            if game_id is not None:
                self._require_dice(game_id, "the camera reads dice, not cards")
            if game_id is not None and self.store.load(game_id, events=False).finished:
                raise GameOverError(f"game {game_id} is over: the camera cannot feed it")
            previous, self._camera_game = self._camera_game, game_id
            self.store.set_setting(CAMERA_GAME, game_id)
            states = [self.state(changed) for changed in dict.fromkeys((previous, game_id))
                      if changed is not None and self._exists(changed)]
        log.info("the camera feeds %s", "no game" if game_id is None else f"game {game_id}")
        for state in states:
            self._announce(state)

    def _exists(self, game_id: int) -> bool:
        try:
            self.store.load(game_id, events=False)
        except UnknownGameError:
            return False
        return True

    # --- the list of games: archive, restore, delete ---------------------------------------

    def archive(self, game_id: int, archived: bool = True) -> GameSummary:
        """Hide a game from the main list (kept whole, playable) or bring it back; its line."""
        with self._lock:
            self.store.set_archived(game_id, archived)
            summary = self.store.summary(game_id)
        log.info("game %d %s", game_id, "archived" if archived else "restored")
        self.hub.publish(GAMES_TOPIC, "games", GamesChanged(game_id))
        return summary

    def delete(self, game_id: int) -> None:
        """Delete one game for good: its log, its roll and its line, nothing else.

        The camera stops feeding it (in the same transaction); phones showing it
        hear `deleted` on its stream.
        """
        with self._lock:
            self.store.delete_game(game_id, forget=(CAMERA_GAME,))
            self._games.pop(game_id, None)
            if self._camera_game == game_id:
                self._camera_game = None
        log.info("game %d deleted", game_id)
        self.hub.publish(game_topic(game_id), "deleted", GameDeleted(game_id))
        self.hub.publish(GAMES_TOPIC, "games", GamesChanged(game_id))

    # --- changing --------------------------------------------------------------------

    def create(self, players: Sequence[str], *, solitaire: bool = False, roll_off: bool = False,
               first_finish: str = DEFAULT_FIRST_FINISH.value) -> int:
        """Start a game; the players' order is the play order unless a roll-off decides it.

        `first_finish` names the printing's reading of the First Finish Bonus.
        """
        if solitaire and roll_off:
            raise BadActionError("fields 'solitaire' and 'roll_off' cannot both be true: "
                                 "a solitaire game has one player and no roll-off")
        try:
            rule = FirstFinishRule.from_value(first_finish)
        except InvalidFirstFinishRuleError as error:
            raise BadActionError(f"field 'first_finish': {error}") from error
        game = Game.new(players, solitaire=solitaire, roll_off=roll_off, first_finish=rule)
        settings = {"players": list(players), "solitaire": solitaire, "roll_off": roll_off,
                    "first_finish": rule.value}
        return self._start(game, settings, "game")

    def create_cards(self, players: Sequence[str], *,
                     winner: str = DEFAULT_WINNER_RULE.value) -> int:
        """Start a Phase 10 card game (seat order as given); `winner` names who wins."""
        try:
            rule = CardWinnerRule.from_value(winner)
        except InvalidWinnerRuleError as error:
            raise BadActionError(f"field 'winner': {error}") from error
        game = CardGame.new(players, winner=rule)
        settings = {"game": GameKind.CARDS.value, "players": list(players),
                    "winner": rule.value}
        return self._start(game, settings, "card game")

    def _start(self, game: Game | CardGame, settings: dict[str, Any], label: str) -> int:
        """Store a new game's settings and log, keep it in memory, tell the phones."""
        with self._lock:
            game_id = self.store.create_game(
                settings, [event.to_dict() for event in game.events], summary_of(game)
            )
            self._games[game_id] = game
        log.info("%s %d started: %s", label, game_id, ", ".join(game.players))
        self.hub.publish(GAMES_TOPIC, "games", GamesChanged(game_id))
        return game_id

    def act(self, game_id: int, action: GameAction) -> GameState:
        """Run one action; the event is committed before this returns the new state."""
        with self._lock:
            stored = self.store.load(game_id, events=False)
            game = self._game(game_id)
            actions = actions_of(game)
            name = _NAMES[type(action)]
            if actions.get(name) is not type(action):
                kind = "a card game" if isinstance(game, CardGame) else "a dice game"
                raise BadActionError(f"game {game_id} is {kind}, which has no action {name!r}: "
                                     f"expected one of {', '.join(actions)}")
            table_roll = _table_roll(stored.current)
            _check_seen(action.seen, game, table_roll)
            _check_readable(action, table_roll)
            phase = _active_phase(game)  # the phase scored, before the turn moves on
            before = len(game.events)
            _run(game, action, None if table_roll is None else table_roll.scorable_roll())
            new_events = game.events[before:]
            try:  # after the rules' own refusals (not your turn, phase not made): theirs first
                if isinstance(action, ScoreTurn) and not action.confirmed:
                    _check_confirmed(action.roll, table_roll, self.dice.current, phase)
            except BaseException:
                self._games.pop(game_id, None)  # the engine took it: replay from the disk
                raise
            ends_turn = type(action) in ENDS_TURN
            keep_current = None if ends_turn or table_roll is None else table_roll.to_dict()
            try:
                for offset, event in enumerate(new_events):
                    self.store.append_event(
                        game_id, before + offset, event.to_dict(),
                        summary=summary_of(game), finished=bool(game.is_over),
                        current=keep_current,
                    )
            except BaseException:
                self._games.pop(game_id, None)  # replay from what the disk holds
                raise
            state = self.state(game_id)
        log.info("game %d: %s by %s", game_id, name, getattr(action, "player", "-"))
        if ends_turn:
            for listener in self._turn_listeners:
                listener(game_id)
        self._announce(state)
        if isinstance(action, ScoreTurn) and table_roll is not None and new_events:
            self._tell_scored(game_id, action, table_roll.as_checked(phase))
        return state

    def _tell_scored(self, game_id: int, action: ScoreTurn, table_roll: TableRoll) -> None:
        """Tell the roll-scored listeners when the score took the roll on the table (marked
        where the players were asked to check it, `TableRoll.as_checked`)."""
        if action.roll is not None and action.roll != table_roll.roll:
            return  # the players sent another roll: the table's was not what they scored
        for listener in self._scored_listeners:
            try:
                listener(game_id, table_roll)
            except Exception:  # noqa: BLE001 - learning from a roll never undoes its score
                log.exception("game %d: a listener failed on the scored roll", game_id)

    def set_roll(
        self,
        game_id: int,
        roll: Roll,
        *,
        roll_number: int | None = None,
        source: RollSource = RollSource.HAND,
        unsure: tuple[int, ...] = (),
        flags: tuple[str, ...] = (),
        replace: bool = False,
        unreadable: int = 0,
        seen: Seen | None = None,
        value_unsure: tuple[int, ...] | None = None,
        likely: Mapping[int, Sequence[Die]] | None = None,
    ) -> GameState:
        """Put a roll on the table (typed, tapped or read); the verdict comes with the state.

        Without a roll number, a new roll is the one after the current one (1/3 at
        the start of a turn, never past 3/3). With `replace`, the roll on the table
        is edited instead (a typo fixed): it keeps its roll number, since no dice
        were thrown, and the advice keeps counting the same rolls left. `unreadable`
        counts dice the camera found but could not read: the roll cannot be scored
        until each is fixed (`correct_die`); `value_unsure` are the dice whose value the
        camera doubted, judged apart (`TableRoll.to_check`), and `likely` the other faces
        it found each doubted die may show (`Reading.likely_faces`). `seen` is a phone's request
        body: its `version` and `roll_id` must be the game's and the table's now (the
        camera and a photo, which show the dice as they lie, send none).
        """
        if roll_number is not None and not 1 <= roll_number <= ROLLS_PER_TURN:
            raise BadActionError(f"roll_number {roll_number} is outside 1-{ROLLS_PER_TURN}")
        with self._lock:
            stored = self.store.load(game_id, events=False)
            self._require_dice(game_id, "there are no dice to put on the table")
            on_table = _table_roll(stored.current)
            if seen is not None:
                _check_seen(seen, self._game(game_id), on_table)
            if stored.finished:
                raise GameOverError(f"game {game_id} is over: no more rolls")
            previous = 0 if on_table is None else on_table.roll_number
            if roll_number is None and replace:
                roll_number = max(previous, 1)
            elif roll_number is None:
                roll_number = min(previous + 1, ROLLS_PER_TURN)
            table_roll = TableRoll.new(
                roll, roll_number=roll_number, source=source, unsure=unsure, flags=flags,
                roll_id=self._next_roll_id(), unreadable=unreadable, value_unsure=value_unsure,
                likely=likely,
            )
            self.store.set_current(game_id, table_roll.to_dict())
            state = self.state(game_id)
        self._announce(state)
        return state

    def correct_die(self, game_id: int, index: int, die: Die,
                    seen: Seen | None = None) -> GameState:
        """Replace one die of the current roll (a misread die); it is no longer unsure.

        Indices past the dice read are the dice the camera could not read (they come
        last in `current.dice`): fixing one adds its face to the roll.
        """
        with self._lock:
            on_table = _table_roll(self.store.load(game_id, events=False).current)
            if seen is not None:
                _check_seen(seen, self._game(game_id), on_table)
            if on_table is None:
                raise BadActionError("there is no roll on the table to correct")
            if not 0 <= index < on_table.dice_count:
                raise BadActionError(
                    f"die index {index} is outside 0-{on_table.dice_count - 1}")
            corrected = on_table.with_die(index, die)  # an impossible roll is refused here
            table_roll = dataclasses.replace(corrected, roll_id=self._next_roll_id())
            self.store.set_current(game_id, table_roll.to_dict())
            state = self.state(game_id)
        self._announce(state)
        for listener in self._die_listeners:
            try:
                listener(game_id, on_table, index, die, table_roll)
            except Exception:  # noqa: BLE001 - learning from a correction never undoes it
                log.exception("game %d: a listener failed on the corrected die %d", game_id, index)
        return state

    def _next_roll_id(self) -> int:
        """A new id for a roll put on the table: never handed out before, at this table."""
        roll_id = int(self.store.setting(LAST_ROLL_ID) or 0) + 1
        self.store.set_setting(LAST_ROLL_ID, roll_id)
        return roll_id

    def clear_roll(self, game_id: int, seen: Seen | None = None) -> GameState:
        """Take the roll off the table; `seen` as for `set_roll`."""
        with self._lock:
            stored = self.store.load(game_id, events=False)
            if seen is not None:
                _check_seen(seen, self._game(game_id), _table_roll(stored.current))
            self.store.set_current(game_id, None)
            state = self.state(game_id)
        self._announce(state)
        return state

    def _announce_dice_changed(self) -> None:
        """Send the state of each game being played again (the latest page): its roll is
        checked against the new dice (impossible faces), so the phones' marks change at once."""
        playing = [game.id for game in self.store.page(status="playing").games]
        for game_id in playing:
            try:
                state = self.state(game_id)
            except UnknownGameError:  # deleted since
                continue
            self.hub.publish(game_topic(game_id), "state", state)

    def _announce(self, state: GameState) -> None:
        self.hub.publish(game_topic(state.id), "state", state)
        if state.is_over or state.version <= 1:
            self.hub.publish(GAMES_TOPIC, "games", GamesChanged(state.id))


def _table_roll(stored: Mapping[str, Any] | None) -> TableRoll | None:
    """The roll on the table from its stored form (None: the table is empty)."""
    return None if stored is None else TableRoll.from_dict(stored)


def _check_seen(seen: Seen, game: Game | CardGame, table_roll: TableRoll | None) -> None:
    """Every change a phone asks for names what it showed: the game's `version`, and for a
    dice game the `roll_id` of the roll on the table (null for none). Both are required;
    a screen older than the game or the table is refused (StaleVersionError, 409)."""
    dice = not isinstance(game, CardGame)
    _check_version(seen.version, game)  # what was sent is checked first: a stale screen: 409
    if dice and seen.roll_id_sent:
        _check_roll_id(seen.roll_id, table_roll)
    if seen.version is None or (dice and not seen.roll_id_sent):
        wanted = "'version' and 'roll_id'" if dice else "'version'"
        raise MissingGuardError(
            f"this change must say what the phone showed: send {wanted} from the game's "
            "state (GET /api/games/<id>), so that a change made meanwhile on another phone "
            "is not overwritten; reload the page and try again")


def _check_version(version: int | None, game: Game | CardGame) -> None:
    """An optional guard against two phones acting on the same stale screen."""
    if version is not None and version != len(game.events):
        raise StaleVersionError(
            "the game moved on on another phone just before this: the score sheet now "
            "shows it, so look again and tap once more if it is still wanted"
        )


def _check_readable(action: GameAction, table_roll: TableRoll | None) -> None:
    """Scoring the roll on the table waits until every die the camera could not read is fixed."""
    if not isinstance(action, ScoreTurn) or action.roll is not None or table_roll is None:
        return
    count = table_roll.unreadable
    if count:
        first = len(table_roll.roll.dice)
        which = ", ".join(str(first + i + 1) for i in range(count))
        raise UnreadableDiceError(
            f"the camera could not read {'a die' if count == 1 else f'{count} dice'} of this "
            f"roll (die {which}, shown as ?): tap it and say what it shows before scoring")


def _active_phase(game: Game | CardGame) -> int | None:
    """The active player's phase (None: a card game, or no phase active)."""
    return None if isinstance(game, CardGame) else game.active_phase


def _check_confirmed(sent: Roll | None, table_roll: TableRoll | None,
                     dice_set: DiceSet, phase: int | None = None) -> None:
    """Scoring a roll with dice to check waits for the players' word that they checked them.

    Dice to check: those the camera was unsure of whose true face could change `phase`'s
    score (of the roll on the table, `TableRoll.to_check`), and faces the ten dice (of
    `dice_set`) cannot show together
    (of whichever roll is scored, `sent` or the table's). The players confirm by
    correcting the dice (each corrected die is sure; a fixed face makes the roll possible
    again) or by sending `"confirmed": true`.
    """
    roll = sent if sent is not None else None if table_roll is None else table_roll.roll
    if roll is None:
        return  # nothing to score: the engine says so
    problems = []
    to_check = () if table_roll is None else table_roll.to_check(phase)
    if sent is None and to_check:
        unsure = sorted(to_check)
        names = ", ".join(f"{i + 1} ({roll.dice[i]})" for i in unsure if i < len(roll.dice))
        problems.append(f"the camera was unsure of {'die' if len(unsure) == 1 else 'dice'} "
                        f"{names}")
    impossible = dice_set.impossible(roll)
    if impossible:
        names = ", ".join(f"{i + 1} ({roll.dice[i]})" for i in impossible)
        problems.append(f"the ten dice cannot show {'die' if len(impossible) == 1 else 'dice'} "
                        f"{names} together")
    if problems:
        raise UnconfirmedDiceError(
            "check the roll before scoring: " + "; ".join(problems)
            + ". Tap a marked die to correct it, or confirm the dice are right "
            "(send \"confirmed\": true)")


def _check_roll_id(sent: int | None, table_roll: TableRoll | None) -> None:
    """The guard that the roll acted on is the one the phone showed (`_check_seen`).

    `version` counts game events only; a roll put on the table (typed, read,
    corrected) changes the roll id, so "take score" from a screen that showed
    an older roll is refused instead of scoring a roll nobody looked at.
    """
    table = None if table_roll is None else table_roll.roll_id
    if sent != table:
        shown = "no roll" if sent is None else f"roll {sent}"
        now = "no roll" if table is None else f"roll {table}"
        raise StaleVersionError(
            f"the roll on the table has changed ({now} is there, you saw {shown}): "
            "check the roll and try again"
        )
