"""The Raspberry Pi deployment: systemd unit, avahi service, config template, installer, QR.

The installer is exercised through its dry run and its --print renderings, which
must work on any Linux as any user and change nothing; shims on PATH record any
command that would change the system.
"""

from __future__ import annotations

import argparse
import configparser
import os
import shutil
import stat
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes import serve_app, serve_http

from cli import doctor, qr

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INSTALLER = DEPLOY / "install.sh"
UNIT = DEPLOY / "phase10.service"
INSTALLED_CONFIG = "/etc/phase10/config.toml"

#: Commands that change the system: the dry run must never run them.
MUTATING = ("apt-get", "useradd", "usermod", "groupadd", "install", "hostnamectl", "ln",
            "mktemp", "tar", "chown", "chmod", "cp", "mv", "rm", "pip", "pip3")
#: systemctl verbs that only read.
READ_ONLY_SYSTEMCTL = {"is-enabled", "is-active"}

#: A phrase of each step the dry run must list, in order.
STEPS = (
    "install system packages with apt",
    "create service user phase10 in group video",
    "create data directory",
    "create virtual environment",
    "install the app from",
    f"write {INSTALLED_CONFIG}",
    "install systemd unit /etc/systemd/system/phase10.service",
    "publish _http._tcp on port 8123",
    "set the host name to phase10",
    "enable phase10.service at boot",
    "start phase10.service",
    "show the page's addresses http://phase10.local:8123",
)


def unit_parser(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are cased
    parser.read_string(text)
    return parser


def installer(*args: str, env: dict[str, str] | None = None,
              cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(INSTALLER), *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120, check=False)


# ---------------------------------------------------------------- the unit file


def test_unit_file_has_the_required_keys() -> None:
    unit = unit_parser(UNIT.read_text())
    assert set(unit.sections()) == {"Unit", "Service", "Install"}
    assert "network-online.target" in unit["Unit"]["After"].split()
    assert "avahi-daemon.service" in unit["Unit"]["After"].split()
    assert "network-online.target" in unit["Unit"]["Wants"].split()
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert int(service["RestartSec"]) > 0
    assert service["User"] == "phase10"
    assert "video" in service["SupplementaryGroups"].split()
    assert Path(service["WorkingDirectory"]).is_absolute()
    assert service["StateDirectory"] == "phase10"
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_unit_runs_serve_with_the_installed_config() -> None:
    exec_start = unit_parser(UNIT.read_text())["Service"]["ExecStart"].split()
    assert Path(exec_start[0]).is_absolute() and exec_start[0].endswith("/venv/bin/phase10")
    assert exec_start[1:] == ["serve", "--config", INSTALLED_CONFIG]
    assert str(doctor.INSTALLED_CONFIG) == INSTALLED_CONFIG  # doctor finds the same file


def test_unit_is_hardened_but_keeps_the_camera_reachable() -> None:
    service = unit_parser(UNIT.read_text())["Service"]
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "full",
                       "ProtectHome": "yes", "PrivateTmp": "yes"}.items():
        assert service[key] == value, key
    # PrivateDevices would hide /dev/video*, /dev/media* and /dev/dma_heap from picamera2.
    assert "PrivateDevices" not in service


def test_rendered_unit_follows_prefix_and_data_dir() -> None:
    default = unit_parser(installer("--print", "unit").stdout)["Service"]
    assert default["WorkingDirectory"] == "/var/lib/phase10"
    moved = installer("--print", "unit", "--prefix", "/srv/p10", "--data-dir", "/srv/p10-data")
    assert moved.returncode == 0, moved.stderr
    service = unit_parser(moved.stdout)["Service"]
    assert service["ExecStart"].startswith("/srv/p10/venv/bin/phase10 serve --config ")
    assert service["WorkingDirectory"] == "/srv/p10-data"
    # StateDirectory only names folders under /var/lib, so another data dir is opened explicitly.
    assert "StateDirectory" not in service
    assert service["ReadWritePaths"] == "/srv/p10-data"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (no systemd on this machine)")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    # verify insists that ExecStart exists, so the unit is rendered for a stand-in prefix.
    binary = tmp_path / "venv" / "bin" / "phase10"
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    rendered = installer("--print", "unit", "--prefix", str(tmp_path))
    unit = tmp_path / "phase10.service"
    unit.write_text(rendered.stdout)
    verify = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True, cwd=tmp_path, timeout=60, check=False)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "phase10.service" not in verify.stderr, verify.stderr  # no warnings about it


# ---------------------------------------------------------------- avahi and config


