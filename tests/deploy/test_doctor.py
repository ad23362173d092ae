"""`phase10 doctor`: each check on its own, over temporary folders, sockets and files."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import socket
import sqlite3
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path

import pytest
from fakes import serve_app, serve_http

from cli import doctor
from cli.doctor import CheckResult, Status
from web.config import Config


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def config_for(tmp_path: Path, **values: object) -> Config:
    settings: dict[str, object] = {"host": "127.0.0.1", "port": free_port(),
                                   "data_dir": tmp_path / "data", "camera": "none"}
    settings.update(values)
    return Config.from_mapping(settings)


# ---------------------------------------------------------------- report lines


def test_lines_show_status_name_message_and_fix() -> None:
    failed = CheckResult("port", Status.FAIL, "0.0.0.0:80 needs root", "use a port of 1024 or more")
    assert failed.line() == "FAIL: port: 0.0.0.0:80 needs root; fix: use a port of 1024 or more"
    assert CheckResult("clock", Status.OK, "fine", "unused").line() == "ok: clock: fine"
    assert failed.to_dict() == {"name": "port", "status": "FAIL",
                                "message": "0.0.0.0:80 needs root",
                                "fix": "use a port of 1024 or more"}


def test_a_crashing_check_fails_without_hiding_the_others(tmp_path: Path) -> None:
    def broken(_: object) -> CheckResult:
        raise RuntimeError("boom")

    results = doctor.run_checks(config_for(tmp_path), {
        "broken": broken, "clock": lambda c: doctor.check_clock(c, ntp=lambda: True)})
    assert [(r.name, r.status) for r in results] == [("broken", Status.FAIL), ("clock", Status.OK)]
    assert "boom" in results[0].message


# ---------------------------------------------------------------- database


def test_missing_data_dir_under_a_writable_parent_is_fine(tmp_path: Path) -> None:
    result = doctor.check_database(config_for(tmp_path))
    assert result.status is Status.OK and "created at start" in result.message


def test_empty_writable_data_dir_leaves_no_probe_behind(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    result = doctor.check_database(config_for(tmp_path))
    assert result.status is Status.OK and "no database yet" in result.message
    assert list((tmp_path / "data").iterdir()) == []


def _database(path: Path, journal: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA journal_mode={journal}")
    connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, body TEXT)")
    connection.executemany("INSERT INTO games (body) VALUES (?)", [("x" * 500,)] * 50)
    connection.commit()
    connection.close()


def test_intact_wal_database_is_ok(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    _database(config.database_path, "wal")
    result = doctor.check_database(config)
    assert result.status is Status.OK, result
    assert "integrity_check ok, WAL" in result.message


def test_the_real_store_passes(tmp_path: Path) -> None:
    store_module = pytest.importorskip("web.store")
    config = config_for(tmp_path)
    config.data_dir.mkdir()
    with store_module.GameStore(config.database_path):  # open, as while the service runs
        result = doctor.check_database(config)
    assert result.status is Status.OK, result
    assert doctor.check_database(config) == result  # and after it stopped


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can run into this (sudo phase10 doctor)")
def test_root_leaves_no_files_the_service_user_cannot_write(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    _database(config.database_path, "wal")
    nobody = 65534
    for path in (config.data_dir, config.database_path):
        os.chown(path, nobody, nobody)
    assert doctor.check_database(config).status is Status.OK
    left = {path.name: path.stat().st_uid for path in config.data_dir.iterdir()}
    assert set(left) <= {"scorepad.sqlite3", "scorepad.sqlite3-wal", "scorepad.sqlite3-shm"}
    assert set(left.values()) == {nobody}, left


def test_database_not_in_wal_mode_is_a_warning(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    _database(config.database_path, "delete")
    result = doctor.check_database(config)
    assert result.status is Status.WARN and "delete mode" in result.message


def test_a_file_that_is_not_a_database_fails(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    config.data_dir.mkdir()
    config.database_path.write_bytes(b"this is no SQLite file " * 100)
    result = doctor.check_database(config)
    assert result.status is Status.FAIL
    assert str(config.database_path) in result.message and "backup" in result.fix


def test_a_damaged_page_fails_the_integrity_check(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    _database(config.database_path, "delete")
    raw = bytearray(config.database_path.read_bytes())
    page = 4096
    raw[page + 8: page + 200] = b"\xff" * 192  # scribble over the table's first page cells
    config.database_path.write_bytes(bytes(raw))
    result = doctor.check_database(config)
    assert result.status is Status.FAIL
    assert "integrity_check" in result.message or "does not open" in result.message


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_read_only_data_dir_fails(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    config.data_dir.mkdir()
    config.data_dir.chmod(0o500)
    try:
        result = doctor.check_database(config)
    finally:
        config.data_dir.chmod(0o700)
    assert result.status is Status.FAIL and "not writable" in result.message
    assert "chown" in result.fix


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_data_dir_nobody_can_write_fails(tmp_path: Path) -> None:
    # /proc refuses new files even to root, so this runs wherever the tests run.
    result = doctor.check_database(config_for(tmp_path, data_dir="/proc"))
    assert result.status is Status.FAIL and "/proc is not writable" in result.message


# ---------------------------------------------------------------- port


@pytest.fixture
def http_server(request: pytest.FixtureRequest) -> Iterator[int]:
    """A local server answering the paths the test gives (path -> status, body)."""
    with serve_http(request.param) as port:
        yield port


def test_free_port_is_ok(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    result = doctor.check_port(config)
    assert result.status is Status.OK and f"127.0.0.1:{config.port} is free" in result.message


HEALTHY = b'{"ok": true, "version": "0.1.0", "camera": null}'


@pytest.mark.parametrize("http_server", [{"/api/health": (200, HEALTHY)}], indirect=True)
def test_port_served_by_phase10_is_ok(tmp_path: Path, http_server: int) -> None:
    result = doctor.check_port(config_for(tmp_path, port=http_server))
    assert result.status is Status.OK and "served by phase10 (/api/health)" in result.message


@pytest.mark.parametrize("http_server", [{"/api/health": (200, b'{"status": "ok"}')}],
                         indirect=True)
def test_another_programs_health_json_is_not_phase10(tmp_path: Path, http_server: int) -> None:
    """Only the scorepad's own answer ("ok": true) counts at /api/health."""
    result = doctor.check_port(config_for(tmp_path, port=http_server))
    assert result.status is Status.FAIL and "in use by another program" in result.message


