"""`phase10 odds`: the advice in text and JSON, and bad input named."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from scorer import Roll, advise

ROLL = "8R 8B 8G 10O 5G 7R WR WB 1G 3R"


def test_text_output_is_the_advice(capsys):
    assert main(["odds", ROLL, "--phase", "1", "--rolls-left", "2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == str(advise(Roll.from_text(ROLL), 1, 2))
    assert "made now: 34 points" in out


def test_json_output(capsys):
    assert main(["odds", ROLL, "--phase", "8", "--rolls-left", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == advise(Roll.from_text(ROLL), 8, 2).to_dict()
    assert data["keep"] == ["8R", "7R", "WR", "3R"] and data["exact"] is True


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "8R 8B 8G 10X", "--phase", "1", "--rolls-left", "2"], "'10X' is not a die"),
        (["odds", ROLL, "--phase", "11", "--rolls-left", "2"], "11 is not a phase"),
        (["odds", ROLL, "--phase", "1", "--rolls-left", "3"], "3 is not a number of rolls left"),
        (["odds", "8R 8B", "--phase", "1", "--rolls-left", "1"], "needs all 10 dice"),
    ],
)
def test_bad_input_is_named(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