def test_avahi_service_advertises_http_on_the_chosen_port() -> None:
    rendered = installer("--print", "avahi", "--port", "8123")
    assert rendered.returncode == 0, rendered.stderr
    group = ET.fromstring(rendered.stdout.encode())
    assert group.tag == "service-group"
    assert group.findtext("service/type") == "_http._tcp"
    assert group.findtext("service/port") == "8123"
    assert group.findtext("name")


def test_config_template_is_a_valid_config_for_the_app(tmp_path: Path) -> None:
    from web.config import load_config

    rendered = installer("--print", "config", "--port", "8123", "--data-dir", "/srv/p10-data")
    values = tomllib.loads(rendered.stdout)
    assert values["port"] == 8123 and values["data_dir"] == "/srv/p10-data"
    path = tmp_path / "config.toml"
    path.write_text(rendered.stdout)
    config = load_config(path)  # unknown keys would be refused here
    assert (config.port, config.data_dir, config.host) == (8123, Path("/srv/p10-data"), "0.0.0.0")


# ---------------------------------------------------------------- the installer


def test_installer_syntax() -> None:
    check = subprocess.run(["bash", "-n", str(INSTALLER)], capture_output=True, text=True,
                           check=False)
    assert check.returncode == 0, check.stderr


def _shellcheck() -> str | None:
    beside_python = Path(sys.executable).parent / "shellcheck"
    return shutil.which("shellcheck") or (str(beside_python) if beside_python.exists() else None)


