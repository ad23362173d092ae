"""`python -m models.real_negatives`: its command line."""

from __future__ import annotations

import pytest

from models import real_negatives


def test_an_output_not_named_npz_is_refused_before_any_photo_is_cut(tmp_path, capsys):
    # numpy would write neg.bin.npz, and training given neg.bin would not find it.
    with pytest.raises(SystemExit) as stopped:
        real_negatives.main([str(tmp_path / "photos"), str(tmp_path / "neg.bin")])
    assert stopped.value.code == 2
    assert "name the file with .npz" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
