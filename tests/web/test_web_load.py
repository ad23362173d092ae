"""Issue 45's load on loopback, bounded in count and time: 100 phones follow a game on a
real `phase10 serve` while 5,000 connections are opened, held and dropped at once.

The test checks what must hold on any machine: every phone hears every change, a phone is
answered through the flood (not left hanging), and the held connections cost little
memory. How fast is measured, not asserted: `tests/web/load_check.py` prints the medians
(README, "Serving")."""

from __future__ import annotations

import pytest
from load_check import measure

pytestmark = pytest.mark.slow

HANG_S = 15.0
"""A phone not answered within this long is hung, whatever the machine's load."""


def test_phones_are_answered_and_updated_through_a_flood_of_held_connections():
    figures = measure(phones=100, held=5000)
    for moment in ("before", "during", "after"):
        assert figures[f"heard_{moment}"] == 5 * 100, figures  # every phone, every change
    for moment in ("during", "after_drop", "after"):
        assert figures[f"answer_{moment}_s"] < HANG_S, figures
    assert figures["rss_held_mb"] - figures["rss_phones_mb"] < 100, figures  # a Pi's memory
