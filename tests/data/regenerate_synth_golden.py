"""Regenerate tests/data/synth_golden.json, the renderer's golden ground truth, on purpose.

Run it only after a deliberate change to how scenes are drawn from a seed
(conditions, placements, geometry); the golden test then pins the new output.

    python tests/data/regenerate_synth_golden.py          # rewrite the file
    python tests/data/regenerate_synth_golden.py --check  # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent)]

from vision.synth import render_scene  # noqa: E402

GOLDEN = HERE / "synth_golden.json"
#: (seed, keyword arguments) of each pinned scene: default size, a small frame, a hand.
CASES: tuple[tuple[int, dict], ...] = (
    (101, {}),
    (204, {"size": [640, 480]}),  # has a die tilted against the wall
    (303, {"size": [800, 600], "hand": True}),
)


def scene_truth(seed: int, options: dict) -> dict:
    """Ground truth and conditions of one scene, as plain JSON data."""
    kwargs = {**options}
    if "size" in kwargs:
        kwargs["size"] = tuple(kwargs["size"])
    scene = render_scene(seed, **kwargs)
    return {
        "seed": seed,
        "options": options,
        "conditions": dataclasses.asdict(scene.conditions),
        "dice": [
            {
                "die": str(d.die),
                "centre": [round(v, 3) for v in d.centre],
                "corners": [[round(float(v), 3) for v in corner] for corner in d.corners],
                "tilted": d.tilted,
            }
            for d in scene.dice
        ],
    }


def build() -> list[dict]:
    return [scene_truth(seed, options) for seed, options in CASES]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1) + "\n"
    if args.check:
        stale = not GOLDEN.exists() or GOLDEN.read_text() != text
        print(f"{GOLDEN.name} is {'stale' if stale else 'up to date'}")
        return int(stale)
    GOLDEN.write_text(text)
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
