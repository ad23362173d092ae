"""How long `phase10 doctor` takes on a well-used table.

The database check runs SQLite's integrity_check, whose time grows with the file:
here a store holding 1000 finished games of 150 events each (years of evenings).
The model check hashes and loads the shipped ONNX file. Both should stay well
under a second on this machine, so a few seconds at most on a Pi's SD card.

    .venv/bin/python -m pytest benchmarks/bench_deploy.py -o python_files='bench_*.py' \
        --benchmark-only
"""

from __future__ import annotations

import json
import sqlite3
from importlib import resources

import pytest

from cli import doctor
from cli.doctor import Status
from web.config import Config

GAMES = 1000
EVENTS_PER_GAME = 150


@pytest.fixture(scope="module")
def busy_config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    from web.store import GameStore

    config = Config(host="127.0.0.1", port=0, camera="none",
                    data_dir=tmp_path_factory.mktemp("data"))
    GameStore(config.database_path).close()  # the real schema, in WAL mode
    event = json.dumps({"kind": "turn", "player": 2, "roll": "8R 8B 8G 10O 5G 7R WR WB 1G 3R",
                        "phase": 4, "made": True, "score": 34})
    connection = sqlite3.connect(config.database_path)
    with connection:
        connection.executemany(
            "INSERT INTO games (id, created, updated, settings, summary, finished) "
            "VALUES (?, '2026-11-22T20:00:00Z', '2026-11-22T21:00:00Z', '{}', '{}', 1)",
            [(game,) for game in range(1, GAMES + 1)])
        connection.executemany(
            "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
            [(game, seq, event) for game in range(1, GAMES + 1) for seq in range(EVENTS_PER_GAME)])
    connection.close()
    return config


def test_database_check_on_a_busy_store(benchmark, busy_config: Config) -> None:
    size = busy_config.database_path.stat().st_size
    result = benchmark(doctor.check_database, busy_config)
    benchmark.extra_info["database_mib"] = round(size / 2**20, 1)
    assert result.status is Status.OK, result
    assert size > 10 * 2**20  # a realistic file, not an empty one


def test_model_check(benchmark, busy_config: Config) -> None:
    pytest.importorskip("vision.read.classifier")
    if not resources.files("models").joinpath("dice_faces.onnx").is_file():
        pytest.skip("models/dice_faces.onnx is not shipped yet")
    camera_config = busy_config.replace(camera="demo")  # so a bad model is a failure
    result = benchmark.pedantic(doctor.check_model, args=(camera_config,), rounds=5)
    assert result.status is Status.OK, result


def test_doctor_port_and_clock(benchmark, busy_config: Config) -> None:
    checks = {"port": doctor.check_port, "clock": doctor.check_clock}
    results = benchmark(doctor.run_checks, busy_config, checks)
    assert results[0].status is Status.OK and results[1].status is not Status.FAIL, results
