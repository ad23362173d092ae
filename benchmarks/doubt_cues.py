"""Two cues that might doubt a die the classifier reads wrong for sure, measured on tuning
scenes (never the calibration or report seeds):

    .venv/bin/python benchmarks/doubt_cues.py                     # 400 scenes a slice
    .venv/bin/python benchmarks/doubt_cues.py --records cues.npz  # keep (or reread) them

- **The frame's other dice as references for a numeral.** The ten dice of a roll share
  one font, so a die read 3 whose crop the classifier describes almost as it describes
  another die of the frame read 5 is in conflict with it. Each read die's `conflict` is
  its descriptor's highest cosine to a die of the frame read as another value.
- **The tray wall.** A die leaning on the wall shows a side face where its top should be
  (models/LOCATOR_CARD.md). Each read die's `wall` is how far its box lies inside the tray
  the photo reader would find (`vision.read.tray_finder.find_tray`, from the dice read),
  in die sides, negative when a corner lies beyond it; with its box's aspect and its size
  against its place's (`TrustSettings.merged_aspect`, `max_size_ratio`).

Scenes are drawn as `calibrate.py` draws them (held-out fonts, light and dark bodies,
upright and steep views). A die is wrong when its value is not its true die's (a die on
no true die, "off its die", is wrong); "sure" is a value posterior over 0.99, "marked"
what the shipped calibration asks to check in a phase that does not count colour
(`ReadDie.value_doubtful`). Each cue's table gives, per threshold, the right dice
it would mark that are unmarked today, against the wrong dice unmarked today it would
catch: the trade a doubt rule would make.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.options import npz_path
from vision.read.pipeline import DiceReader, Readout, box_aspect, size_ratios
from vision.read.tray_finder import find_tray
from vision.synth.seeds import TUNING_SEED_BASE

sys.path.insert(0, str(Path(__file__).resolve().parent))
from calibrate import die_outcomes, drawn_scenes  # noqa: E402

#: Tuning seeds no other measurement draws (MODEL_CARD.md names the ones taken).
FIRST_SEED = TUNING_SEED_BASE + 900_000
SURE = 0.99
CONFLICT_THRESHOLDS = (0.6, 0.7, 0.8, 0.85, 0.9)
#: (wall under, aspect under, size ratio over) of the wall rules tried.
WALL_RULES = ((0.0, 1.01, 0.0), (0.0, 0.85, 0.0), (-0.3, 0.85, 0.0), (-0.3, 0.85, 1.05),
              (0.1, 0.85, 1.05))


class KeepingReader(DiceReader):
    """The shipped reader, keeping the last frame's readout (its boxes' descriptors)."""

    last: Readout | None = None

    def readout(self, frame: np.ndarray) -> Readout:
        self.last = super().readout(frame)
        return self.last


@dataclass
class CueRecords:
    """Per read die: its scene, value read and true ("" off its die), value posterior,
    whether it is marked, and the two cues."""

    scene: np.ndarray
    read: np.ndarray
    truth: np.ndarray
    value_confidence: np.ndarray
    marked: np.ndarray
    conflict: np.ndarray  # NaN: no other die read as another value
    wall: np.ndarray  # NaN: no tray found
    aspect: np.ndarray
    size_ratio: np.ndarray
    slices: np.ndarray
    tray_ms: np.ndarray  # per scene: the tray finder's time

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **self.__dict__)

    @classmethod
    def load(cls, path: Path) -> CueRecords:
        with np.load(path) as stored:
            return cls(**{name: stored[name] for name in stored.files})

    @property
    def wrong(self) -> np.ndarray:
        return np.array([_value(read) != _value(true)
                         for read, true in zip(self.read, self.truth, strict=True)], bool)


def _value(face: str) -> str:
    return face[:-1] if face else ""


def conflicts(descriptors: np.ndarray, values: list[str]) -> np.ndarray:
    """(N,) each descriptor's highest cosine to one of another value (NaN: none)."""
    similar = descriptors @ descriptors.T
    out = np.full(len(values), np.nan)
    for i, value in enumerate(values):
        other = np.array([v != value for v in values], bool)
        if other.any():
            out[i] = float(similar[i][other].max())
    return out


def wall_distances(polygon: np.ndarray | None, boxes: list[np.ndarray]) -> np.ndarray:
    """(N,) each box's nearest corner's signed distance inside `polygon`, in the box's
    sides (NaN without a polygon)."""
    if polygon is None:
        return np.full(len(boxes), np.nan)
    contour = np.asarray(polygon, np.float32).reshape(-1, 1, 2)
    out = []
    for box in boxes:
        side = float(np.median(np.linalg.norm(box - np.roll(box, 1, axis=0), axis=1)))
        inside = min(cv2.pointPolygonTest(contour, (float(x), float(y)), True) for x, y in box)
        out.append(inside / max(side, 1e-6))
    return np.array(out)