@pytest.mark.slow
@pytest.mark.skipif(_shellcheck() is None, reason="shellcheck is not installed")
def test_installer_passes_shellcheck() -> None:
    check = subprocess.run([str(_shellcheck()), "--severity=style", str(INSTALLER)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout


def test_installer_help_lists_the_options() -> None:
    shown = installer("--help")
    assert shown.returncode == 0
    for option in ("--dry-run", "--port", "--prefix", "--data-dir", "--no-start", "--help"):
        assert option in shown.stdout


@pytest.mark.parametrize(("args", "named"), [
    (["--port", "70000"], "--port '70000'"),
    (["--port", "web"], "--port 'web'"),
    (["--port"], "--port needs a value"),
    (["--prefix", "relative/dir"], "--prefix 'relative/dir' must be an absolute path"),
    (["--data-dir", "data"], "--data-dir 'data' must be an absolute path"),
    (["--data-dir", "/srv/my games"], "--data-dir '/srv/my games': use only letters"),
    (["--data-dir", "/home/pi/phase10"], "the service cannot see home folders"),
    (["--prefix", "/srv/a#b"], "--prefix '/srv/a#b': use only letters"),
    (["--hostname", "Bad_Name"], "--hostname 'Bad_Name'"),
    (["--frobnicate"], "unknown option '--frobnicate'"),
])
def test_installer_refuses_bad_options(args: list[str], named: str) -> None:
    refused = installer("--dry-run", *args)
    assert refused.returncode == 2
    assert named in refused.stderr
    assert "would:" not in refused.stdout


def _shims(folder: Path, log: Path) -> Path:
    """Stand-ins for system-changing commands that log their calls (systemctl then reads)."""
    folder.mkdir()
    for name in MUTATING:
        script = folder / name
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit 1\n')
        script.chmod(0o755)
    systemctl = folder / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "systemctl $*" >> "{log}"\nexit 3\n')
    systemctl.chmod(0o755)
    # sed renders files (fine) but must never edit one in place (/etc/hosts).
    sed = folder / "sed"
    real_sed = shutil.which("sed")
    sed.write_text('#!/bin/sh\nfor arg in "$@"; do case $arg in -i*) '
                   f'echo "sed $*" >> "{log}"; exit 1;; esac; done\nexec {real_sed} "$@"\n')
    sed.chmod(0o755)
    return folder


def _snapshot(*folders: Path) -> set[Path]:
    return {path for folder in folders for path in folder.rglob("*")}


SYSTEM_FILES = (INSTALLED_CONFIG, "/etc/systemd/system/phase10.service",
                "/etc/avahi/services/phase10.service", "/usr/local/bin/phase10")


def test_dry_run_lists_every_step_and_changes_nothing(tmp_path: Path) -> None:
    home, work, prefix, data = (tmp_path / name for name in ("home", "work", "app", "data"))
    home.mkdir()
    work.mkdir()
    log = tmp_path / "calls.log"
    shims = _shims(tmp_path / "shims", log)
    env = {"PATH": f"{shims}:{os.environ['PATH']}", "HOME": str(home), "LANG": "C.UTF-8"}
    system_before = {path: os.path.lexists(path) for path in SYSTEM_FILES}
    repo_before = _snapshot(DEPLOY)

    run = installer("--dry-run", "--port", "8123", "--prefix", str(prefix),
                    "--data-dir", str(data), env=env, cwd=work)

    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    steps = [line for line in lines if line.startswith("would: ")]
    for wanted, line in zip(STEPS, steps, strict=True):
        assert wanted in line, (wanted, line)
    assert not [line for line in lines if line.startswith(("ok:", "done:"))]
    assert f"{prefix}/venv" in run.stdout and str(data) in run.stdout
    # Nothing written: no home files, no app or data folder, no system file, no deploy file.
    assert _snapshot(home, work) == set()
    assert not prefix.exists() and not data.exists()
    assert {path: os.path.lexists(path) for path in SYSTEM_FILES} == system_before
    assert _snapshot(DEPLOY) == repo_before
    calls = log.read_text().splitlines() if log.exists() else []
    changing = [call for call in calls
                if not (call.startswith("systemctl ") and call.split()[1] in READ_ONLY_SYSTEMCTL)]
    assert changing == [], changing


def test_dry_run_with_no_start_says_it_will_not_start(tmp_path: Path) -> None:
    run = installer("--dry-run", "--no-start", "--keep-hostname", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "would: skip starting phase10.service now (--no-start)" in run.stdout
    assert "would: start phase10.service" not in run.stdout
    assert ":8000" in run.stdout  # the default port


@pytest.mark.skipif(shutil.which("setpriv") is None and os.geteuid() == 0,
                    reason="needs setpriv to drop root")
def test_real_install_refuses_without_root(tmp_path: Path) -> None:
    # The script is fed on stdin, so the unprivileged user needs no access to the checkout.
    command = ["bash", "-s", "--", "--port", "8123"]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    run = subprocess.run(command, input=INSTALLER.read_text(), capture_output=True, text=True,
                         cwd="/", timeout=60, check=False)
    assert run.returncode == 2
    assert "run as root" in run.stderr
    assert "done:" not in run.stdout


# ---------------------------------------------------------------- phase10 qr


def run_qr(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    qr.add_parser(parser.add_subparsers())
    return qr.run(parser.parse_args(["qr", *argv]))


def test_qr_draws_the_address_and_saves_a_scannable_image(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv2 = pytest.importorskip("cv2")
    image = tmp_path / "address.png"
    assert run_qr("http://phase10.local:8123", "--save", str(image)) == 0
    shown = capsys.readouterr().out
    assert "\x1b[" in shown  # the terminal drawing (ANSI colours)
    assert "http://phase10.local:8123\n" in shown
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(cv2.imread(str(image)))
    assert decoded == "http://phase10.local:8123"


def test_qr_compact_drawing_uses_block_characters(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_qr("http://192.168.1.20:8000", "--compact") == 0
    shown = capsys.readouterr().out
    assert "\u2580" in shown or "\u2584" in shown


@pytest.mark.parametrize(("url", "named"), [
    ("phase10.local:8000", "'phase10.local:8000' is not a web address"),
    ("ftp://phase10.local", "'ftp://phase10.local' is not a web address"),
    ("http://phase10.local:port", "bad port number"),
])
def test_qr_refuses_what_a_phone_cannot_open(url: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        run_qr(url)


def test_qr_refuses_an_unknown_image_type(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"--save .*address\.gif: expected a file ending in"):
        run_qr("http://phase10.local:8000", "--save", str(tmp_path / "address.gif"))
    assert not (tmp_path / "address.gif").exists()


# ---------------------------------------------------------------- a real run, in a fake root

#: Stand-ins for the system's tools, keeping their state in files under $STATE, so the
#: installer's own logic (order, checks, idempotence, what it writes) runs for real.
SHIMS = {
    "apt-get": """
[ "$1" = install ] || exit 0
shift; for p in "$@"; do case $p in -*) ;; *) echo "$p" >> "$STATE/packages";; esac; done""",
    "dpkg-query": """
for last; do :; done
grep -qx "$last" "$STATE/packages" 2>/dev/null && printf 'install ok installed'""",
    "id": """
[ -f "$STATE/user-$2" ] || exit 1
case $1 in -u) echo 999;; -nG) cat "$STATE/user-$2";; esac""",
    "useradd": """
for last; do :; done
echo "$last video" > "$STATE/user-$last\"""",
    "usermod": """
for last; do :; done
echo "$last video" > "$STATE/user-$last\"""",
    "getent": "exit 0",
    "groupadd": "exit 0",
    "install": """
args=(); owner=""
while [[ $# -gt 0 ]]; do
    case $1 in -o) owner=$2; shift 2;; -g) shift 2;; *) args+=("$1"); shift;; esac
done
"$REAL_INSTALL" "${args[@]}" || exit 1
[[ -z $owner ]] || printf '%s\\t%s\\n' "${args[-1]}" "$owner" >> "$STATE/owners\"""",
    "stat": """
owner=$(grep -F "$3	" "$STATE/owners" 2>/dev/null | tail -n 1 | cut -f2)
[ -n "$owner" ] && echo "$owner" || echo root""",
    "hostname": """
[ "$1" = -I ] && { echo "192.0.2.10 fd00::10"; exit 0; }
cat "$STATE/hostname\"""",
    "hostnamectl": 'echo "$2" > "$STATE/hostname"',
    "systemctl": """
for last; do :; done
case $1 in
    is-enabled) [ -f "$STATE/enabled-$last" ];;
    is-active) [ -f "$STATE/active-$last" ];;
    enable) touch "$STATE/enabled-$last";;
    restart) touch "$STATE/active-$last";;
esac""",
    "python3": """
if [ "$1" = -m ] && [ "$2" = venv ]; then
    for last; do :; done
    mkdir -p "$last/bin"
    echo 'include-system-site-packages = true' > "$last/pyvenv.cfg"
    cp "$SHIMS/venv-python" "$last/bin/python"
    exit 0
fi
exec "$REAL_PYTHON" "$@\"""",
    # The virtual environment's python: pip "installs" a phase10 that logs its arguments.
    "venv-python": """
[ "$1" = -c ] && exec "$REAL_PYTHON" "$@"
if [ "$1" = -m ] && [ "$2" = pip ]; then
    printf '#!/bin/sh\\necho "phase10 $*" >> "%s"\\n' "$LOG" > "$(dirname "$0")/phase10"
    chmod +x "$(dirname "$0")/phase10"
fi""",
}


class FakeSystem:
    """A temporary root, a small checkout with the real deploy/ folder, and the shims."""

    def __init__(self, base: Path, port: int) -> None:
        self.base, self.port = base, port
        self.root, self.state, self.shims = base / "root", base / "state", base / "shims"
        self.source, self.prefix, self.data = base / "src", base / "app", base / "data"
        self.log = base / "calls.log"
        for folder in (self.root / "etc", self.state, self.shims, self.source):
            folder.mkdir(parents=True)
        (self.root / "etc" / "hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n")
        (self.root / "etc" / "rpi-issue").write_text("Raspberry Pi reference\n")
        (self.state / "hostname").write_text("raspberrypi\n")
        shutil.copytree(DEPLOY, self.source / "deploy")
        (self.source / "pyproject.toml").write_text("[project]\nname = 'stand-in'\n")
        for name, body in SHIMS.items():
            script = self.shims / name
            script.write_text(f'#!/usr/bin/env bash\necho "{name} $*" >> "$LOG"\n{body.strip()}\n')
            script.chmod(0o755)
        self.env = {
            "PATH": f"{self.shims}:{os.environ['PATH']}", "HOME": str(base), "LANG": "C.UTF-8",
            "PHASE10_ROOT": str(self.root), "STATE": str(self.state), "SHIMS": str(self.shims),
            "LOG": str(self.log), "REAL_PYTHON": sys.executable,
            "REAL_INSTALL": str(shutil.which("install")),
        }

    def install(self, port: int | None = None) -> subprocess.CompletedProcess[str]:
        self.log.write_text("")
        return subprocess.run(
            ["bash", str(self.source / "deploy" / "install.sh"), "--port", str(port or self.port),
             "--prefix", str(self.prefix), "--data-dir", str(self.data)],
            capture_output=True, text=True, env=self.env, timeout=120, check=False)

    def calls(self, command: str) -> list[str]:
        """The logged calls of the last install that begin with these words."""
        return [line for line in self.log.read_text().splitlines()
                if (line + " ").startswith(command + " ")]


@pytest.fixture
def http_server() -> Iterator[int]:
    """A scorepad stand-in that answers the installer's health check."""
    with serve_http({"/api/health": (200, b'{"ok": true, "version": "0.1.0", "camera": null}')}
                    ) as port:
        yield port


def test_desktop_image_keeps_its_full_camera_tools(tmp_path: Path) -> None:
    system = FakeSystem(tmp_path, 8123)
    (system.state / "packages").write_text("rpicam-apps\n")
    run = subprocess.run(["bash", str(system.source / "deploy" / "install.sh"), "--dry-run"],
                         capture_output=True, text=True, env=system.env, timeout=60, check=False)
    packages = next(line for line in run.stdout.splitlines() if "system packages" in line)
    assert "python3-picamera2 rpicam-apps" in packages and "rpicam-apps-lite" not in packages


@pytest.mark.slow
def test_install_then_reinstall_then_upgrade(tmp_path: Path, http_server: int) -> None:
    system = FakeSystem(tmp_path, http_server)
    first = system.install()
    assert first.returncode == 0, first.stdout + first.stderr
    done = [line for line in first.stdout.splitlines() if line.startswith("done: ")]
    assert len(done) == 11 and "ok: the scorepad answers" in first.stdout, first.stdout
    installed = set(Path(system.state / "packages").read_text().split())
    assert {"python3-venv", "python3-picamera2", "rpicam-apps-lite", "avahi-daemon"} <= installed
    config = tomllib.loads((system.root / "etc/phase10/config.toml").read_text())
    assert config["port"] == http_server and config["data_dir"] == str(system.data)
    unit = (system.root / "etc/systemd/system/phase10.service").read_text()
    assert f"ExecStart={system.prefix}/venv/bin/phase10 serve --config {INSTALLED_CONFIG}" in unit
    avahi = ET.fromstring((system.root / "etc/avahi/services/phase10.service").read_bytes())
    assert avahi.findtext("service/port") == str(http_server)
    assert "127.0.1.1\tphase10" in (system.root / "etc/hosts").read_text()
    assert (system.root / "usr/local/bin/phase10").resolve() == system.prefix / "venv/bin/phase10"
    assert system.calls("systemctl restart phase10")
    assert f"phase10 qr http://192.0.2.10:{http_server}" in system.log.read_text()
    assert f"http://phase10.local:{http_server}" in first.stdout

    # Again, unchanged: every step is already done, and the service is not restarted;
    # games that `make run` left in the checkout do not count as a change of the app.
    (system.data / "scorepad.sqlite3").write_text("games")
    (system.source / "data").mkdir()
    (system.source / "data" / "scorepad.sqlite3").write_text("a game played in the checkout")
    config_file = system.root / "etc/phase10/config.toml"
    config_file.write_text(config_file.read_text() + 'pin = "4321"\n')
    second = system.install()
    assert second.returncode == 0, second.stdout + second.stderr
    assert "done:" not in second.stdout, second.stdout
    assert len([line for line in second.stdout.splitlines() if line.startswith("ok: ")]) == 12
    assert not system.calls("systemctl restart") and not system.calls("apt-get")

    # An upgraded checkout: the app is reinstalled and restarted; data and config are kept.
    (system.source / "pyproject.toml").write_text("[project]\nname = 'stand-in'  # v2\n")
    third = system.install()
    assert third.returncode == 0, third.stdout + third.stderr
    assert [line.split(":")[0] + ": " + line.split()[1] for line in third.stdout.splitlines()
            if line.startswith("done: ")] == ["done: install", "done: start"]
    assert system.calls("systemctl restart phase10")
    assert (system.data / "scorepad.sqlite3").read_text() == "games"
    assert 'pin = "4321"' in config_file.read_text()

    # Another --port does not override the settings someone may have edited: it says so.
    fourth = system.install(port=http_server + 1)
    assert fourth.returncode == 0, fourth.stdout + fourth.stderr
    assert f"warn: {config_file} keeps port {http_server} (not {http_server + 1})" in fourth.stdout
    assert "done:" not in fourth.stdout


def test_phase10_command_line_runs_qr(capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    assert main(["qr", "http://phase10.local:8000"]) == 0
    assert capsys.readouterr().out.endswith("http://phase10.local:8000\n")
    assert main(["qr", "phase10.local"]) == 2  # the error is named on stderr
    assert "'phase10.local' is not a web address" in capsys.readouterr().err


def _installer_health_probe() -> str:
    """The Python program deploy/install.sh runs to wait for the started service."""
    text = INSTALLER.read_text(encoding="utf-8")
    start = text.index("wait_for_health() {")
    body = text[text.index("<<'PY'\n", start) + len("<<'PY'\n"):]
    return body[:body.index("\nPY\n")]


def test_the_installers_health_probe_accepts_the_real_app(tmp_path: Path) -> None:
    """The installer asks the route the app serves (GET /api/health, "ok": true)."""
    from web.config import Config

    with serve_app(Config(data_dir=tmp_path / "data", camera="none")) as port:
        probe = subprocess.run([sys.executable, "-c", _installer_health_probe(), str(port)],
                               timeout=30, check=False)
    assert probe.returncode == 0
