"""Regenerate the golden scenes: rendered tray photos and what each must read as.

    .venv/bin/python tests/data/golden/regenerate.py

Run it on purpose (a renderer change, a new kind of scene), never to make a
failing test pass. Each scene is rendered at 800x600 from a fixed held-out seed,
saved as JPEG, and its truth (each die's face and centre in pixels) written to
<name>.json. The script picks, for each kind of scene, the first seed from its
list that shows that kind and that the current pipeline reads right, and says
which seeds it skipped, so a regression shows up as a skipped seed here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2

from vision.synth.seeds import GOLDEN_SEED_BASE

HERE = Path(__file__).resolve().parent
SIZE = (800, 600)
FIRST_SEED = GOLDEN_SEED_BASE  # vision.synth.seeds: the golden scenes' own range
TRIES = 40


def _touching(scene) -> bool:
    """Some two dice lie side by side (top faces nearly touching)."""
    import numpy as np

    centres = [np.asarray(d.centre) for d in scene.dice]
    side = float(np.median([np.linalg.norm(d.corners[0] - d.corners[1]) for d in scene.dice]))
    return any(
        np.linalg.norm(a - b) < 1.15 * side for i, a in enumerate(centres) for b in centres[i + 1 :]
    )


#: name -> (renderer keyword arguments, test the scene must pass)
KINDS = {
    "full_light": ({}, lambda s: not s.conditions.body_dark and len(s.dice) == 10),
    "full_dark": ({}, lambda s: s.conditions.body_dark and len(s.dice) == 10),
    "cluster": ({}, lambda s: len(s.dice) == 10 and _touching(s)),
    "tilted": ({}, lambda s: len(s.dice) == 10 and any(d.tilted for d in s.dice)),
    "few_dice": ({"dice": "4"}, lambda s: len(s.dice) == 4),
    "empty_tray": ({"dice": "0"}, lambda s: len(s.dice) == 0),
}


def main() -> int:
    import numpy as np

    from vision.evaluation import score_reading
    from vision.read.pipeline import DiceReader
    from vision.synth import random_roll, render_scene

    reader = DiceReader()
    for offset, (name, (options, wanted)) in enumerate(KINDS.items()):
        for attempt in range(TRIES):
            seed = FIRST_SEED + offset * 1000 + attempt
            kwargs = dict(options)
            if "dice" in kwargs:
                count = int(kwargs["dice"])
                kwargs["dice"] = list(random_roll(np.random.default_rng(seed)))[:count]
            scene = render_scene(seed, size=SIZE, **kwargs)
            if not wanted(scene):
                continue
            path = HERE / f"{name}.jpg"
            cv2.imwrite(str(path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 88])
            saved = cv2.imread(str(path))
            score = score_reading(seed, scene.dice, reader.read(saved), 0.0)
            if not score.all_right():
                print(f"{name}: seed {seed} skipped, read as {score}", file=sys.stderr)
                continue
            truth = {
                "seed": seed,
                "frame_size": list(SIZE),
                "dice": [
                    {
                        "notation": str(d.die),
                        "centre": [round(d.centre[0], 1), round(d.centre[1], 1)],
                        "side": round(float(np.linalg.norm(d.corners[0] - d.corners[1])), 1),
                    }
                    for d in scene.dice
                ],
            }
            (HERE / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")
            print(f"{name}: seed {seed}, {len(scene.dice)} dice, {path.stat().st_size} bytes")
            break
        else:
            print(f"{name}: no seed in {TRIES} tries", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
