"""CI runs the suite once as the README leaves a machine, then again every test that
skipped once the optional parts are in. The second run must take each skipped id whole,
spaces and quotes included, or CI fails on a test id rather than on a test."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
RERUN = REPO / ".ci" / "rerun-skipped"

SKIPPING_TESTS = '''
import os
import pytest

@pytest.mark.parametrize("reason", ["needs 'a part' here", "plain"])
def test_skips_until_told(reason):
    if not os.environ.get("PART_INSTALLED"):
        pytest.skip(reason)
'''


@pytest.mark.slow
def test_every_skipped_id_runs_again_whole_spaces_and_quotes_included(tmp_path):
    (tmp_path / "test_part.py").write_text(SKIPPING_TESTS, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(  # the repo's hooks that write the skipped ids
        "import importlib.util\n"
        f"_spec = importlib.util.spec_from_file_location("
        f"'repo_conftest', {str(REPO / 'tests' / 'conftest.py')!r})\n"
        "_hooks = importlib.util.module_from_spec(_spec)\n"
        "_spec.loader.exec_module(_hooks)\n"
        "pytest_runtest_logreport = _hooks.pytest_runtest_logreport\n"
        "pytest_collectreport = _hooks.pytest_collectreport\n",
        encoding="utf-8",
    )
    skipped = tmp_path / "skipped.txt"
    env = {**os.environ, "PHASE10_SKIPPED_FILE": str(skipped),
           "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), str(REPO)])}
    env.pop("PART_INSTALLED", None)
    first = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_part.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )
    assert first.returncode == 0, first.stdout + first.stderr
    ids = skipped.read_text(encoding="utf-8").splitlines()
    assert len(ids) == 2 and any(" " in node_id for node_id in ids)

    env.pop("PHASE10_SKIPPED_FILE")
    second = subprocess.run(
        ["bash", str(RERUN), str(skipped), sys.executable],
        cwd=tmp_path, env={**env, "PART_INSTALLED": "1"},
        capture_output=True, text=True, check=False,
    )
    assert second.returncode == 0, second.stdout + second.stderr
    assert "2 passed" in second.stdout


def test_no_skipped_test_means_nothing_to_run_again(tmp_path):
    empty = tmp_path / "skipped.txt"
    empty.write_text("", encoding="utf-8")
    done = subprocess.run(["bash", str(RERUN), str(empty), sys.executable],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert "no skipped test" in done.stdout
