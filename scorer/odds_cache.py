"""The tables the odds read: the shipped file's when it was built for these dice
(`scorer.odds_file`), else built here; either way once per phase and dice set, then kept.

Apart from the builders (`scorer.odds_tables`, `scorer.odds_colour_tables`) and the
file's reader, which needs them, so that neither builder imports the file.
"""

from __future__ import annotations

from functools import cache

from scorer.dice_set import PRINTED_DICE, DiceSet
from scorer.odds_colour_tables import ColourTable, build_colour_table
from scorer.odds_file import shipped_colour_table, shipped_odds_table
from scorer.odds_tables import OddsTable, build_odds_table
from scorer.phases import Phase


@cache
def odds_table(phase: Phase, dice: DiceSet = PRINTED_DICE) -> OddsTable:
    """The exact value tables of a set/run phase (the same for every set of the game's
    dice; kept per set as the shipped file is)."""
    return shipped_odds_table(phase, dice) or build_odds_table(phase)


@cache
def colour_table(dice: DiceSet = PRINTED_DICE) -> ColourTable:
    """The exact chance tables of the colour phase for `dice`."""
    return shipped_colour_table(dice) or build_colour_table(dice)
