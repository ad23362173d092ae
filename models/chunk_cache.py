"""Rendered training chunks kept on disk, so a second run (or a resumed one) skips rendering.

Both trainers cache the same way: one .npz file per chunk, named by what drew it
(`look_key` of the dice sets and tables, the chunk's first seed and size), written
whole or not at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np


def look_key(look: object) -> str:
    """A short name for what a chunk was drawn with: any change to it names new files."""
    return hashlib.sha256(repr(look).encode()).hexdigest()[:12]


def cached_chunk(
    path: Path | None, names: Sequence[str], render: Callable[[], tuple[np.ndarray, ...]]
) -> tuple[np.ndarray, ...]:
    """The arrays `names` stored at `path`, or `render()`'s, stored there first (no cache
    when `path` is None)."""
    if path is not None and path.exists():
        with np.load(path) as stored:
            return tuple(stored[name] for name in names)
    arrays = render()
    if path is not None:
        partial = path.with_suffix(".partial.npz")
        np.savez(partial, **dict(zip(names, arrays, strict=True)))
        partial.replace(path)  # never a half-written cache file
    return arrays