def collect(reader: KeepingReader, first_seed: int, scenes: int) -> CueRecords:
    columns: dict[str, list] = {name: [] for name in CueRecords.__dataclass_fields__}
    by_place = reader.settings.sort.doubtful_face.by_place
    for index, (slice_key, scene) in enumerate(drawn_scenes(first_seed, scenes)):
        reading = reader.read(scene.image)
        readout = reader.last
        if not reading.dice or readout is None or readout.descriptors is None:
            continue
        boxes = [np.asarray(die.corners, np.float64) for die in reading.dice]
        started = time.perf_counter()
        tray = find_tray(scene.image, boxes)
        columns["tray_ms"].append((time.perf_counter() - started) * 1000)
        centres = np.array([np.mean(box, axis=0) for box in readout.located.boxes])
        at = [int(np.argmin(((centres - np.asarray(die.centre)) ** 2).sum(axis=1)))
              for die in reading.dice]
        values = [_value(str(die.die)) for die in reading.dice]
        _, _, truths = die_outcomes(scene.dice, reading)
        rows = zip(reading.dice, truths, conflicts(readout.descriptors[at], values),
                   wall_distances(None if tray is None else np.array(tray.polygon), boxes),
                   size_ratios(reading.dice, by_place), strict=True)
        for die, true, conflict, wall, ratio in rows:
            columns["scene"].append(index)
            columns["read"].append(str(die.die))
            columns["truth"].append(true)
            columns["value_confidence"].append(
                die.confidence if die.value_confidence is None else die.value_confidence)
            columns["marked"].append(die.value_doubtful)
            columns["conflict"].append(conflict)
            columns["wall"].append(wall)
            columns["aspect"].append(box_aspect(die))
            columns["size_ratio"].append(ratio)
            columns["slices"].append(slice_key)
    return CueRecords(**{name: np.array(values) for name, values in columns.items()})


def report(records: CueRecords) -> dict:
    wrong = records.wrong
    off = records.truth == ""
    unmarked = ~records.marked
    sure_wrong = wrong & (records.value_confidence > SURE)
    right_open, wrong_open = ~wrong & unmarked, wrong & unmarked

    def trade(rule: np.ndarray) -> dict[str, int]:
        return {"right_marked": int((right_open & rule).sum()),
                "wrong_caught": int((wrong_open & rule).sum()),
                "off_die_caught": int((wrong_open & off & rule).sum())}

    conflict = np.nan_to_num(records.conflict, nan=-1.0)
    wall = np.nan_to_num(records.wall, nan=np.inf)
    return {
        "dice": int(len(wrong)),
        "value_wrong": int(wrong.sum()),
        "sure_wrong": int(sure_wrong.sum()),
        "sure_wrong_off_die": int((sure_wrong & off).sum()),
        "sure_wrong_unmarked": int((sure_wrong & unmarked).sum()),
        "sure_wrong_unmarked_off_die": int((sure_wrong & unmarked & off).sum()),
        "conflict_median": {"right": float(np.median(conflict[~wrong])),
                            "wrong": float(np.median(conflict[wrong])) if wrong.any() else None},
        "conflict": {f"over {t}": trade(conflict > t) for t in CONFLICT_THRESHOLDS},
        "tray_found": float(np.isfinite(records.wall).mean()),
        "tray_ms_median": float(np.median(records.tray_ms)),
        "wall": {f"wall under {w}, aspect under {a}, size over {s}":
                 trade((wall < w) & (records.aspect < a) & (records.size_ratio > s))
                 for w, a, s in WALL_RULES},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=400, help="scenes per slice")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--records", type=npz_path,
                        help="an .npz of what was read: read again when it exists")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.scenes < 1:
        parser.error("--scenes must be at least 1")
    if args.records is not None and args.records.exists():
        records = CueRecords.load(args.records)
    else:
        try:
            records = collect(KeepingReader(threads=1), args.first_seed, args.scenes)
        except RuntimeError as error:  # the held-out fonts are not installed
            parser.error(str(error))
        if args.records is not None:
            records.save(args.records)
    figures = report(records)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for name, value in figures.items():
        if isinstance(value, dict):
            print(f"{name}:")
            for rule, counts in value.items():
                print(f"  {rule}: {counts}")
        else:
            print(f"{name}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
