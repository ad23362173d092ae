"""The checks deploy/check-arm64.sh runs inside the arm64 root, and their x86 reference.

Standard library only: inside the root it runs on Debian's own python3, and reaches
the app through the `phase10` command and the app's own environment, as a person on
the Pi would. Each subcommand is one step; a failed check exits 1 with what differs.

    reference --phase10 PATH --out DIR   this machine's readings, odds, models, read time
    installed | doctor | read | serve | assets   (inside the root) one step each
"""

from __future__ import annotations

import argparse
import grp
import json
import os
import platform
import pwd
import re
import signal
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

GOLDEN = Path("tests/data/golden")
PREFIX = Path("/opt/phase10")
CONFIG = Path("/etc/phase10/config.toml")
UNIT = Path("/etc/systemd/system/phase10.service")
AVAHI = Path("/etc/avahi/services/phase10.service")
LINK = Path("/usr/local/bin/phase10")
DATA_DIR = Path("/var/lib/phase10")
USER = "phase10"

#: The rulebook's example: phase 1 (two sets of three) made, 34 points.
TURN_ROLL = "8R 8B 8G 10O 5G 7R WR WB 1G 3R"
TURN_SCORE = 34
#: A die's centre may move this far (pixels) and its confidence this much between
#: x86 and arm64 (other SIMD kernels in OpenCV and ONNX Runtime round differently).
CENTRE_TOLERANCE = 1.0
CONFIDENCE_TOLERANCE = 0.01
MODEL_TOLERANCE = 1e-3
#: Times each golden scene is read for the read time (after one warm-up read).
TIMING_ROUNDS = 1

#: Run by the app's own Python: the shipped odds tables and models, loaded and used.
ASSETS = r"""
import hashlib, json, sys
from importlib import resources
import numpy as np
import onnxruntime as ort
from scorer import odds_file
from scorer.odds import turn_odds
from vision.read.classifier import FaceClassifier
from vision.read.tops import TopFinder

shipped = odds_file._shipped_file()
if shipped is None:
    sys.exit("the shipped odds tables did not load (scorer/data/odds_tables.xz)")
header, arrays = shipped
digest = hashlib.sha256()
for name in sorted(arrays):
    digest.update(name.encode() + arrays[name].tobytes())
out = {"odds_sha256": digest.hexdigest(), "odds_arrays": len(arrays),
       "turn_odds": {n: turn_odds(n) for n in range(1, 11)}, "models": {}}
FaceClassifier.load()  # checks the shipped files' SHA-256 and loads them
TopFinder.load()
rng = np.random.default_rng(10)
for path in sorted(resources.files("models").iterdir(), key=lambda p: p.name):
    if not path.name.endswith(".onnx"):
        continue
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feed = {}
    for given in session.get_inputs():
        shape = [d if isinstance(d, int) else 64 for d in given.shape]
        shape[0] = 2
        feed[given.name] = rng.random(shape, dtype=np.float32)
    outputs = session.run(None, feed)
    out["models"][path.name] = [
        {"shape": list(o.shape), "sum": float(np.float64(o).sum()),
         "head": [float(v) for v in np.ravel(o)[:32]]} for o in outputs]
print(json.dumps(out))
"""

#: Run by the app's own Python: milliseconds per frame for the golden scenes.
TIMING = r"""
import glob, json, statistics, sys, time
import cv2
from vision.read.classifier import FaceClassifier
from vision.read.pipeline import DiceReader
from vision.read.tops import TopFinder

reader = DiceReader(FaceClassifier.load(threads=1), finder=TopFinder.load(threads=1))
frames = [cv2.imread(name) for name in sorted(glob.glob(sys.argv[1] + "/*.jpg"))]
reader.read(frames[0])
times = []
for _ in range(int(sys.argv[2])):
    for frame in frames:
        started = time.perf_counter()
        reader.read(frame)
        times.append((time.perf_counter() - started) * 1000)
print(json.dumps({"median_ms": statistics.median(times), "frames": len(times)}))
"""


