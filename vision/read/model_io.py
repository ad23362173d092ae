"""The models' input/output contract: what the trainers export and the runtime reads.

The exporter (`models/export.py`), the trainers and the runtime (`vision.read.classifier`,
`vision.read.tops`, `vision.read.decode`) all import these names and orders from here, so a
model file written by one is read right by the other.

| model               | input                         | outputs                                  |
|---------------------|-------------------------------|------------------------------------------|
| FACE_MODEL_FILE     | FACE_INPUT: (N, 3, S, S) crops| FACE_OUTPUTS: value (N, 11) in           |
|                     | (`vision.read.crops`)         | VALUE_LABELS order, colour (N, 4) in     |
|                     |                               | COLOUR_LABELS order, face (N,); then     |
|                     |                               | FACE_EMBEDDING (N, D), when present      |
| LOCATOR_MODEL_FILE  | LOCATOR_INPUT: (N, 3, H, W)   | LOCATOR_OUTPUTS: maps (N, 3, h, w)       |
|                     | (`vision.read.tops_input`)    |                                          |
"""

from __future__ import annotations

from typing import Final

from scorer.dice import COLOUR_LETTERS, HIGH_VALUES, LOW_VALUES, WILD

FACE_MODEL_FILE: Final[str] = "dice_faces.onnx"
FACE_INPUT: Final[str] = "crops"
FACE_OUTPUTS: Final[tuple[str, ...]] = ("value_probs", "colour_probs", "face_prob")
FACE_EMBEDDING: Final[str] = "embedding"
"""The face model's optional last output, (N, D): the pooled features its heads read,
what a dice profile compares faces by. Files exported before profiles lack it."""

LOCATOR_MODEL_FILE: Final[str] = "dice_tops.onnx"
LOCATOR_INPUT: Final[str] = "images"
LOCATOR_OUTPUTS: Final[tuple[str, ...]] = ("maps",)

VALUE_LABELS: Final[tuple[int, ...]] = (
    *sorted(v for v in (*LOW_VALUES, *HIGH_VALUES) if v != WILD),
    WILD,
)
"""The value head's classes, in order: 1..10 then Wild (from the scorer's dice tables)."""

COLOUR_LABELS: Final[tuple[str, ...]] = COLOUR_LETTERS
"""The colour head's classes, in the palette's order."""
