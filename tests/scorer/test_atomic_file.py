"""Files beside the games are written whole or not at all (scorer.atomic_file)."""

from __future__ import annotations

import os

import pytest

from scorer.atomic_file import write_atomically


def test_a_file_is_written_and_replaced_with_its_folder_made(tmp_path):
    path = tmp_path / "data" / "settings.json"
    write_atomically(path, b"first")
    write_atomically(path, b"second")
    assert path.read_bytes() == b"second"
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    write_atomically(path, b"old")

    def power_cut(source, target):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError, match="disk full"):
        write_atomically(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