@pytest.mark.parametrize("http_server", [{"/api/config": (200, b'{"pin_required": false}')}],
                         indirect=True)
def test_port_served_by_a_release_without_health_is_ok(tmp_path: Path, http_server: int) -> None:
    result = doctor.check_port(config_for(tmp_path, port=http_server))
    assert result.status is Status.OK and "(/api/config)" in result.message


def test_port_served_by_the_real_app_is_ok(tmp_path: Path) -> None:
    with serve_app(config_for(tmp_path)) as port:
        result = doctor.check_port(config_for(tmp_path, port=port))
    assert result.status is Status.OK and "served by phase10 (/api/health)" in result.message


@pytest.mark.parametrize("http_server", [{}, {"/api/health": (200, b"<html>router</html>")}],
                         indirect=True)
def test_port_held_by_another_program_fails(tmp_path: Path, http_server: int) -> None:
    result = doctor.check_port(config_for(tmp_path, port=http_server))
    assert result.status is Status.FAIL and "in use by another program" in result.message
    assert f"sport = :{http_server}" in result.fix


@pytest.mark.skipif(os.geteuid() == 0, reason="root may bind ports below 1024")
def test_privileged_port_fails_for_a_user(tmp_path: Path) -> None:
    result = doctor.check_port(config_for(tmp_path, port=80, host="0.0.0.0"))
    assert result.status is Status.FAIL and "needs root" in result.message


