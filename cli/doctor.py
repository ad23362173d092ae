"""`phase10 doctor`: check that this machine can run the scorepad, and say what to fix.

Made for the Pi at the table: one line per check (camera, model, database, port,
clock), "ok", "warn" or "FAIL" with the remedy, and a non-zero exit status when
anything fails. Each check is a small function from the config to a
`CheckResult`, listed in `CHECKS`, so each can be tested on its own.
"""

from __future__ import annotations

import argparse
import enum
import errno
import functools
import importlib.metadata
import json
import logging
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

COMMAND = "doctor"
HELP = "check camera, model, database, port and clock, and say what to fix"


log = logging.getLogger(__name__)

#: Where deploy/install.sh writes the config; used when --config is not given.
INSTALLED_CONFIG: Final[Path] = Path("/etc/phase10/config.toml")
DISTRIBUTION: Final[str] = "phase10-dice"
#: The scorepad's health route: `{"ok": true, "version": ..., "camera": ...}`.
HEALTH_PATH: Final[str] = "/api/health"
#: Addresses only a phase10 scorepad answers with JSON: the health route, then (for a
#: running release from before it had one) the page's own settings.
HEALTH_PATHS: Final[tuple[str, ...]] = (HEALTH_PATH, "/api/config")
CAMERA_TIMEOUT_S: Final[float] = 20.0
#: How far the clock may be behind the package's build time before it counts as wrong.
CLOCK_SLACK: Final[timedelta] = timedelta(hours=1)


class Status(enum.StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True)
class CheckResult:
    """One line of the report: what was checked, how it went, and what to do about it."""

    name: str
    status: Status
    message: str
    fix: str = ""

    def line(self) -> str:
        text = f"{self.status.value}: {self.name}: {self.message}"
        return f"{text}; fix: {self.fix}" if self.fix and self.status is not Status.OK else text

    def to_dict(self) -> dict[str, str]:
        return {**asdict(self), "status": self.status.value}


# ---------------------------------------------------------------- camera


def picamera_probe() -> tuple[bool, str]:
    """Whether picamera2 imports and lists a camera, with what it found or why not."""
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as error:
        return False, f"picamera2 does not import ({error})"
    try:
        cameras = Picamera2.global_camera_info()
    except Exception as error:  # noqa: BLE001 - libcamera raises many kinds
        return False, f"picamera2 cannot list cameras ({error})"
    if not cameras:
        return False, "picamera2 lists no camera"
    return True, ", ".join(str(camera.get("Model", "camera")) for camera in cameras)


