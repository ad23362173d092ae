"""deploy/check-arm64.sh's arguments and skip logic, deploy/install.sh --no-systemd,
and the comparisons of deploy/arm64_checks.py: without root, network or an arm64 root.

The check itself (debootstrap, qemu, the installer in an arm64 root) runs from .ci/run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from load_check import serving
from test_deploy import FakeSystem

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "deploy" / "check-arm64.sh"


def check(*argv: str, env: dict[str, str] | None = None,
          as_user: bool = False) -> subprocess.CompletedProcess[str]:
    """Runs the script; as_user drops root first (as an unprivileged user would run it)."""
    command = ["bash", str(CHECK), *argv]
    if as_user and os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    base = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": "/nonexistent"}
    return subprocess.run(command, capture_output=True, text=True, env={**base, **(env or {})},
                          cwd="/", timeout=60, check=False)


def test_help_names_the_options_and_the_cache() -> None:
    run = check("--help", env={"XDG_CACHE_HOME": "/var/cache/here"})
    assert run.returncode == 0, run.stderr
    for option in ("--if-possible", "--probe", "--runner", "--cache", "--rebuild", "--mirror"):
        assert option in run.stdout
    assert "/var/cache/here/phase10-arm64" in run.stdout


@pytest.mark.parametrize(("argv", "named"), [
    (["--frobnicate"], "unknown option '--frobnicate'"),
    (["--runner", "docker"], "--runner 'docker': expected chroot, proot or auto"),
    (["--runner"], "--runner needs a value"),
    (["--port", "80"], "--port '80' is not a port number"),
    (["--port", "eighty"], "--port 'eighty' is not a port number"),
    (["--mirror", "deb.debian.org"], "--mirror 'deb.debian.org' is not an http(s) address"),
])
def test_bad_arguments_are_refused_by_name(argv: list[str], named: str) -> None:
    run = check(*argv)
    assert run.returncode == 2
    assert named in run.stderr
    assert "step:" not in run.stdout


def test_asked_to_skip_it_skips_with_the_reason() -> None:
    run = check("--if-possible", env={"PHASE10_ARM64": "skip"})
    assert run.returncode == 0, run.stderr
    assert run.stdout == "arm64: skipped: PHASE10_ARM64=skip asks to skip it\n"
    refused = check(env={"PHASE10_ARM64": "skip"})
    assert refused.returncode == 3
    assert "cannot run here: PHASE10_ARM64=skip" in refused.stderr


@pytest.mark.skipif(shutil.which("setpriv") is None and os.geteuid() == 0,
                    reason="needs setpriv to drop root")
def test_without_root_it_skips_or_says_why_and_touches_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run = check("--if-possible", "--cache", str(cache), as_user=True)
    assert run.returncode == 0, run.stderr
    assert "arm64: skipped: needs root" in run.stdout
    probe = check("--probe", "--cache", str(cache), as_user=True)
    assert probe.returncode == 3
    assert "cannot run here: needs root" in probe.stderr
    assert not cache.exists()


def test_the_script_passes_shellcheck() -> None:
    beside_python = Path(sys.executable).parent / "shellcheck"
    shellcheck = shutil.which("shellcheck") or (str(beside_python) if beside_python.exists()
                                                else None)
    if shellcheck is None:
        pytest.skip("shellcheck is not installed")
    run = subprocess.run([shellcheck, "--severity=style", str(CHECK)], capture_output=True,
                         text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stdout


def test_it_reads_the_installers_package_list() -> None:
    # The cached root holds the installer's packages; a renamed list must not go unnoticed.
    text = (ROOT / "deploy" / "install.sh").read_text()
    assert any(line.startswith("readonly BASE_PACKAGES=(") and line.endswith(")")
               for line in text.splitlines())


# ---------------------------------------------------------------- install.sh --no-systemd


def test_no_systemd_dry_run_says_what_it_skips(tmp_path: Path) -> None:
    run = subprocess.run(["bash", str(ROOT / "deploy" / "install.sh"), "--dry-run",
                          "--no-systemd"], capture_output=True, text=True, cwd=tmp_path,
                         timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert "would: skip (--no-systemd): systemctl daemon-reload" in run.stdout
    for kept in ("create service user", "create data directory", "install systemd unit",
                 "publish _http._tcp", "write /etc/phase10/config.toml"):
        assert f"would: {kept}" in run.stdout
    for skipped in ("set the host name", "enable phase10.service", "start phase10.service"):
        assert f"would: {skipped}" not in run.stdout


def test_no_systemd_install_writes_everything_and_never_calls_systemctl(tmp_path: Path) -> None:
    system = FakeSystem(tmp_path, 8123)
    (system.shims / "systemctl").write_text("#!/bin/sh\necho \"systemctl $*\" >> \"$LOG\"\n"
                                            "echo 'System has not been booted with systemd' >&2\n"
                                            "exit 1\n")
    run = subprocess.run(
        ["bash", str(system.source / "deploy" / "install.sh"), "--no-systemd", "--port", "8123",
         "--prefix", str(system.prefix), "--data-dir", str(system.data)],
        capture_output=True, text=True, env=system.env, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    done = [line for line in run.stdout.splitlines() if line.startswith("done: ")]
    assert len(done) == 8, run.stdout
    assert "skip (--no-systemd): systemctl daemon-reload" in run.stdout
    assert "not enabled or started (--no-systemd)" in run.stdout
    assert (system.root / "etc/systemd/system/phase10.service").is_file()
    assert (system.root / "etc/avahi/services/phase10.service").is_file()
    assert (system.root / "etc/phase10/config.toml").is_file()
    assert system.data.is_dir() and (system.state / "user-phase10").is_file()
    assert not system.calls("systemctl") and not system.calls("hostnamectl")
    assert "127.0.1.1\traspberrypi" in (system.root / "etc/hosts").read_text()


def test_a_failing_installer_step_is_named(tmp_path: Path) -> None:
    system = FakeSystem(tmp_path, 8123)
    (system.shims / "useradd").write_text("#!/bin/sh\necho 'useradd: cannot lock' >&2\nexit 1\n")
    run = subprocess.run(
        ["bash", str(system.source / "deploy" / "install.sh"), "--no-systemd",
         "--prefix", str(system.prefix), "--data-dir", str(system.data)],
        capture_output=True, text=True, env=system.env, timeout=120, check=False)
    assert run.returncode != 0
    assert "install.sh: error: step failed: create service user phase10" in run.stderr


# ---------------------------------------------------------------- the comparisons


def _checks():
    spec = importlib.util.spec_from_file_location("arm64_checks", ROOT / "deploy/arm64_checks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readings_are_paired_die_by_die() -> None:
    checks = _checks()
    x86 = [{"notation": "8R", "centre": [10.0, 10.0], "confidence": 0.99},
           {"notation": "WB", "centre": [50.0, 10.0], "confidence": 0.90}]
    same = [dict(x86[1], centre=[50.3, 10.0]), dict(x86[0], confidence=0.985)]
    centre, confidence, differences = checks._matched(x86, same)
    assert differences == [] and centre == pytest.approx(0.3) and confidence == pytest.approx(0.005)
    other = [dict(x86[0]), dict(x86[1], notation="WG")]
    assert checks._matched(x86, other)[2] == ["die at [50.0, 10.0]: WB on x86, WG on arm64"]


def test_the_steps_need_a_port() -> None:
    checks = _checks()
    with pytest.raises(SystemExit):
        checks.main(["serve"])


def test_the_assets_script_runs_on_this_machine() -> None:
    """The x86 reference step runs the same script as the arm64 root: it must run here."""
    checks = _checks()
    run = subprocess.run([sys.executable, "-c", checks.ASSETS], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert out["odds_arrays"] > 0 and set(out["turn_odds"]) == {str(n) for n in range(1, 11)}
    assert "dice_faces.onnx" in out["models"]


def test_the_turn_the_arm64_root_plays_is_played_here(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The serve step's turn over HTTP, against this machine's `phase10 serve`: the API it
    speaks must be the one the scorepad answers (what the phone saw, the photo, the score)."""
    checks = _checks()
    with serving(tmp_path) as (port, _):
        monkeypatch.chdir(ROOT)  # the golden photo is found from the working tree, as in the root
        checks.play_turn(port)


def test_the_timing_script_runs_on_this_machine() -> None:
    """The read-time step runs the same script in the arm64 root: it must run here."""
    checks = _checks()
    run = subprocess.run([sys.executable, "-c", checks.TIMING, str(ROOT / checks.GOLDEN), "1"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert out["frames"] == len(list((ROOT / checks.GOLDEN).glob("*.jpg"))) > 0
