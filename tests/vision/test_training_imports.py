"""Import contract (issue 14): what the app loads never imports training code, and
vision never imports the web app (without a camera, the app loads only vision's
camera contract).

The scorepad (`web`) and the commands that run the app or read dice (`phase10
serve`, `read`, `score`, `odds`, `doctor`, `qr`) never import the trainers, their
options, torch or the training-data generators; `phase10 train`, `train-locator`
and `eval-model` import them inside the command, when it runs. Beside the
scorer's own layering test (tests/scorer/test_solver.py: the scorer imports only the
standard library).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Training code: these modules and everything under them.
TRAINING = (
    "torch", "onnx", "onnxscript", "tqdm", "fontTools",
    "models.train", "models.train_locator", "models.options", "models.net",
    "models.locator_net", "models.export", "models.onnx_init", "models.chunk_cache",
    "models.evaluate", "models.cut_fonts", "models.train_frame_colours", "models.train_face_probe",
    "models.readout_reader", "models.checkpoint",
    "vision.synth.training", "vision.synth.locator_training",
)
#: The command modules that only train or evaluate the models.
TRAINING_COMMANDS = ("train", "train_locator", "eval_model")
#: What a command module may import at its top besides the standard library and cli:
#: nothing heavy, so that listing the commands loads nothing they run.
CLI_TOP_LEVEL = ("web.network",)


def is_training(name: str) -> bool:
    return any(name == module or name.startswith(module + ".") for module in TRAINING)


def imported_names(path: Path, *, top_level_only: bool = False) -> list[str]:
    """The absolute module names a file imports (`from a import b` gives a and a.b)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    names: list[str] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return names


def app_files() -> list[Path]:
    commands = [path for path in sorted((ROOT / "cli").glob("*.py"))
                if path.stem not in TRAINING_COMMANDS]
    return sorted((ROOT / "web").rglob("*.py")) + commands


def test_the_file_lists_are_not_empty() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in app_files()}
    assert {"web/app.py", "web/views/api.py", "cli/serve.py", "cli/main.py"} <= names


@pytest.mark.parametrize("path", app_files(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_web_and_the_app_commands_never_import_training_code(path: Path) -> None:
    """Anywhere in the file, inside functions too."""
    assert [name for name in imported_names(path) if is_training(name)] == []


@pytest.mark.parametrize("path", sorted((ROOT / "cli").glob("*.py")), ids=lambda path: path.name)
def test_command_modules_import_only_the_standard_library_at_their_top(path: Path) -> None:
    """What a command runs is imported inside it, so `phase10 serve` loads no trainer."""
    for name in imported_names(path, top_level_only=True):
        top = name.split(".")[0]
        allowed = top in sys.stdlib_module_names or top == "cli" or name in CLI_TOP_LEVEL
        allowed = allowed or name.startswith(tuple(module + "." for module in CLI_TOP_LEVEL))
        assert allowed, f"{path.name} imports {name} at its top"


@pytest.mark.parametrize("path", sorted((ROOT / "vision").rglob("*.py")),
                         ids=lambda path: path.relative_to(ROOT).as_posix())
def test_vision_never_imports_web_or_the_command_line(path: Path) -> None:
    """Vision hands readings to whoever asks; the web app depends on it, never the reverse."""
    assert [name for name in imported_names(path)
            if name.split(".")[0] in ("web", "cli")] == []


def test_the_app_without_a_camera_loads_only_the_camera_contract_of_vision(
        tmp_path: Path) -> None:
    """The config and camera thread use `vision.camera.camera_contract`, the photo uploads
    `vision.read.photo_file` (plain Python, Pillow loaded on use); OpenCV,
    numpy and the models load only when a camera is configured."""
    check = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from web.app import close_app, create_app
        from web.config import Config

        close_app(create_app(Config(camera="none", data_dir=Path({str(tmp_path)!r}))))
        print(json.dumps(sorted(name for name in sys.modules
                                if name.split(".")[0] in ("vision", "cv2", "onnxruntime"))))
    """)
    run = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[-1]) == [
        "vision", "vision.camera", "vision.camera.camera_contract", "vision.read",
        "vision.read.photo_file", "vision.reading"]


def loaded_training_modules(program: str) -> list[str]:
    """Run `program` in a fresh interpreter; the training modules it left loaded."""
    check = textwrap.dedent(program) + textwrap.dedent(f"""
        import json, sys
        training = {TRAINING!r}
        print(json.dumps(sorted(
            name for name in sys.modules
            if any(name == m or name.startswith(m + ".") for m in training))))
    """)
    run = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


def test_creating_the_app_loads_no_training_code(tmp_path: Path) -> None:
    assert loaded_training_modules(f"""
        from pathlib import Path
        from web.app import close_app, create_app
        from web.config import Config

        app = create_app(Config(camera="none", data_dir=Path({str(tmp_path)!r})))
        client = app.test_client()
        assert client.get("/api/health").get_json()["ok"] is True
        assert client.post("/api/games", json={{"players": ["Ann", "Bob"]}}).status_code == 201
        close_app(app)
    """) == []


@pytest.mark.slow
def test_the_demo_table_renders_without_training_code(tmp_path: Path) -> None:
    """The demo camera renders scenes (vision.synth) but not training data, and the
    real table watcher (the ONNX models) loads no trainer."""
    assert loaded_training_modules(f"""
        import time
        from pathlib import Path
        from web.app import close_app, create_app
        from web.config import Config

        app = create_app(Config(camera="demo", data_dir=Path({str(tmp_path)!r})))
        feed = app.extensions["phase10"].camera
        assert feed.wait_ready(60), feed.error
        deadline = time.monotonic() + 60
        while feed.overlay_jpeg() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert feed.overlay_jpeg() is not None, "no frame from the demo table"
        close_app(app)
    """) == []


@pytest.mark.parametrize("argv", [
    [], ["serve", "--camera", "none"], ["read", "tray.jpg"], ["score", "8R 8B"],
    ["odds", "8R", "--phase", "1", "--rolls-left", "2"], ["doctor"], ["qr", "http://x"],
])
def test_parsing_the_app_commands_loads_no_training_code(argv: list[str]) -> None:
    """`phase10 --help` and the app's commands build their parser without the
    training options (models.options), which only train and train-locator load."""
    assert loaded_training_modules(f"""
        from cli.main import build_parser

        parser = build_parser({argv!r})
        if {argv!r}:
            parser.parse_args({argv!r})
        else:
            parser.format_help()
    """) == []


@pytest.mark.parametrize("command", ["train", "train-locator"])
def test_the_training_commands_parse_their_options_without_torch(command: str) -> None:
    assert loaded_training_modules(f"""
        from cli.main import build_parser

        args = build_parser([{command!r}]).parse_args([{command!r}, "--epochs", "1"])
        assert args.epochs == 1
    """) == ["models.options"]