def test_address_of_another_machine_fails(tmp_path: Path) -> None:
    result = doctor.check_port(config_for(tmp_path, host="192.0.2.77"))  # TEST-NET-1
    assert result.status is Status.FAIL and "cannot bind" in result.message


# ---------------------------------------------------------------- clock

BUILT = datetime(2026, 11, 1, tzinfo=UTC)


def test_clock_before_the_build_fails(tmp_path: Path) -> None:
    result = doctor.check_clock(None, now=datetime(1970, 1, 1, 0, 1, tzinfo=UTC), built=BUILT,
                                ntp=lambda: False)
    assert result.status is Status.FAIL
    assert "1970-01-01" in result.message and "2026-11-01" in result.message
    assert "NTP" in result.fix


@pytest.mark.parametrize(("ntp", "status", "said"), [
    (True, Status.OK, "NTP-synchronised"),
    (None, Status.WARN, "NTP state unknown"),
    (False, Status.WARN, "not synchronised with NTP"),
])
def test_clock_after_the_build_reports_ntp(ntp: bool | None, status: Status, said: str) -> None:
    result = doctor.check_clock(None, now=BUILT + timedelta(days=3), built=BUILT, ntp=lambda: ntp)
    assert result.status is status and said in result.message


def test_build_time_comes_from_the_installed_package() -> None:
    built = doctor.build_time()
    assert built is not None and built <= datetime.now(UTC)


# ---------------------------------------------------------------- camera


def test_no_camera_is_fine(tmp_path: Path) -> None:
    result = doctor.check_camera(config_for(tmp_path, camera="none"))
    assert result.status is Status.OK and "by hand" in result.message


def test_picamera_without_the_library_fails_with_the_apt_fix(tmp_path: Path) -> None:
    result = doctor.check_camera(config_for(tmp_path, camera="picamera"),
                                 probe=lambda: (False, "picamera2 does not import"))
    assert result.status is Status.FAIL and "picamera2 does not import" in result.message
    assert "apt install python3-picamera2" in result.fix and "system-site-packages" in result.fix


@pytest.mark.parametrize(("present", "opened", "status", "said"), [
    (True, "picamera", Status.OK, "picamera gave a 64x48 frame (imx708)"),
    (False, "demo", Status.WARN, "demo gave a 64x48 frame; auto uses the demo table because "
                                 "picamera2 lists no camera"),
])
def test_auto_camera_resolves_like_the_app(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        present: bool, opened: str, status: Status, said: str) -> None:
    np = pytest.importorskip("numpy")
    asked: list[str] = []

    def frame_of(spec: str, timeout: float) -> object:
        asked.append(spec)
        return np.zeros((48, 64, 3), np.uint8)

    monkeypatch.setattr(doctor, "first_frame", frame_of)
    found = "imx708" if present else "picamera2 lists no camera"
    result = doctor.check_camera(config_for(tmp_path, camera="auto"),
                                 probe=lambda: (present, found))
    assert asked == [opened]
    assert result.status is status and result.message == said


def test_picamera_probe_says_why_here() -> None:
    present, found = doctor.picamera_probe()
    if not present:
        assert "picamera2" in found


def test_image_folder_camera_gives_a_frame(tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    np = pytest.importorskip("numpy")
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "table.png"), np.zeros((48, 64, 3), np.uint8))
    result = doctor.check_camera(config_for(tmp_path, camera=f"images:{folder}"))
    assert result.status is Status.OK and "64x48 frame" in result.message


def test_camera_without_frames_fails_naming_why(tmp_path: Path) -> None:
    pytest.importorskip("vision.camera.sources")
    (tmp_path / "empty").mkdir()
    result = doctor.check_camera(config_for(tmp_path, camera=f"images:{tmp_path / 'empty'}"))
    assert result.status is Status.FAIL and "no images" in result.message


def test_missing_usb_camera_fails_with_the_device_fix(tmp_path: Path) -> None:
    pytest.importorskip("vision.camera.sources")
    result = doctor.check_camera(config_for(tmp_path, camera="device:97"), timeout=10)
    assert result.status is Status.FAIL and "device:97" in result.message
    assert "/dev/video" in result.fix


