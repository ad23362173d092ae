"""The command line's small things (issue 11, bug 11): --version, unquoted or empty rolls,
an empty --pin, a busy port."""

from __future__ import annotations

import json
import logging
import socket
from importlib import metadata

import pytest

from cli.main import main

ROLL = "8R 8B 8G 10O 5G 7R WR WB 1G 3R"


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"phase10 {metadata.version('phase10-dice')}"


def test_unquoted_dice_are_the_same_roll(capsys):
    assert main(["score", ROLL, "--phase", "1", "--json"]) == 0
    quoted = json.loads(capsys.readouterr().out)
    assert main(["score", *ROLL.split(), "--phase", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == quoted
    assert main(["odds", *ROLL.split(), "--phase", "1", "--rolls-left", "2"]) == 0
    assert capsys.readouterr().out.startswith("keep ")


@pytest.mark.parametrize("command", [["score", ""], ["score", "  "],
                                     ["odds", "", "--phase", "1", "--rolls-left", "1"]])
def test_a_roll_with_no_dice_is_an_error(capsys, command):
    assert main(command) == 2
    out, err = capsys.readouterr()
    assert out == "" and "ROLL has no dice" in err


def test_an_empty_pin_is_refused_in_the_command_lines_words(tmp_path, capsys):
    assert main(["serve", "--pin", "", "--camera", "none", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--pin is empty" in err and "TOML" not in err


def test_a_busy_port_fails_before_saying_ready(tmp_path, capsys, caplog):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with caplog.at_level(logging.INFO):
            status = main(["serve", "--host", "127.0.0.1", "--port", str(port), "--camera",
                           "none", "--data-dir", str(tmp_path / "data"), "--no-qr"])
    assert status == 2
    out, err = capsys.readouterr()
    assert "scorepad on" not in out and f"port {port}" in err and "nothing was started" in err
    assert "ready" not in caplog.text


def test_eval_model_s_help_names_every_evaluation_group(capsys, monkeypatch):
    """The help is written out (the command imports the renderer only when it runs), so it
    is held to the groups the renderer knows."""
    from vision.synth.looks import EVAL_GROUPS

    monkeypatch.setenv("COLUMNS", "1000")  # no group's name broken at its hyphen
    with pytest.raises(SystemExit):
        main(["eval-model", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for group in EVAL_GROUPS:
        assert group.key in text, group.key
