"""The scorepad's one validated configuration, parsed once at start-up.

Values come from built-in defaults, then an optional TOML file, then command
line flags (later wins). Everything downstream receives a `Config`; nothing
reads the environment or the file system to configure itself.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from vision.camera.camera_contract import SourceError, parse_source_spec

#: Camera settings of the scorepad itself; anything else is a vision source spec.
CAMERA_CHOICES: Final[tuple[str, ...]] = ("auto", "none")
#: The longest table PIN: any text, a phrase included (the page's PIN box takes letters too).
MAX_PIN_CHARS: Final[int] = 64
_HOSTNAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,252}[A-Za-z0-9])?$")


class ConfigError(ValueError):
    """A configuration value or key that the scorepad cannot use; the message names it."""


@dataclass(frozen=True)
class Config:
    """Everything the scorepad needs to know at start-up.

    `pin`, when set, must accompany every request that changes a game.
    `camera` is a vision source spec, "auto" (Pi camera if present, else the
    synthetic demo table) or "none" (hand entry only).
    """

    host: str = "0.0.0.0"
    port: int = 8000
    data_dir: Path = field(default_factory=lambda: Path("data"))
    camera: str = "auto"
    pin: str | None = None
    camera_threads: int = 1
    heartbeat_s: float = 15.0
    max_body_bytes: int = 64 * 1024
    max_photo_bytes: int = 15_000_000  # a photo of the dice (POST /api/games/<id>/photo)
    # The server (web/server.py): each live stream holds a thread, so the pool is sized
    # for the phones following the table and a few requests besides.
    server_threads: int = 128
    live_streams: int = 112  # streams at once; past this a phone is told to close one
    max_connections: int = 10_000  # held at once, idle ones included
    header_timeout_s: float = 10.0  # a request's head must be in by then
    idle_timeout_s: float = 30.0  # a silent connection with no request in flight closes

    def __post_init__(self) -> None:
        if not isinstance(self.data_dir, str | Path) or not str(self.data_dir):
            raise ConfigError(f"data_dir must be a folder path, got {self.data_dir!r}")
        object.__setattr__(self, "data_dir", Path(self.data_dir))
        for check in _CHECKS:
            check(self)

    @property
    def database_path(self) -> Path:
        return self.data_dir / "scorepad.sqlite3"

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], *, origin: str = "configuration") -> Config:
        """Build a Config from plain values (a TOML table, CLI flags); unknown keys are refused."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(
                f"{origin}: unknown key(s) {', '.join(unknown)}; "
                f"expected some of {', '.join(sorted(known))}"
            )
        return cls(**dict(values))

    def replace(self, **changes: Any) -> Config:
        """A copy with some values changed (still validated); None values are ignored."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


def load_config(path: Path | str | None = None, **overrides: Any) -> Config:
    """Defaults, then the TOML file at `path` (if any), then `overrides` that are not None."""
    values: dict[str, Any] = {}
    origin = "configuration"
    if path is not None:
        origin = str(path)
        try:
            with open(path, "rb") as handle:
                values = tomllib.load(handle)
        except OSError as error:
            raise ConfigError(f"cannot read configuration file {path}: {error.strerror}") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{path} is not valid TOML: {error}") from None
        values = {key.replace("-", "_"): value for key, value in values.items()}
    config = Config.from_mapping(values, origin=origin)
    unknown = sorted(set(overrides) - {f.name for f in dataclasses.fields(Config)})
    if unknown:
        raise ConfigError(f"unknown setting(s) {', '.join(unknown)}")
    return config.replace(**overrides)


def _check_host(config: Config) -> None:
    if not isinstance(config.host, str):
        raise ConfigError(f"host must be text, got {config.host!r}")
    try:
        ipaddress.ip_address(config.host)
    except ValueError:
        if not _HOSTNAME.match(config.host):
            raise ConfigError(f"host {config.host!r} is not an IP address or host name") from None


def _check_port(config: Config) -> None:
    if isinstance(config.port, bool) or not isinstance(config.port, int):
        raise ConfigError(f"port must be a whole number, got {config.port!r}")
    if not 0 <= config.port <= 65535:
        raise ConfigError(f"port {config.port} is outside 0-65535")


def _check_camera(config: Config) -> None:
    """"auto", "none", or a spec vision's own parser accepts (so `device:abc` fails here,
    at start-up, not later in the camera thread)."""
    camera = config.camera
    if not isinstance(camera, str):
        raise ConfigError(f"camera must be text, got {camera!r}")
    if camera in CAMERA_CHOICES:
        return
    try:
        parse_source_spec(camera)
    except SourceError as error:
        raise ConfigError(
            f"camera {camera!r} is not a camera source ({error}): expected auto, none, "
            "demo, picamera, device:N, video:PATH or images:DIR"
        ) from None


def _check_pin(config: Config) -> None:
    pin = config.pin
    if pin is None:
        return
    if not isinstance(pin, str) or not pin.strip():
        raise ConfigError("pin must be non-empty text (quote it in TOML: pin = \"1234\")")
    if len(pin.strip()) > MAX_PIN_CHARS:
        raise ConfigError(f"pin is {len(pin.strip())} characters: at most {MAX_PIN_CHARS} "
                          "(any letters, digits or words; longer is harder to guess)")
    object.__setattr__(config, "pin", pin.strip())


#: Numeric settings: name -> (type, smallest, largest allowed).
_NUMBERS: Final[dict[str, tuple[type | tuple[type, ...], float, float]]] = {
    "camera_threads": (int, 1, 16),
    "heartbeat_s": ((int, float), 0.01, 300),
    "max_body_bytes": (int, 1024, 16 * 1024 * 1024),
    "max_photo_bytes": (int, 64 * 1024, 100_000_000),
    "server_threads": (int, 4, 1024),
    "live_streams": (int, 1, 1000),
    "max_connections": (int, 16, 100_000),
    "header_timeout_s": ((int, float), 1, 300),
    "idle_timeout_s": ((int, float), 1, 3600),
}


def _check_streams(config: Config) -> None:
    if config.live_streams > config.server_threads - 4:
        raise ConfigError(
            f"live_streams ({config.live_streams}) must leave at least 4 of the "
            f"{config.server_threads} server_threads for requests: each stream holds one")


def _check_numbers(config: Config) -> None:
    for name, (kind, low, high) in _NUMBERS.items():
        value = getattr(config, name)
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not isinstance(value, kind) or not low <= value <= high):
            raise ConfigError(f"{name} must be a number from {low} to {high}, got {value!r}")


_CHECKS = (_check_host, _check_port, _check_camera, _check_pin, _check_numbers, _check_streams)
