"""The one validated configuration: defaults, TOML file, flags, and the messages it refuses with."""

from __future__ import annotations

from pathlib import Path

import pytest

from web.camera import resolve_source
from web.config import Config, ConfigError, load_config


def test_defaults():
    config = load_config()
    assert (config.host, config.port, config.camera, config.pin) == ("0.0.0.0", 8000, "auto", None)
    assert config.data_dir == Path("data")
    assert config.database_path == Path("data") / "scorepad.sqlite3"


def test_toml_then_flags_win(tmp_path):
    path = tmp_path / "phase10.toml"
    path.write_text('port = 9000\ncamera = "none"\npin = "1234"\ndata-dir = "games"\n')
    config = load_config(path, port=8123, host=None)
    assert config.port == 8123 and config.camera == "none" and config.pin == "1234"
    assert config.data_dir == Path("games") and config.host == "0.0.0.0"


def test_unknown_keys_are_named(tmp_path):
    path = tmp_path / "phase10.toml"
    path.write_text('port = 9000\ncolour = "red"\nprt = 1\n')
    with pytest.raises(ConfigError, match=r"unknown key\(s\) colour, prt") as info:
        load_config(path)
    assert str(path) in str(info.value)


def test_the_shipped_deploy_config_loads():
    deploy = Path(__file__).resolve().parents[2] / "deploy" / "config.toml"
    if not deploy.is_file():
        pytest.skip("deploy/config.toml is not in this checkout")
    assert load_config(deploy).port == 8000


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"port": 70000}, "port 70000"),
        ({"port": "8000"}, "port must be a whole number"),
        ({"port": True}, "port must be a whole number"),
        ({"host": "bad host!"}, "host 'bad host!'"),
        ({"camera": "webcam"}, "camera 'webcam'"),
        ({"camera": "video:"}, "camera 'video:'"),
        ({"camera": "device:abc"}, "device:abc: expected a device number, e.g. device:0"),
        ({"camera": "demo:3"}, "camera 'demo:3'"),
        ({"pin": 1234}, "pin must be non-empty text"),
        ({"pin": "  "}, "pin must be non-empty text"),
        ({"data_dir": 5}, "data_dir"),
        ({"heartbeat_s": 0}, "heartbeat_s"),
        ({"max_body_bytes": 10}, "max_body_bytes"),
    ],
)
def test_bad_values_are_named(values, words):
    with pytest.raises(ConfigError, match=words.replace("(", r"\(")):
        Config.from_mapping(values)


def test_bad_toml_and_missing_file(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("port = = 1")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(broken)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


@pytest.mark.parametrize("camera", ["none", "demo", "picamera", "device:0", "video:a.mp4",
                                    "images:shots"])
def test_camera_sources_accepted(camera):
    assert Config(camera=camera).camera == camera


def test_auto_camera_is_the_pi_camera_only_when_present():
    assert resolve_source("auto", probe=lambda: True) == "picamera"
    assert resolve_source("auto", probe=lambda: False) == "demo"
    assert resolve_source("device:1", probe=lambda: True) == "device:1"