# ---------------------------------------------------------------- model


def test_missing_classifier_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vision.read.classifier", None)  # import raises ImportError
    result = doctor.check_model(config_for(tmp_path, camera="picamera"))
    assert result.status is Status.FAIL and "dice reader is missing" in result.message


def test_model_problems_only_warn_without_a_camera(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vision.read.classifier", None)
    result = doctor.check_model(config_for(tmp_path, camera="none"))
    assert result.status is Status.WARN and "not needed while camera is none" in result.message


def test_corrupt_model_file_fails_naming_the_hash(tmp_path: Path) -> None:
    pytest.importorskip("vision.read.classifier")
    model = tmp_path / "dice_faces.onnx"
    model.write_bytes(b"an ONNX file damaged on the SD card")
    expected = hashlib.sha256(b"the ONNX file as it was shipped").hexdigest()
    model.with_suffix(".sha256").write_text(f"{expected}  dice_faces.onnx\n")
    result = doctor.check_model(config_for(tmp_path, camera="demo"), path=model)
    assert result.status is Status.FAIL
    actual = hashlib.sha256(model.read_bytes()).hexdigest()
    assert f"SHA-256 is {actual}, expected {expected}" in result.message
    assert "reinstall" in result.fix


def test_model_without_its_hash_file_fails(tmp_path: Path) -> None:
    pytest.importorskip("vision.read.classifier")
    model = tmp_path / "dice_faces.onnx"
    model.write_bytes(b"onnx")
    result = doctor.check_model(config_for(tmp_path, camera="demo"), path=model)
    assert result.status is Status.FAIL and "dice_faces.sha256" in result.message


def _tiny_face_model(path: Path, size: int) -> None:
    """An ONNX file with the classifier's input and outputs: mean colour -> probabilities."""
    onnx = pytest.importorskip("onnx")
    np = pytest.importorskip("numpy")
    helper, tensor = onnx.helper, onnx.TensorProto
    weights = {name: onnx.numpy_helper.from_array(np.ones((3, n), np.float32), name)
               for name, n in (("w_value", 11), ("w_colour", 4), ("w_face", 1))}
    nodes = [
        helper.make_node("ReduceMean", ["crops"], ["mean"], axes=[2, 3], keepdims=0),
        helper.make_node("MatMul", ["mean", "w_value"], ["value_logits"]),
        helper.make_node("Softmax", ["value_logits"], ["value_probs"], axis=1),
        helper.make_node("MatMul", ["mean", "w_colour"], ["colour_logits"]),
        helper.make_node("Softmax", ["colour_logits"], ["colour_probs"], axis=1),
        helper.make_node("MatMul", ["mean", "w_face"], ["face_logit"]),
        helper.make_node("Flatten", ["face_logit"], ["face_flat"], axis=0),
        helper.make_node("Sigmoid", ["face_flat"], ["face_col"]),
        helper.make_node("Squeeze", ["face_col", "zero"], ["face_prob"]),
    ]
    zero = onnx.numpy_helper.from_array(np.array([0], np.int64), "zero")
    graph = helper.make_graph(
        nodes, "tiny_faces",
        [helper.make_tensor_value_info("crops", tensor.FLOAT, ["n", 3, size, size])],
        [helper.make_tensor_value_info("value_probs", tensor.FLOAT, ["n", 11]),
         helper.make_tensor_value_info("colour_probs", tensor.FLOAT, ["n", 4]),
         helper.make_tensor_value_info("face_prob", tensor.FLOAT, ["n"])],
        [*weights.values(), zero])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    path.write_bytes(model.SerializeToString())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    path.with_suffix(".sha256").write_text(f"{digest}  {path.name}\n")


def test_a_model_matching_its_hash_passes(tmp_path: Path) -> None:
    pytest.importorskip("vision.read.classifier")
    crops = pytest.importorskip("vision.read.crops")
    model = tmp_path / "tiny_faces.onnx"
    _tiny_face_model(model, crops.CROP_SIZE)
    result = doctor.check_model(config_for(tmp_path, camera="demo"), path=model)
    assert result.status is Status.OK, result
    assert result.message == (
        f"{model}, models/dice_tops.onnx, models/frame_colours.onnx and"
        " models/frame_cool_colours.onnx match their SHA-256 and load"
    )


def test_shipped_model_passes(tmp_path: Path) -> None:
    pytest.importorskip("vision.read.classifier")
    if not resources.files("models").joinpath("dice_faces.onnx").is_file():
        pytest.skip("models/dice_faces.onnx is not shipped yet")
    result = doctor.check_model(config_for(tmp_path, camera="demo"))
    assert result.status is Status.OK, result
    assert result.message == (
        "models/dice_faces.onnx, models/dice_tops.onnx, models/frame_colours.onnx and"
        " models/frame_cool_colours.onnx match their SHA-256 and load"
    )


@pytest.mark.parametrize(
    ("module", "loader", "file"),
    [("vision.read.tops", "TopFinder", "dice_tops.onnx"),
     ("vision.read.frame_colours", "PairNetwork", "frame_colours.onnx")],
)
def test_model_error_maps_to_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, loader: str, file: str
) -> None:
    onnx_model = pytest.importorskip("vision.read.onnx_model")
    owner = pytest.importorskip(module)

    def corrupt(*args: object, threads: int = 1) -> None:
        raise onnx_model.ModelFileError(f"models/{file}", "SHA-256 is abc123")

    monkeypatch.setattr(getattr(owner, loader), "load", corrupt)
    result = doctor.check_model(config_for(tmp_path, camera="auto"))
    assert result.status is Status.FAIL and f"{file}: SHA-256 is abc123" in result.message
    assert "reinstall" in result.fix


