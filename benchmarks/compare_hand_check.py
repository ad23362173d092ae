"""The hand check, measured: the locator's trained hand map against MediaPipe Hands.

    python benchmarks/compare_hand_check.py            # needs mediapipe 0.10.x (see below)
    python benchmarks/compare_hand_check.py --scenes 60 --json

MediaPipe's legacy `solutions.hands` (0.10.x) ships its palm and landmark models
inside the wheel, so it runs offline. It is not a dependency of the product;
measure it in a separate environment:

    python -m venv .venv-mediapipe
    .venv-mediapipe/bin/pip install mediapipe==0.10.14 onnxruntime flask segno pillow
    .venv-mediapipe/bin/pip install --no-deps -e .
    .venv-mediapipe/bin/python benchmarks/compare_hand_check.py

Three sets, each flag counted per picture: real photographs with no hand
(../shared/realdata/pip-dice-desk, skipped when absent: false flags), rendered
trays with a hand reaching in (misses), rendered trays without (false flags);
and the median time per 1280x960 frame on one thread.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.read.pipeline import DiceReader
from vision.synth.seeds import HELD_OUT_SEED_BASE

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "realdata" / "pip-dice-desk"


class MediaPipeHands:
    """MediaPipe Hands as a yes/no hand check on a BGR frame."""

    def __init__(self) -> None:
        import mediapipe as mp

        self._hands = mp.solutions.hands.Hands(
            static_image_mode=True,
            max_num_hands=2,
            model_complexity=0,
            min_detection_confidence=0.5,
        )

    def __call__(self, frame: np.ndarray) -> bool:
        result = self._hands.process(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB))
        return bool(result.multi_hand_landmarks)


def _tally(check, frames) -> dict[str, float]:
    flags, times = [], []
    for frame in frames:
        start = time.perf_counter()
        flags.append(check(frame))
        times.append(time.perf_counter() - start)
    return {
        "pictures": len(flags),
        "flagged": round(float(np.mean(flags)), 4) if flags else 0.0,
        "median_ms": round(1000 * statistics.median(times), 1) if times else 0.0,
    }


def _real_frames(limit: int):
    for path in sorted(REAL.glob("images/*"))[:limit]:
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is not None:
            yield cv2.resize(frame, (1280, 960), interpolation=cv2.INTER_LINEAR)


def _rendered(count: int, hand: bool, first: int):
    from vision.synth import render_scene

    for seed in range(first, first + count):
        yield render_scene(seed, hand=hand).image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100, help="rendered scenes per set")
    parser.add_argument("--photos", type=int, default=400, help="real photos at most")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    reader = DiceReader(threads=1)
    checks = {"locator hand map": lambda frame: reader.locate(frame).hand}
    try:
        checks["MediaPipe Hands"] = MediaPipeHands()
    except (ImportError, AttributeError) as error:
        print(f"MediaPipe Hands not measured ({error}); see this script's docstring")
    first = HELD_OUT_SEED_BASE + 700_000
    sets = {
        "real photos, no hand (false flags)": lambda: _real_frames(args.photos),
        "rendered, hand reaching in (share found)": lambda: _rendered(args.scenes, True, first),
        "rendered, no hand (false flags)": lambda: _rendered(args.scenes, False, first),
    }
    if not REAL.is_dir():
        del sets["real photos, no hand (false flags)"]
        print(f"{REAL} is absent: the real-photo set is skipped")
    results = {
        name: {set_name: _tally(check, frames()) for set_name, frames in sets.items()}
        for name, check in checks.items()
    }
    if args.json:
        print(json.dumps(results))
        return 0
    for name, by_set in results.items():
        print(f"== {name}")
        for set_name, tally in by_set.items():
            print(
                f"  {set_name}: {tally['flagged']:.1%} of {tally['pictures']}, "
                f"{tally['median_ms']} ms median"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
