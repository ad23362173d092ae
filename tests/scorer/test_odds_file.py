"""The shipped odds tables file: identical to a fresh build, read instead of built."""

from __future__ import annotations

import lzma
from importlib import resources

import pytest

from scorer.odds_cache import colour_table, odds_table
from scorer.odds_colour_tables import build_colour_table
from scorer.odds_file import (
    FILE_NAME,
    OddsFileError,
    build_file_bytes,
    decode,
    encode,
    inventory_key,
)
from scorer.odds_tables import build_odds_table
from scorer.phases import get_phase


def shipped_bytes() -> bytes:
    return resources.files("scorer").joinpath("data", FILE_NAME).read_bytes()


@pytest.mark.slow
def test_the_shipped_file_equals_a_fresh_build():
    """Stale after a change to the odds or the dice: rerun benchmarks/build_odds_tables.py."""
    shipped_header, shipped = decode(shipped_bytes())
    fresh_header, fresh = decode(build_file_bytes())
    assert shipped_header == fresh_header
    assert shipped_header["inventory"] == inventory_key()
    assert shipped.keys() == fresh.keys()
    for name, values in fresh.items():
        assert shipped[name] == values, f"{name} differs: rebuild the odds tables file"


@pytest.mark.slow
def test_tables_are_read_from_the_file_not_built():
    assert odds_table(get_phase(3)).build_seconds == 0.0
    assert colour_table().build_seconds == 0.0
    phase = get_phase(9)
    built = build_odds_table(phase)
    assert (odds_table(phase).turn_chance, odds_table(phase).turn_score) == (
        built.turn_chance,
        built.turn_score,
    )
    assert colour_table().turn_chance == build_colour_table().turn_chance


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not lzma", "not readable"),
        (lzma.compress(b"\x05\x00\x00\x00{}"), "format None, expected 1"),
    ],
)
def test_a_bad_file_is_refused_with_the_reason(data, message):
    with pytest.raises(OddsFileError, match=message):
        decode(data)


@pytest.mark.slow
def test_a_file_cut_short_is_refused():
    header, arrays = decode(shipped_bytes())
    raw = lzma.decompress(shipped_bytes())
    with pytest.raises(OddsFileError, match="cut short"):
        decode(lzma.compress(raw[:-8]))
    assert header["format"] == 1 and arrays


@pytest.mark.slow
def test_encode_round_trips():
    phase = get_phase(1)
    data = encode({1: odds_table(phase)}, colour_table())
    header, arrays = decode(data)
    assert arrays["1.chance.2"] == odds_table(phase).keep_chance[1]
    assert header["turn"]["1"] == [odds_table(phase).turn_chance, odds_table(phase).turn_score]