def first_frame(spec: str, timeout: float = CAMERA_TIMEOUT_S) -> Any:
    """Open the source a spec names and return its first frame; raise on failure or timeout."""
    from vision.camera.sources import open_source  # heavy (OpenCV), so only when checking

    outcome: dict[str, Any] = {}

    def grab() -> None:
        try:
            with open_source(spec) as source:
                outcome["frame"] = next(iter(source), None)
        except Exception as error:  # noqa: BLE001 - reported to the user as is
            outcome["error"] = error

    worker = threading.Thread(target=grab, name="doctor-camera", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise TimeoutError(f"no frame within {timeout:g} s")
    if "error" in outcome:
        raise outcome["error"]
    if outcome.get("frame") is None:
        raise RuntimeError("the source opened but gave no frame")
    return outcome["frame"]


#: Remedies by camera kind, for when no frame comes.
CAMERA_FIXES: Final[dict[str, str]] = {
    "picamera": "check the ribbon cable and `rpicam-hello --list-cameras`; "
    "the service user must be in the video group",
    "device": "check the USB camera is plugged in (`ls /dev/video*`) and the device number",
    "demo": "reinstall the app (deploy/install.sh); the demo table is part of it",
}
PICAMERA_FIX: Final[str] = (
    "on Raspberry Pi OS: `sudo apt install python3-picamera2`, in a virtual environment made "
    "with --system-site-packages (deploy/install.sh does both); check the cable and "
    "`rpicam-hello --list-cameras`"
)


def check_camera(config: Any, *, timeout: float = CAMERA_TIMEOUT_S,
                 probe: Callable[[], tuple[bool, str]] = picamera_probe) -> CheckResult:
    """The configured source opens and yields a frame ("auto" resolved as the app does)."""
    spec = str(config.camera)
    if spec == "none":
        return CheckResult("camera", Status.OK, "no camera configured: scores are entered by hand")
    detail, fallback = "", ""  # what the Pi camera is; why "auto" fell back to the demo
    if spec in ("auto", "picamera"):
        present, found = probe()
        if present:
            spec, detail = "picamera", f" ({found})"
        elif spec == "picamera":
            return CheckResult("camera", Status.FAIL, f"camera is picamera but {found}",
                               PICAMERA_FIX)
        else:
            spec, fallback = "demo", f"; auto uses the demo table because {found}"
    try:
        frame = first_frame(spec, timeout)
    except Exception as error:  # noqa: BLE001 - every failure is reported the same way
        if phase10_answers(config.host, config.port):
            return CheckResult(
                "camera", Status.WARN,
                f"{spec} could not be opened ({error}); the running phase10 service may hold it",
                "stop it to test the camera alone: `sudo systemctl stop phase10`",
            )
        kind = spec.partition(":")[0]
        return CheckResult(
            "camera", Status.FAIL, f"{spec} gave no frame: {error}{fallback}",
            CAMERA_FIXES.get(kind, "check the camera setting in the config file"),
        )
    height, width = frame.shape[:2]
    message = f"{spec} gave a {width}x{height} frame{detail}{fallback}"
    if fallback:
        return CheckResult("camera", Status.WARN, message, PICAMERA_FIX)
    return CheckResult("camera", Status.OK, message)


# ---------------------------------------------------------------- model


def check_model(
    config: Any, *, path: Path | None = None, locator_path: Path | None = None
) -> CheckResult:
    """The shipped models (face classifier and top-face locator) are present, match
    their SHA-256 and load.

    Without a camera (camera = "none") nothing reads dice, so a bad model only warns.
    """
    result = _check_model(config, path, locator_path)
    if result.status is Status.FAIL and str(getattr(config, "camera", "")) == "none":
        return CheckResult(result.name, Status.WARN,
                           f"{result.message} (not needed while camera is none)", result.fix)
    return result


def _check_model(config: Any, path: Path | None, locator_path: Path | None) -> CheckResult:
    try:
        from vision.read.classifier import FaceClassifier
        from vision.read.frame_colours import PAIRS, PairNetwork
        from vision.read.onnx_model import ModelFileError
        from vision.read.tops import TopFinder
    except ImportError as error:
        return CheckResult("model", Status.FAIL, f"the dice reader is missing ({error})",
                           "reinstall the app with deploy/install.sh")
    threads = int(getattr(config, "camera_threads", 1))
    names = []
    loads = [(FaceClassifier.load, path), (TopFinder.load, locator_path)]
    loads += [(functools.partial(PairNetwork.load, pair), None) for pair in PAIRS]
    for load, model_path in loads:
        try:
            model = load(model_path, threads=threads)
        except ModelFileError as error:
            return CheckResult("model", Status.FAIL, str(error),
                               "reinstall the app (deploy/install.sh) to restore the model file")
        except Exception as error:  # noqa: BLE001 - onnxruntime's own errors
            return CheckResult("model", Status.FAIL, f"the model does not load: {error}",
                               "reinstall the app; check onnxruntime installs on this machine")
        names.append(str(getattr(model, "name", None) or model_path or "the shipped model"))
    listed = f"{', '.join(names[:-1])} and {names[-1]}"
    return CheckResult("model", Status.OK, f"{listed} match their SHA-256 and load")


# ---------------------------------------------------------------- database


def database_path(config: Any) -> Path:
    """The store's file: the config says where, with the store's own file name."""
    path = getattr(config, "database_path", None)
    return Path(path) if path is not None else Path(config.data_dir) / "scorepad.sqlite3"


def _probe_write(folder: Path) -> None:
    """Create a file and an SQLite database in WAL mode in `folder`, then remove them."""
    with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", suffix=".sqlite3") as probe:
        connection = sqlite3.connect(probe.name)
        try:
            mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            connection.execute("CREATE TABLE probe (x)")
            connection.commit()
        finally:
            connection.close()
        for suffix in ("-wal", "-shm"):
            Path(probe.name + suffix).unlink(missing_ok=True)
    if mode != "wal":
        raise OSError(errno.EINVAL, f"this file system does not support WAL (got {mode})")


def _inspect(path: Path) -> tuple[str, str]:
    """integrity_check and journal mode of a database, read-only.

    Reading a WAL database leaves -wal and -shm files behind; SQLite gives them the
    database file's owner when run as root, so `sudo phase10 doctor` cannot lock
    the service out (tests/deploy/test_doctor.py checks this).
    """
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        connection.close()
    return str(verdict), str(mode)


def check_database(config: Any) -> CheckResult:
    """The data dir is writable and the database, if any, opens, is intact and in WAL mode."""
    folder = Path(config.data_dir).resolve()
    path = database_path(config).resolve()
    owner_fix = f"`sudo chown -R phase10: {folder}` (or set data_dir in the config)"
    if not folder.is_dir():
        parent = next((p for p in folder.parents if p.exists()), Path("/"))
        if os.access(parent, os.W_OK):
            return CheckResult("database", Status.OK,
                               f"{folder} does not exist yet; it is created at start")
        return CheckResult("database", Status.FAIL, f"{folder} does not exist and cannot be made",
                           f"`sudo install -d -o phase10 -g phase10 {folder}`")
    try:
        _probe_write(folder)
    except (OSError, sqlite3.Error) as error:
        return CheckResult("database", Status.FAIL, f"{folder} is not writable: {error}", owner_fix)
    if not path.exists():
        return CheckResult("database", Status.OK,
                           f"{folder} is writable; no database yet (made on first start)")
    try:
        verdict, mode = _inspect(path)
    except sqlite3.Error as error:
        return CheckResult("database", Status.FAIL, f"{path} does not open: {error}",
                           "restore the last backup (deploy/README.md, 'Backup')")
    if verdict != "ok":
        return CheckResult("database", Status.FAIL, f"{path} integrity_check: {verdict}",
                           "restore the last backup (deploy/README.md, 'Backup')")
    if mode != "wal":
        return CheckResult("database", Status.WARN, f"{path} is intact but in {mode} mode, not WAL",
                           "start `phase10 serve` once: the store switches it to WAL")
    return CheckResult("database", Status.OK, f"{path} is intact (integrity_check ok, WAL)")


# ---------------------------------------------------------------- port


def phase10_answers(host: str, port: int, timeout: float = 2.0) -> str | None:
    """The path at which a phase10 scorepad answers on this port, or None.

    The health route counts only when it says `"ok": true`; another program's
    JSON there does not make it a scorepad (the next path is tried).
    """
    if not port:
        return None
    target = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in target:
        target = f"[{target}]"
    for path in HEALTH_PATHS:
        try:
            with urllib.request.urlopen(f"http://{target}:{port}{path}", timeout=timeout) as reply:
                answer = json.loads(reply.read(65536))
            if reply.status == 200 and isinstance(answer, dict):
                if path != HEALTH_PATH or answer.get("ok") is True:
                    return path
        except urllib.error.HTTPError:
            continue  # something answers, but not this path: try the next
        except (OSError, ValueError):
            return None  # nothing answers, or not with JSON
    return None


def bind_error(host: str, port: int) -> OSError | None:
    """The error binding host:port gives, or None when it is free (socket closed again)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind((host, port))
        except OSError as error:
            return error
    return None


def check_port(config: Any) -> CheckResult:
    """The port is free to bind, or already served by a phase10 scorepad."""
    host, port = str(config.host), int(config.port)
    where = f"{host}:{port}"
    if port == 0:
        return CheckResult("port", Status.OK, "port 0: the system picks a free port at start")
    error = bind_error(host, port)
    if error is None:
        return CheckResult("port", Status.OK, f"{where} is free")
    if error.errno == errno.EADDRINUSE:
        answered = phase10_answers(host, port)
        if answered:
            return CheckResult("port", Status.OK, f"{where} is served by phase10 ({answered})")
        return CheckResult(
            "port", Status.FAIL, f"{where} is in use by another program",
            f"find it with `sudo ss -ltnp 'sport = :{port}'`, or set another port in the config",
        )
    if error.errno == errno.EACCES:
        return CheckResult("port", Status.FAIL, f"{where} needs root to bind",
                           "use a port of 1024 or more in the config")
    return CheckResult("port", Status.FAIL, f"cannot bind {where}: {error.strerror or error}",
                       "set host to 0.0.0.0 (all interfaces) or an address of this machine")


# ---------------------------------------------------------------- clock


def build_time() -> datetime | None:
    """When this copy of the package was built or installed: a lower bound for the real time."""
    stamps: list[float] = []
    try:
        distribution = importlib.metadata.distribution(DISTRIBUTION)
        for file in distribution.files or ():
            if file.name in ("METADATA", "PKG-INFO"):
                stamps.append(Path(str(distribution.locate_file(file))).stat().st_mtime)
    except (importlib.metadata.PackageNotFoundError, OSError):
        log.debug("no installed metadata for %s", DISTRIBUTION)
    return datetime.fromtimestamp(max(stamps), UTC) if stamps else None


def ntp_synchronised() -> bool | None:
    """systemd's view of NTP synchronisation; None when it cannot be asked."""
    tool = shutil.which("timedatectl")
    if tool is None:
        return None
    try:
        answer = subprocess.run([tool, "show", "-p", "NTPSynchronized", "--value"],
                                capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    value = answer.stdout.strip()
    return {"yes": True, "no": False}.get(value) if answer.returncode == 0 else None


CLOCK_FIX: Final[str] = (
    "a Pi has no battery clock: connect it to the internet for a minute (NTP), "
    "or set it: `sudo date -s 'YYYY-MM-DD HH:MM'`"
)


def check_clock(config: Any, *, now: datetime | None = None, built: datetime | None = None,
                ntp: Callable[[], bool | None] = ntp_synchronised) -> CheckResult:
    """The system time is not before the build of this package, and NTP-synchronised if known."""
    now = now or datetime.now(UTC)
    built = built or build_time()
    stamp = now.strftime("%Y-%m-%d %H:%M UTC")
    if built is not None and now < built - CLOCK_SLACK:
        return CheckResult(
            "clock", Status.FAIL,
            f"the clock says {stamp}, before this install was built ({built:%Y-%m-%d})", CLOCK_FIX,
        )
    synchronised = ntp()
    if synchronised is False:
        return CheckResult("clock", Status.WARN, f"{stamp}, not synchronised with NTP", CLOCK_FIX)
    if synchronised is None:  # nothing says the time is right: not "ok"
        return CheckResult(
            "clock", Status.WARN,
            f"{stamp}; NTP state unknown (no timedatectl answer), so the time may be wrong",
            "check that this time is right, or " + CLOCK_FIX)
    return CheckResult("clock", Status.OK, f"{stamp}, NTP-synchronised")


# ---------------------------------------------------------------- the report

#: The checks in report order: name -> function of the config.
CHECKS: Final[dict[str, Callable[[Any], CheckResult]]] = {
    "camera": check_camera,
    "model": check_model,
    "database": check_database,
    "port": check_port,
    "clock": check_clock,
}


def load(path: Path | None, **overrides: Any) -> tuple[Any, CheckResult]:
    """The validated config (or None) and the report line saying where it came from.

    `overrides` (port, data_dir: the command line's, None when not given) win over
    the file, as they do for `phase10 serve`.
    """
    from web.config import load_config

    if path is None and INSTALLED_CONFIG.is_file():
        path = INSTALLED_CONFIG
    origin = str(path) if path is not None else "built-in defaults"
    given = [f"--{name.replace('_', '-')} {value}" for name, value in overrides.items()
             if value is not None]
    if given:
        origin += " with " + ", ".join(given)
    try:
        config = load_config(path, **overrides)
    except ValueError as error:
        return None, CheckResult("config", Status.FAIL, str(error),
                                 "correct the file (see deploy/config.toml for every key)")
    summary = f"camera {config.camera}, port {config.port}, data_dir {config.data_dir}"
    return config, CheckResult("config", Status.OK, f"{origin} ({summary})")


def run_checks(config: Any, checks: dict[str, Callable[[Any], CheckResult]] | None = None,
               ) -> list[CheckResult]:
    """Every check's result; a check that crashes is reported as failed, not raised."""
    results = []
    for name, check in (CHECKS if checks is None else checks).items():
        try:
            results.append(check(config))
        except Exception as error:  # noqa: BLE001 - one broken check must not hide the rest
            log.debug("check %s crashed", name, exc_info=True)
            results.append(CheckResult(name, Status.FAIL, f"the check itself failed: {error!r}",
                                       "report this with the output of `phase10 -v doctor`"))
    return results


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description="Check that this machine can run the scorepad: camera, model file, "
        "database, port and clock. Exits with 1 when any check fails.",
    )
    parser.add_argument("--config", type=Path, default=None,
                        help=f"TOML config file (default: {INSTALLED_CONFIG} if present)")
    parser.add_argument("--port", type=int, default=None,
                        help="check this TCP port instead of the config's (as serve --port)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="check this data folder instead of the config's (as serve --data-dir)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    config, loaded = load(args.config, port=args.port, data_dir=args.data_dir)
    if config is None:
        results = [loaded, check_clock(None)]
    else:
        results = [loaded, *run_checks(config)]
    failed = any(result.status is Status.FAIL for result in results)
    if args.json:
        print(json.dumps({"ok": not failed, "checks": [r.to_dict() for r in results]}, indent=2))
    else:
        for result in results:
            print(result.line())
    return 1 if failed else 0
