"""Copy a split's font files, cut to the characters the renderer draws, into one folder:
for a training machine that has none of the Debian font packages (and little room to
carry their 87 MB: a few families hold thousands of glyphs each, the renderer needs
a handful).

    python -m models.cut_fonts OUT_DIR                 # the training fonts
    PHASE10_FONT_ROOTS=OUT_DIR python -m models.train_locator --device cuda ...

Each file keeps its path relative to its font root, so `vision.synth.font_library`
finds it under OUT_DIR as under /usr/share/fonts. Every cut file is checked: the
numerals and the W drawn from it must match those drawn from the full file, pixel for
pixel, or the command fails naming the file. Needs fontTools (the `train` extra).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

import numpy as np

from vision.synth.font_library import FONT_ROOTS, Split, font_files

KEPT_CHARACTERS = range(0x20, 0x7F)
"""Printable ASCII: the numerals, "W", the 6/9 marks, and room to spare."""

CHECKED = (("10", 30.0), ("W", 23.0), ("6", 41.0), ("9", 17.0), ("1", 12.0), ("8", 64.0))
"""Texts and digit heights (pixels) drawn from the full and the cut file to compare."""


class CutFontError(RuntimeError):
    """A cut font draws differently from its full file."""


def relative_to_root(path: Path) -> Path:
    """`path` relative to the font root it lies under (the layout to keep)."""
    for root in FONT_ROOTS:
        if path.is_relative_to(root):
            return path.relative_to(root)
    raise ValueError(f"{path} lies under none of the font roots {FONT_ROOTS}")


def cut_font(source: Path, dest: Path) -> int:
    """Write `source` cut to KEPT_CHARACTERS (outlines and hinting kept) to `dest`, check
    it draws as the full file does, and return its size in bytes."""
    from fontTools import subset

    from vision.synth.outline_glyphs import _draw_text

    options = subset.Options()
    options.hinting = True
    options.layout_features = []
    options.notdef_outline = True
    options.name_IDs = ["*"]
    font = subset.load_font(str(source), options)
    try:
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=KEPT_CHARACTERS)
        subsetter.subset(font)
        dest.parent.mkdir(parents=True, exist_ok=True)
        subset.save_font(font, str(dest), options)
    finally:
        font.close()  # fontTools reads tables lazily from the open file
    for text, height in CHECKED:
        full = _draw_text(text, str(source), height, 2.0)
        cut = _draw_text(text, str(dest), height, 2.0)
        if full.shape != cut.shape or not np.array_equal(full, cut):
            raise CutFontError(f"{dest}: {text!r} drawn from the cut file differs from {source}")
    return dest.stat().st_size


def cut_fonts(out: Path, split: Split = Split.TRAIN) -> tuple[int, int]:
    """Cut every installed file of `split` into `out`; returns (files, bytes written)."""
    files = font_files(split)
    written = 0
    for number, path in enumerate(files, 1):
        written += cut_font(path, out / relative_to_root(path))
        if number % 50 == 0 or number == len(files):
            print(f"{number}/{len(files)} fonts cut, {written / 1e6:.1f} MB", flush=True)
    return len(files), written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the cut fonts to")
    parser.add_argument(
        "--split", choices=[s.value for s in Split], default=Split.TRAIN.value,
        help="which families (train)",
    )
    args = parser.parse_args(argv)
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # its notes on odd glyphs
    try:
        count, size = cut_fonts(args.out, Split(args.split))
    except ImportError as error:
        parser.error(f"needs fontTools ({error.name} is missing): pip install -e '.[train]'")
    except RuntimeError as error:  # a CutFontError, or a family not installed
        print(f"cut_fonts: {error}", file=sys.stderr)
        return 1
    print(f"{count} font files cut into {args.out} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