class CheckFailed(Exception):
    """A check that did not hold, with what differed."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)


def must(command: list[str], what: str, **kwargs) -> str:
    done = run(command, **kwargs)
    check(done.returncode == 0,
          f"{what} exited with {done.returncode}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return done.stdout


def golden_images() -> list[str]:
    return [str(path) for path in sorted(GOLDEN.glob("*.jpg"))]


def readings(phase10: str) -> list[dict]:
    out = must([phase10, "read", "--json", *golden_images()], "phase10 read --json")
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# ---------------------------------------------------------------- x86 reference


def reference(args: argparse.Namespace) -> None:
    out = Path(args.out)
    python = str(Path(args.phase10).parent / "python")
    (out / "x86-read.json").write_text(json.dumps(readings(args.phase10)))
    (out / "x86-assets.json").write_text(must([python, "-c", ASSETS], "x86 assets"))
    timing = must([python, "-c", TIMING, str(GOLDEN), str(TIMING_ROUNDS)], "x86 read time")
    (out / "x86-timing.json").write_text(timing)
    print(f"x86 reference: {len(golden_images())} golden scenes read, odds and models loaded")


# ---------------------------------------------------------------- inside the root


def installed(args: argparse.Namespace) -> None:
    unit = UNIT.read_text()
    exec_start = f"ExecStart={PREFIX}/venv/bin/phase10 serve --config {CONFIG}"
    check(exec_start in unit, f"{UNIT} has no line {exec_start!r}")
    config = tomllib.loads(CONFIG.read_text())
    check(config.get("port") == args.port, f"{CONFIG}: port {config.get('port')}, not {args.port}")
    check(config.get("data_dir") == str(DATA_DIR), f"{CONFIG}: data_dir {config.get('data_dir')}")
    stat = CONFIG.stat()
    check(stat.st_mode & 0o777 == 0o640 and grp.getgrgid(stat.st_gid).gr_name == USER,
          f"{CONFIG} should be 0640 root:{USER} (it may hold the PIN)")
    avahi = ET.fromstring(AVAHI.read_bytes())
    check(avahi.findtext("service/port") == str(args.port),
          f"{AVAHI} announces port {avahi.findtext('service/port')}, not {args.port}")
    user = pwd.getpwnam(USER)
    check(user.pw_shell.endswith("nologin"), f"user {USER} can log in ({user.pw_shell})")
    check(USER in grp.getgrnam("video").gr_mem, f"user {USER} is not in the video group")
    data = DATA_DIR.stat()
    check(data.st_uid == user.pw_uid and data.st_mode & 0o777 == 0o750,
          f"{DATA_DIR} should be {USER}'s, mode 0750")
    check(LINK.resolve() == PREFIX / "venv/bin/phase10", f"{LINK} does not lead to the app")
    machine = must([str(PREFIX / "venv/bin/python"), "-c",
                    "import platform; print(platform.machine())"], "the app's python").strip()
    check(machine == "aarch64", f"the app's python runs as {machine}, not aarch64")
    log = Path("/reference/install.log").read_text()
    for said in ("skip (--no-systemd)", "(not Raspberry Pi OS: no python3-picamera2"):
        check(said in log, f"the installer did not say {said!r}")
    wheels = must([str(PREFIX / "venv/bin/python"), "-m", "pip", "list", "--format=json"],
                  "pip list")
    versions = {p["name"].lower(): p["version"] for p in json.loads(wheels)}
    print(f"installed for {machine} ({platform.python_version()}): unit, config (port {args.port}),"
          f" mDNS file, user {USER} in video, {DATA_DIR}, {LINK}; numpy {versions.get('numpy')},"
          f" opencv-python-headless {versions.get('opencv-python-headless')},"
          f" onnxruntime {versions.get('onnxruntime')}")


def doctor(args: argparse.Namespace) -> None:
    done = run(["phase10", "doctor"])
    print(done.stdout, end="")
    report = json.loads(must_json(["phase10", "doctor", "--json"]))
    results = {item["name"]: item for item in report["checks"]}
    for name in ("config", "model", "database", "port"):
        check(results.get(name, {}).get("status") == "ok",
              f"phase10 doctor: {name} is not ok: {results.get(name)}")
    check(results.get("clock", {}).get("status") in ("ok", "warn"),
          f"phase10 doctor: clock: {results.get('clock')}")
    # No camera here: the camera line may say anything but must be there.
    check("camera" in results, "phase10 doctor has no camera line")


def must_json(command: list[str]) -> str:
    # doctor exits 1 when a check fails (the camera, here); its JSON is still complete.
    done = run(command)
    check(done.stdout.strip().startswith("{"), f"{' '.join(command)}: {done.stderr[-2000:]}")
    return done.stdout


def _matched(x86: list[dict], arm: list[dict]) -> tuple[float, float, list[str]]:
    """Largest centre and confidence differences, pairing each die with the nearest."""
    worst_centre = worst_confidence = 0.0
    differences = []
    left = list(arm)
    for die in x86:
        if not left:
            break
        near = min(left, key=lambda d: (d["centre"][0] - die["centre"][0]) ** 2
                   + (d["centre"][1] - die["centre"][1]) ** 2)
        left.remove(near)
        distance = ((near["centre"][0] - die["centre"][0]) ** 2
                    + (near["centre"][1] - die["centre"][1]) ** 2) ** 0.5
        worst_centre = max(worst_centre, distance)
        if near["notation"] != die["notation"]:
            differences.append(f"die at {die['centre']}: {die['notation']} on x86, "
                               f"{near['notation']} on arm64")
        if die.get("confidence") is not None and near.get("confidence") is not None:
            worst_confidence = max(worst_confidence, abs(die["confidence"] - near["confidence"]))
    return worst_centre, worst_confidence, differences


def read(args: argparse.Namespace) -> None:
    x86 = json.loads((Path(args.reference) / "x86-read.json").read_text())
    arm = readings("phase10")
    check([r["image"] for r in arm] == [r["image"] for r in x86],
          f"images read differ: {[r['image'] for r in arm]}")
    problems, worst_centre, worst_confidence, dice = [], 0.0, 0.0, 0
    for a, b in zip(x86, arm, strict=True):
        name = Path(a["image"]).name
        for key in ("flags", "complete"):
            if a.get(key) != b.get(key):
                problems.append(f"{name}: {key} {a.get(key)} on x86, {b.get(key)} on arm64")
        notes_a = sorted(str(d["notation"]) for d in a["dice"])
        notes_b = sorted(str(d["notation"]) for d in b["dice"])
        if notes_a != notes_b:
            problems.append(f"{name}: {' '.join(notes_a)} on x86, {' '.join(notes_b)} on arm64")
        centre, confidence, differences = _matched(a["dice"], b["dice"])
        problems += [f"{name}: {text}" for text in differences]
        worst_centre = max(worst_centre, centre)
        worst_confidence = max(worst_confidence, confidence)
        dice += len(b["dice"])
    if worst_centre > CENTRE_TOLERANCE:
        problems.append(f"a die's centre moved {worst_centre:.2f} px (> {CENTRE_TOLERANCE})")
    if worst_confidence > CONFIDENCE_TOLERANCE:
        problems.append(f"a confidence moved {worst_confidence:.4f} (> {CONFIDENCE_TOLERANCE})")
    check(not problems, "the arm64 readings differ from x86:\n  " + "\n  ".join(problems))
    print(f"{len(arm)} golden scenes, {dice} dice: the same values, colours, flags as on x86 "
          f"(centres within {worst_centre:.3f} px, confidences within {worst_confidence:.5f})")
    python = str(PREFIX / "venv/bin/python")
    timing = json.loads(must([python, "-c", TIMING, str(GOLDEN), str(TIMING_ROUNDS)],
                             "the read time"))
    native = json.loads((Path(args.reference) / "x86-timing.json").read_text())
    ratio = timing["median_ms"] / max(native["median_ms"], 1e-9)
    line = (f"read time under emulation: {timing['median_ms']:.0f} ms a frame (median of "
            f"{timing['frames']}), {ratio:.0f}x this machine's own {native['median_ms']:.1f} ms: "
            "a regression guard only, not the Pi's speed")
    Path(args.reference, "frame-times.txt").write_text(line)
    print(line)


def _request(port: int, method: str, path: str, body: object = None,
             content_type: str = "application/json") -> tuple[int, dict]:
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=300) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def _unit_service() -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in UNIT.read_text().splitlines():
        match = re.match(r"^(User|Group|WorkingDirectory|ExecStart|Environment)=(.*)$", line)
        if match:
            fields[match[1]] = match[2]
    return fields


def serve(args: argparse.Namespace) -> None:
    unit = _unit_service()
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": unit["WorkingDirectory"]}
    name, _, value = unit.get("Environment", "").partition("=")
    if name:
        env[name] = value
    command = ["setpriv", f"--reuid={unit['User']}", f"--regid={unit['Group']}", "--init-groups",
               *unit["ExecStart"].split()]
    log = open("/reference/serve.log", "w")  # noqa: SIM115 - kept open while it runs
    server = subprocess.Popen(command, cwd=unit["WorkingDirectory"], env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _play(args.port, server)
    except CheckFailed:
        log.flush()
        print(Path("/reference/serve.log").read_text()[-3000:], file=sys.stderr)
        raise
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
    database = DATA_DIR / "scorepad.sqlite3"
    check(database.is_file() and database.stat().st_uid == pwd.getpwnam(USER).pw_uid,
          f"{database} was not written by {USER}")


def _play(port: int, server: subprocess.Popen) -> None:
    started = time.monotonic()
    while True:
        check(server.poll() is None, f"phase10 serve stopped with {server.returncode}")
        try:
            status, _ = _request(port, "GET", "/api/config")
            if status == 200:
                break
        except (OSError, ValueError):
            pass
        check(time.monotonic() - started < 300, "phase10 serve did not answer within 300 s")
        time.sleep(1)
    print(f"phase10 serve (the unit's ExecStart, as {USER}) answers after "
          f"{time.monotonic() - started:.0f} s")
    play_turn(port)


def _seen(state: dict) -> dict:
    """What the phone showed, which every change of a game sends (web/API.md)."""
    return {"version": state["version"], "roll_id": state.get("roll_id")}


def play_turn(port: int) -> None:
    """Ann types the rulebook's roll and scores it; Bob's roll is read from a photo and
    his turn ends: the scorepad's API as a phone uses it."""
    status, game = _request(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
    check(status == 201, f"POST /api/games: {status} {game}")
    base = f"/api/games/{game['id']}"
    status, state = _request(port, "POST", f"{base}/roll", {"roll": TURN_ROLL, **_seen(game)})
    check(status == 200 and state["current"]["verdict"]["score"] == TURN_SCORE,
          f"POST {base}/roll: {status} {state.get('error') or state['current']['verdict']}")
    status, hint = _request(port, "GET", f"{base}/advice")
    check(status == 200 and hint.get("short"), f"GET {base}/advice: {status} {hint}")
    status, state = _request(port, "POST", f"{base}/score", {"player": "Ann", **_seen(state)})
    check(status == 200, f"POST {base}/score: {status} {state}")
    ann = state["scorepad"]["columns"][0]
    check(ann["grand_total"] == TURN_SCORE, f"Ann's total is {ann['grand_total']}")
    photo = (GOLDEN / "full_light.jpg").read_bytes()
    status, state = _request(port, "POST", f"{base}/photo", photo, "image/jpeg")
    check(status == 200 and len(state["current"]["dice"]) == 10,
          f"POST {base}/photo: {status} {state.get('error') or state.get('photo')}")
    status, state = _request(port, "POST", f"{base}/fail", {"player": "Bob", **_seen(state)})
    check(status == 200, f"POST {base}/fail: {status} {state}")
    status, again = _request(port, "GET", base)
    check(status == 200 and again["version"] == state["version"], f"GET {base}: {status}")
    print(f"a turn over HTTP: game {game['id']}, Ann typed {TURN_ROLL} and scored {TURN_SCORE} "
          f"(hint: {hint['short']}); Bob's roll read from a photo (10 dice), turn ended")


def assets(args: argparse.Namespace) -> None:
    x86 = json.loads((Path(args.reference) / "x86-assets.json").read_text())
    arm = json.loads(must([str(PREFIX / "venv/bin/python"), "-c", ASSETS], "odds and models"))
    check(arm["odds_sha256"] == x86["odds_sha256"],
          "the shipped odds tables read differently on arm64 (their SHA-256 differs)")
    for phase, chance in x86["turn_odds"].items():
        check(abs(arm["turn_odds"][phase] - chance) < 1e-12,
              f"phase {phase}: turn odds {arm['turn_odds'][phase]} on arm64, {chance} on x86")
    check(arm["models"].keys() == x86["models"].keys(), f"models: {sorted(arm['models'])}")
    worst = 0.0
    for name, outputs in x86["models"].items():
        for a, b in zip(outputs, arm["models"][name], strict=True):
            check(a["shape"] == b["shape"], f"{name}: output shape {b['shape']}, not {a['shape']}")
            worst = max(worst, *(abs(x - y) for x, y in zip(a["head"], b["head"], strict=True)))
    check(worst < MODEL_TOLERANCE, f"model outputs differ by {worst} (> {MODEL_TOLERANCE})")
    print(f"odds tables: {arm['odds_arrays']} tables, bit for bit as on x86, turn odds equal; "
          f"models {', '.join(sorted(arm['models']))}: load, SHA-256 checked, outputs within "
          f"{worst:.1e} of x86")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    ref = sub.add_parser("reference")
    ref.add_argument("--phase10", required=True)
    ref.add_argument("--out", required=True)
    for name in ("installed", "doctor", "read", "serve", "assets"):
        step = sub.add_parser(name)
        step.add_argument("--reference", default="/reference")
        step.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    steps = {"reference": reference, "installed": installed, "doctor": doctor, "read": read,
             "serve": serve, "assets": assets}
    try:
        steps[args.step](args)
    except CheckFailed as failed:
        print(f"arm64 check failed: {failed}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
