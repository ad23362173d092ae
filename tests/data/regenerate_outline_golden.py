"""Regenerate the golden outline-font face masks (run on purpose, then review the PNGs).

    .venv/bin/python tests/data/regenerate_outline_golden.py

One PNG per font: the eleven faces (1..10, W) side by side, each the renderer's
ink mask at the texture size. The fonts are DejaVu's (Debian's fonts-dejavu-core),
which most machines have; the test skips where they are absent.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.read.model_io import VALUE_LABELS
from vision.synth.outline_glyphs import OutlineStyle, outline_glyph_mask

HERE = Path(__file__).resolve().parent / "outline_golden"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")

#: (golden file stem, font file, style) for each golden strip.
CASES: tuple[tuple[str, Path, OutlineStyle], ...] = (
    ("dejavu-sans-bar", DEJAVU / "DejaVuSans.ttf", OutlineStyle(str(DEJAVU / "DejaVuSans.ttf"))),
    (
        "dejavu-serif-dot-bold",
        DEJAVU / "DejaVuSerif-Bold.ttf",
        OutlineStyle(str(DEJAVU / "DejaVuSerif-Bold.ttf"), mark="dot", weight=0.03, height=0.6),
    ),
    (
        "dejavu-mono-period-slanted",
        DEJAVU / "DejaVuSansMono.ttf",
        OutlineStyle(
            str(DEJAVU / "DejaVuSansMono.ttf"), mark="period", slant=0.15, width=0.85, height=0.45
        ),
    ),
)


def strip(style: OutlineStyle) -> np.ndarray:
    """The eleven masks of `style` side by side, as uint8."""
    masks = [outline_glyph_mask(value, style) for value in VALUE_LABELS]
    return (np.hstack(masks) * 255.0 + 0.5).astype(np.uint8)


def main() -> None:
    for stem, _, style in CASES:
        path = HERE / f"{stem}.png"
        cv2.imwrite(str(path), strip(style))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
