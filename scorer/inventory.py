"""The physical dice as data: the palette and each die's face-colour layout.

The layout below is a transcription of one physical set, not confirmed by a
photo: a colour is a name, a notation letter and a reference RGB used by
rendering and vision; a die is a name and its six faces in dice notation.
Nothing else in the project hard-codes colours or faces. A household whose dice
differ keeps its own layout in its data folder (`scorer.layout_file`), and the
`scorer.dice_set.DiceSet` built from it is passed to what depends on the faces.
"""

from __future__ import annotations

from typing import Final

#: (name, letter, reference RGB) of each printed colour, in notation order.
PALETTE: Final[tuple[tuple[str, str, tuple[int, int, int]], ...]] = (
    ("red", "R", (200, 30, 40)),
    ("orange", "O", (240, 120, 20)),
    ("green", "G", (30, 150, 60)),
    ("blue", "B", (30, 70, 190)),
)

#: Each physical die: (name, its six faces in dice notation).
#: Low dice (L*) carry 1, 2, 3, 4, W, W; high dice (H*) carry 5..10.
DEFAULT_LAYOUT: Final[tuple[tuple[str, str], ...]] = (
    ("L1", "1B 2G 3O 4G WR WO"),
    ("L2", "1R 2B 3G 4O WB WO"),
    ("L3", "1O 2R 3R 4B WG WB"),
    ("L4", "1G 2O 3B 4R WR WG"),
    ("H1", "5R 6O 7B 8G 9O 10G"),
    ("H2", "5G 6R 7G 8O 9B 10R"),
    ("H3", "5O 6B 7R 8B 9G 10O"),
    ("H4", "5R 6G 7O 8B 9R 10B"),
    ("H5", "5B 6B 7R 8O 9R 10G"),
    ("H6", "5B 6O 7G 8R 9G 10O"),
)
