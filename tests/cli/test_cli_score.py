"""`phase10 score`: verdict, grouping and score as text or JSON; bad input exits 2."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from scorer import parse_roll

RULEBOOK = "8R 8B 8G 10O 5G 7R WR WB 1G 3R"
UNEXPLAINED = "5O 5O 7R 8R 9R 10R 1B 2G 3O WR"  # only one die carries 5O


def test_one_phase_as_text(capsys):
    assert main(["score", RULEBOOK, "--phase", "1"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"Roll: {RULEBOOK}",
        "Phase 1 (2 sets of 3): made",
        "  set of 3: 10O WR(=10) WB(=10)",
        "  set of 3: 8R 8G 8B",
        "  unused: 5G 7R 1G 3R",
        "Score: 34",
    ]
    assert err == ""


def test_phase_not_made_as_text(capsys):
    assert main(["score", RULEBOOK, "--phase", "7"]) == 0
    out = capsys.readouterr().out
    assert "Phase 7 (2 sets of 4): not made" in out
    assert out.rstrip().endswith("Score: 0")
    assert "unused" not in out


@pytest.mark.parametrize("flags", [["--all"], []])
def test_all_phases_table(capsys, flags):
    assert main(["score", RULEBOOK, *flags]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 12  # roll, header, ten phases
    assert lines[2].split()[:5] == ["1.", "2", "sets", "of", "3"]
    assert "yes" in lines[2] and " 34 " in lines[2] and "10O WR(=10) WB(=10)" in lines[2]
    assert " 41 " in lines[3]
    assert lines[11].startswith("10.") and " no " in lines[11] and lines[11].endswith("-")


def test_one_phase_as_json(capsys):
    assert main(["score", RULEBOOK, "--phase", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["made"] is True and data["score"] == 34 and data["phase"] == 1
    assert data["explained"] is True
    assert [group["text"] for group in data["groups"]] == ["10O WR(=10) WB(=10)", "8R 8G 8B"]
    assert data["groups"][0]["stands_for"] == [10, 10, 10]


def test_all_phases_as_json_list(capsys):
    assert main(["score", RULEBOOK, "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [entry["phase"] for entry in data] == list(range(1, 11))
    assert [entry["score"] for entry in data][:3] == [34, 41, 0]


def test_roll_no_inventory_explains_is_flagged_but_scored(capsys):
    assert main(["score", UNEXPLAINED, "--phase", "4"]) == 0
    out, err = capsys.readouterr()
    assert "warning: no assignment of these faces" in err
    assert "Score: 0" in out
    assert main(["score", UNEXPLAINED, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all(entry["explained"] is False for entry in data)


def test_partial_roll(capsys):
    assert main(["score", "8r 8b 8g wr wb 10o", "--phase", "1"]) == 0
    out = capsys.readouterr().out
    assert "made" in out and "Score: 34" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "8R 11X 9G", "--phase", "1"], "'11X' is not a die"),
        (["score", "8R 8B", "--phase", "11"], "11 is not a phase"),
        (["score", "5R 6R 7R 8R 9R 10R 5G", "--all"], "7 high dice"),
    ],
)
def test_bad_input_exits_2_naming_it(capsys, argv, message):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("phase10 score: error: ") and message in err


def test_phase_and_all_are_exclusive(capsys):
    with pytest.raises(SystemExit) as info:
        main(["score", RULEBOOK, "--phase", "1", "--all"])
    assert info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_readme_examples_are_rolls_the_dice_can_show():
    import re
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    rolls = re.findall(r'phase10 (?:score|odds) "([^"]+)"', readme)
    assert rolls
    for notation in rolls:
        assert parse_roll(notation).is_explained_by_inventory(), notation
