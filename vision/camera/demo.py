"""A demo camera: a rendered dice tray where turns are played, for trying the app without dice.

Each turn has up to three rolls like a real one: roll 1 throws all ten dice, rolls
2 and 3 keep some dice where they lie and throw the rest. Thrown dice tumble
across the mat for about a second (moving, spinning, motion-blurred, sometimes
with the thrower's hand in view), then rest. Only moving frames are rendered; a
resting table is rendered once and repeated, so the demo costs almost nothing
between rolls and can run beside the web server.

Two ways to play: `frames()` throws on a timer forever (tests, benchmarks), and
`frames_on_request()` shows an empty tray and throws only when `request_throw()`
asks, which is what the scorepad's demo camera does: a table that rolls by
itself would replace the rolls people type by hand.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np

from scorer import ROLLS_PER_TURN
from scorer.dice import PHYSICAL_DICE, Die, Roll
from vision.camera.camera_contract import DemoBusyError, DiceThrower
from vision.camera.frame_source import FrameSource

if TYPE_CHECKING:
    from vision.synth import Conditions, Placement

logger = logging.getLogger(__name__)

DEMO_SIZE: Final[tuple[int, int]] = (960, 720)
DEMO_FPS: Final[float] = 4.0
_PLACE_TRIES: Final[int] = 30


@dataclass(frozen=True)
class DemoThrow:
    """One throw asked of the demo table: which roll of the turn, and the faces to leave lying.

    Each face in `keep` sets aside one die showing it (turned up on a die that
    has it when none shows it); every other die is thrown. Roll 1 throws all ten.
    """

    roll_number: int
    keep: tuple[Die, ...] = ()


@dataclass(frozen=True)
class DemoFrame:
    """One frame of the demo table and the truth behind it (for tests and the demo page)."""

    image: np.ndarray
    moving: bool
    roll: Roll  # the faces showing (the final faces while dice are still tumbling)
    roll_number: int  # 1..3 within the turn
    hand: bool


class DemoTable:
    """The simulated table: an endless sequence of DemoFrames, at `fps` frames a second."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        size: tuple[int, int] = DEMO_SIZE,
        fps: float = DEMO_FPS,
        rest_seconds: float = 5.0,
        roll_seconds: float = 1.2,
        hand_share: float = 0.4,
    ) -> None:
        from vision.synth import random_conditions  # the renderer: only for the demo

        self.rng = np.random.default_rng(seed)
        self.size = size
        self.rest_frames = max(1, round(rest_seconds * fps))
        self.roll_frames = max(2, round(roll_seconds * fps))
        self.hand_share = hand_share
        conditions = random_conditions(self.rng, size)
        # A steady camera: no JPEG blocks or defocus that change from frame to frame.
        self.conditions = _steady(conditions)
        self._faces: dict[int, Die] = {}  # physical die index -> face up
        self._placements: dict[int, Placement] = {}  # physical die index -> where it lies
        self._requests: queue.Queue[DemoThrow] = queue.Queue()
        self._busy = threading.Lock()  # held from a request until its dice rest
        self._resting: tuple[np.ndarray, int] | None = None  # the still picture, roll number

    def request_throw(self, throw: DemoThrow) -> None:
        """Ask `frames_on_request()` for one throw; DemoBusyError while one is under way."""
        if not 1 <= throw.roll_number <= ROLLS_PER_TURN:
            raise ValueError(f"roll number {throw.roll_number} is outside 1-{ROLLS_PER_TURN}")
        if not self._busy.acquire(blocking=False):
            raise DemoBusyError("the demo dice are still rolling")
        self._requests.put(throw)

    @property
    def throwing(self) -> bool:
        """Whether a requested throw has not come to rest yet."""
        return self._busy.locked()

    def frames_on_request(self) -> Iterator[DemoFrame]:
        """The table at rest (empty at first) until a throw is requested; then that throw."""
        while True:
            try:
                throw = self._requests.get_nowait()
            except queue.Empty:
                yield self._still_frame()
                continue
            try:
                thrown = self._kept_back(throw) if throw.roll_number > 1 else self._all()
                yield from self._throw(thrown, throw.roll_number)
                yield self._still_frame(throw.roll_number)
            finally:
                self._busy.release()

    def _still_frame(self, roll_number: int | None = None) -> DemoFrame:
        """The resting table, rendered once and repeated (again after a throw: `roll_number`)."""
        if self._resting is None or roll_number is not None:
            placements = [self._placements[i] for i in sorted(self._faces)]
            image = self._render(placements, 0.0, False)
            image.setflags(write=False)
            number = roll_number or (self._resting[1] if self._resting else 1)
            self._resting = (image, number)
        image, number = self._resting
        return DemoFrame(image, False, self._roll(), number, False)

    def _all(self) -> list[int]:
        return list(range(len(PHYSICAL_DICE)))

    def _kept_back(self, throw: DemoThrow) -> list[int]:
        """Set aside one die for each kept face; the dice to throw are the others.

        A die already showing the face is left where it lies. A kept face that no
        die shows (the roll on the scorepad was typed or corrected by hand) is
        turned up on a free die that has it, so the table agrees with the roll
        being played on; a face no free die has is dropped. Keeping all ten
        throws all ten (a throw moves at least one die).
        """
        from vision.synth import Placement

        free = set(self._all())
        unmatched = []
        for face in throw.keep:
            lying = next((i for i in sorted(free) if self._faces.get(i) == face), None)
            if lying is None:
                unmatched.append(face)
            else:
                free.discard(lying)
        for face in unmatched:
            index = next((i for i in sorted(free) if face in PHYSICAL_DICE[i].faces), None)
            if index is None:
                continue
            free.discard(index)
            self._faces[index] = face
            where = self._placements.get(index)
            if where is None:
                self._placements.update(self._place([index]))
            else:
                self._placements[index] = Placement(face, where.centre, where.angle, where.tilt)
        return sorted(free) or self._all()

    def frames(self) -> Iterator[DemoFrame]:
        """Turns forever: roll 1 of all dice, then rolls 2 and 3 of some of them."""
        while True:
            for roll_number in range(1, ROLLS_PER_TURN + 1):
                thrown = self._choose_thrown(roll_number)
                yield from self._throw(thrown, roll_number)
                yield from self._rest(roll_number)

    def _choose_thrown(self, roll_number: int) -> list[int]:
        """All ten dice on roll 1; afterwards a random part of them (at least one)."""
        everyone = list(range(len(PHYSICAL_DICE)))
        if roll_number == 1 or not self._faces:
            return everyone
        count = int(self.rng.integers(1, len(everyone)))
        return sorted(int(i) for i in self.rng.choice(everyone, size=count, replace=False))

    def _roll(self) -> Roll:
        return Roll(tuple(self._faces[i] for i in sorted(self._faces)))

    def _throw(self, thrown: list[int], roll_number: int) -> Iterator[DemoFrame]:
        from vision.synth import Placement

        for index in thrown:
            faces = PHYSICAL_DICE[index].faces
            self._faces[index] = faces[int(self.rng.integers(len(faces)))]
        finals = self._place(thrown)
        edge = self.conditions.scale
        width, height = self.size
        start_side = self.rng.uniform(-1, 1, 2) * np.array([width, height]) * 0.6
        hand = bool(self.rng.random() < self.hand_share)
        spins = {i: float(self.rng.uniform(180, 720)) * self.rng.choice([-1, 1]) for i in thrown}
        for step in range(self.roll_frames):
            progress = (step + 1) / (self.roll_frames + 1)
            ease = 1 - (1 - progress) ** 2  # fast at first, settling at the end
            placements = []
            for index in sorted(self._faces):
                if index not in finals:
                    placements.append(self._placements[index])
                    continue
                final = finals[index]
                centre = np.asarray(final.centre) + start_side * (1 - ease)
                centre = np.clip(centre, edge, np.array([width, height]) - edge)
                faces = PHYSICAL_DICE[index].faces
                tumbling = faces[int(self.rng.integers(len(faces)))]
                angle = final.angle + spins[index] * (1 - ease)
                placements.append(Placement(tumbling, (float(centre[0]), float(centre[1])), angle))
            blur = float(np.hypot(*start_side) * (1 - progress) / self.roll_frames * 0.5)
            image = self._render(placements, blur, hand and step < self.roll_frames // 2)
            yield DemoFrame(image, True, self._roll(), roll_number, hand)
        self._placements.update(finals)

    def _rest(self, roll_number: int) -> Iterator[DemoFrame]:
        placements = [self._placements[i] for i in sorted(self._faces)]
        image = self._render(placements, 0.0, False)
        image.setflags(write=False)
        for _ in range(self.rest_frames):
            yield DemoFrame(image, False, self._roll(), roll_number, False)

    def _place(self, thrown: list[int]) -> dict[int, Placement]:
        """Resting places for the thrown dice, clear of each other and of the dice lying."""
        from vision.synth import Placement, random_placements

        taken = [self._placements[i].centre for i in self._placements if i not in thrown]
        clearance = 1.5 * self.conditions.scale
        finals: dict[int, Placement] = {}
        for index in thrown:
            spot = None
            for _ in range(_PLACE_TRIES):
                placed = random_placements(
                    self.rng, [self._faces[index]], self.conditions, self.size
                )
                if placed and all(
                    np.hypot(placed[0].centre[0] - x, placed[0].centre[1] - y) >= clearance
                    for x, y in taken
                ):
                    spot = placed[0]
                    break
            if spot is None:  # a crowded mat: the die lands where it lay, or anywhere
                logger.debug("demo: no clear spot for die %d", index)
                previous = self._placements.get(index)
                spot = (
                    previous
                    or random_placements(
                        self.rng, [self._faces[index]], self.conditions, self.size
                    )[0]
                )
            finals[index] = Placement(self._faces[index], spot.centre, spot.angle, spot.tilt)
            taken.append(spot.centre)
        return finals

    def _render(self, placements: list[Placement], blur: float, hand: bool) -> np.ndarray:
        from vision.synth import render_scene

        seed = int(self.rng.integers(2**31))
        scene = render_scene(
            seed,
            placements=placements,
            conditions=self.conditions,
            size=self.size,
            motion_blur=blur,
            hand=hand,
        )
        return scene.image


def _steady(conditions: Conditions) -> Conditions:
    """The same table look, without per-frame JPEG compression (a video camera's stream)."""
    from dataclasses import replace

    return replace(conditions, jpeg_quality=0)


class DemoSource(FrameSource):
    """`open_source("demo")`: the demo table as a camera, paced to real time; opened
    `on_request`, it is its own DiceThrower."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        size: tuple[int, int] = DEMO_SIZE,
        fps: float = DEMO_FPS,
        realtime: bool = True,
        on_request: bool = False,
    ) -> None:
        """`on_request`: throw only when `throw()` asks (else on a timer, forever)."""
        self.seed = seed
        self.size = size
        self.fps = fps
        self.realtime = realtime
        self.on_request = on_request
        self.frames_shown = 0
        self.spec = "demo"
        self.table: DemoTable | None = None
        self.latest: DemoFrame | None = None

    def open(self) -> None:
        self.table = DemoTable(self.seed, size=self.size, fps=self.fps)

    def close(self) -> None:
        self.table = None

    @property
    def thrower(self) -> DiceThrower | None:
        return self if self.on_request else None

    def throw(self, roll_number: int, keep: Sequence[Die] = ()) -> None:
        """Throw the dice once (roll `roll_number` of the turn, leaving `keep` lying).

        Only for a source opened `on_request`; DemoBusyError while a throw is under way.
        """
        table = self.table
        if table is None or not self.on_request:
            raise DemoBusyError("the demo table is not open for throws on request")
        table.request_throw(DemoThrow(roll_number, tuple(keep)))

    @property
    def throwing(self) -> bool:
        """Whether a requested throw has not come to rest yet."""
        return self.table is not None and self.table.throwing

    def frames(self) -> Iterator[np.ndarray]:
        period = 1.0 / self.fps
        due = time.monotonic()
        while self.table is not None:
            table = self.table
            for frame in table.frames_on_request() if self.on_request else table.frames():
                if self.table is None:
                    return
                if self.realtime:
                    now = time.monotonic()
                    due = max(due + period, now)  # a slow reader is not made up for later
                    time.sleep(due - now)
                self.latest = frame
                self.frames_shown += 1
                yield frame.image
