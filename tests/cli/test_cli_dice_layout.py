"""The household's dice, read by `cli` when a command starts (cli.dice_layout): the data
folder's saved layout, else the file the environment names, else the printed table."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from cli.dice_layout import LAYOUT_ENV, household_dice
from scorer.dice import COLOUR_LETTERS as LETTERS
from scorer.dice_set import PRINTED_DICE
from scorer.inventory import DEFAULT_LAYOUT
from scorer.layout_file import (
    LAYOUT_FILE_NAME,
    layout_text,
    parse_layout_text,
    write_layout_file,
)

GREEN_FIVE = parse_layout_text(layout_text(DEFAULT_LAYOUT).replace("H1: 5R", "H1: 5G"), LETTERS)
BLUE_FIVE = parse_layout_text(layout_text(DEFAULT_LAYOUT).replace("H1: 5R", "H1: 5B"), LETTERS)


def test_the_data_folders_layout_wins_over_the_environments(tmp_path):
    data, named = tmp_path / "data", tmp_path / "named.json"
    write_layout_file(named, BLUE_FIVE)
    environ = {LAYOUT_ENV: str(named)}
    assert household_dice(data, environ).layout == BLUE_FIVE  # no saved layout yet
    write_layout_file(data / LAYOUT_FILE_NAME, GREEN_FIVE)
    assert household_dice(data, environ).layout == GREEN_FIVE
    assert household_dice(data, {}).layout == GREEN_FIVE
    assert household_dice(None, environ).layout == BLUE_FIVE  # a command without a data folder


def test_no_file_a_missing_file_or_a_bad_one_give_the_printed_table(tmp_path, caplog):
    assert household_dice(tmp_path, {}) is PRINTED_DICE
    assert household_dice(None, {LAYOUT_ENV: str(tmp_path / "gone.json")}) is PRINTED_DICE
    bad = tmp_path / LAYOUT_FILE_NAME
    bad.write_text(json.dumps({"format": 1, "dice": [{"name": "H1", "faces": "5R"}]}))
    assert household_dice(tmp_path, {}) is PRINTED_DICE
    assert "using the printed dice table instead" in caplog.text


def test_phase10_score_judges_a_roll_by_the_layout_the_environment_names(tmp_path):
    named = tmp_path / "named.json"
    write_layout_file(named, GREEN_FIVE)
    roll = "5G 5G 7R 8B 9R 10O 1B 4O 2R 3B"  # two green 5s: the printed table has one

    def explained(environ: dict[str, str]) -> bool:
        done = subprocess.run([sys.executable, "-m", "cli", "score", roll, "--phase", "1",
                               "--json"], capture_output=True, text=True, timeout=60,
                              check=True, env=environ)
        return bool(json.loads(done.stdout)["explained"])

    plain = {key: value for key, value in os.environ.items() if key != LAYOUT_ENV}
    assert not explained(plain)
    assert explained({**plain, LAYOUT_ENV: str(named)})
