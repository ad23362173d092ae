"""The household's dice layout file (scorer.layout_file): checked, written, read back."""

from __future__ import annotations

import json
import re

import pytest

from scorer.dice import COLOUR_LETTERS as LETTERS
from scorer.inventory import DEFAULT_LAYOUT
from scorer.layout_file import (
    LayoutError,
    layout_text,
    parse_layout_text,
    read_layout_file,
    write_layout_file,
)

PRINTED = layout_text(DEFAULT_LAYOUT)
#: The printed table with H1's red 5 green instead.
GREEN_FIVE = PRINTED.replace("H1: 5R", "H1: 5G")


def test_the_printed_table_reads_back_as_it_is_written():
    assert parse_layout_text(PRINTED, LETTERS) == DEFAULT_LAYOUT
    assert parse_layout_text("\n\n" + PRINTED.lower() + "\n", LETTERS) == DEFAULT_LAYOUT


@pytest.mark.parametrize(("text", "says"), [
    (PRINTED.replace("H1: 5R 6O", "H1: 5R"), "die H1 has 5 faces, not 6"),
    (PRINTED.replace("7B", "7P"), "'7P' is not a face"),
    (PRINTED.replace("H2:", "H1:"), "two dice are named H1"),
    (PRINTED.replace("WR WO", "WR 5O"), "die L1 mixes low faces"),
    (PRINTED.replace("L4: 1G 2O 3B 4R WR WG", "L4: 5G 6O 7B 8R 9R 10G"),
     "4 low dice (1 to 4 and Wilds) and 6 high dice (5 to 10), not 3 and 7"),
    ("\n".join(PRINTED.splitlines()[:9]), "not 4 and 5"),
    (PRINTED.replace("H3: ", "H3 "), "line 7: write a die as its name"),
])
def test_a_layout_that_is_not_ten_dice_is_refused_by_what_is_wrong(text, says):
    with pytest.raises(LayoutError, match=re.escape(says)):
        parse_layout_text(text, LETTERS)


def test_the_file_is_written_whole_and_read_back(tmp_path):
    path = tmp_path / "data" / "dice_layout.json"
    layout = parse_layout_text(GREEN_FIVE, LETTERS)
    write_layout_file(path, layout)
    assert read_layout_file(path, LETTERS) == layout
    assert [p.name for p in path.parent.iterdir()] == ["dice_layout.json"]  # no temporary left
    path.write_text("{not json")
    with pytest.raises(LayoutError, match="cannot read the dice layout"):
        read_layout_file(path, LETTERS)
    path.write_text(json.dumps({"format": 9, "dice": []}))
    with pytest.raises(LayoutError, match="is not a dice layout file"):
        read_layout_file(path, LETTERS)
