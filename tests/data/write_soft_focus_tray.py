"""Write tests/data/focus/soft_focus_tray.jpg and .json: a sharp tray for the focus test.

    PHASE10_FONT_ROOTS=... .venv/bin/python tests/data/write_soft_focus_tray.py

The focus test blurs this tray as a camera out of focus would and reads it. It is tray
7,600,032 of the second renderer (`benchmarks/foreign_scenes.py`, light bodies), kept
here as a picture so that the test needs neither the held-out fonts the renderer draws
with nor that renderer's seeds staying as they are. Run it on purpose only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from benchmark_modules import load_benchmark  # noqa: E402

SEED = 7_600_032
NAME = HERE / "focus" / "soft_focus_tray"
QUALITY = 95  # JPEG: sharp enough that the unblurred tray measures sharp


def main() -> int:
    tray = load_benchmark("foreign_scenes").foreign_scene(SEED, dark=False)
    cv2.imwrite(str(NAME.with_suffix(".jpg")), tray.image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    truth = {
        "seed": SEED,
        "renderer": "benchmarks/foreign_scenes.py, light bodies",
        "dice": [
            {
                "notation": str(die.die),
                "centre": [round(float(c), 2) for c in die.centre],
                "corners": [[round(float(v), 2) for v in corner] for corner in die.corners],
            }
            for die in tray.dice
        ],
    }
    NAME.with_suffix(".json").write_text(json.dumps(truth, indent=1) + "\n")
    print(f"wrote {NAME}.jpg and .json ({len(tray.dice)} dice)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