# ---------------------------------------------------------------- the command


def run_doctor(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    doctor.add_parser(parser.add_subparsers())
    return doctor.run(parser.parse_args(["doctor", *argv]))


def _config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_json_report_lists_every_check_and_exit_status_follows_failures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _config_file(tmp_path, f'host = "127.0.0.1"\nport = {free_port()}\n'
                                  f'data_dir = "{tmp_path / "data"}"\ncamera = "none"\n')
    status = run_doctor("--config", str(path), "--json")
    report = json.loads(capsys.readouterr().out)
    names = [check["name"] for check in report["checks"]]
    assert names == ["config", "camera", "model", "database", "port", "clock"]
    failed = [check for check in report["checks"] if check["status"] == "FAIL"]
    assert report["ok"] is (not failed) and status == (1 if failed else 0)
    assert report["checks"][0]["status"] == "ok" and str(path) in report["checks"][0]["message"]


def test_bad_config_fails_naming_the_key(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = _config_file(tmp_path, 'camra = "demo"\n')
    assert run_doctor("--config", str(path)) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("FAIL: config: ") and "camra" in lines[0]
    assert lines[1].startswith(("ok: clock", "warn: clock", "FAIL: clock"))


def test_missing_config_file_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_doctor("--config", str(tmp_path / "nowhere.toml")) == 1
    assert "nowhere.toml" in capsys.readouterr().out


def test_phase10_command_line_runs_doctor(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    assert main(["doctor", "--config", str(tmp_path / "nowhere.toml"), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["checks"][0]["name"] == "config"


def test_port_and_data_dir_flags_win_over_the_config_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _config_file(tmp_path, f'host = "127.0.0.1"\nport = 1\n'
                                  f'data_dir = "{tmp_path / "old"}"\ncamera = "none"\n')
    port, data = free_port(), tmp_path / "new"
    run_doctor("--config", str(path), "--port", str(port), "--data-dir", str(data), "--json")
    checks = {check["name"]: check for check in json.loads(capsys.readouterr().out)["checks"]}
    assert f"--port {port}" in checks["config"]["message"]
    assert str(port) in checks["port"]["message"] and checks["port"]["status"] == "ok"
    assert str(data) in checks["database"]["message"] and "old" not in checks["database"]["message"]
