"""Loading a shipped ONNX model: found with importlib.resources, checked against the
SHA-256 stored beside it, run by ONNX Runtime with an explicit thread count.

Both networks (the face classifier and the top-face locator) load this way, so a
corrupt or replaced file is refused the same way for each.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import onnxruntime as ort


class ModelFileError(RuntimeError):
    """The model file is missing, corrupt, or not the model this code expects."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"model file {self.path}: {problem}")


def _read_model(path: Path | None, shipped: str) -> tuple[str, bytes, str]:
    """(display name, model bytes, expected SHA-256) of the given or the shipped model."""
    if path is None:
        package = resources.files("models")
        model = package.joinpath(shipped)
        digest = package.joinpath(Path(shipped).with_suffix(".sha256").name)
        name = f"models/{shipped}"
    else:
        model, digest = Path(path), Path(path).with_suffix(".sha256")
        name = str(path)
    if not model.is_file():
        raise ModelFileError(name, "file not found")
    if not digest.is_file():
        raise ModelFileError(name, f"its hash file {digest.name} is missing beside it")
    fields = digest.read_text(encoding="utf-8").split()
    if not fields or len(fields[0]) != 64:
        raise ModelFileError(name, f"its hash file {digest.name} holds no SHA-256")
    return name, model.read_bytes(), fields[0].lower()


@dataclass(frozen=True)
class LoadedModel:
    """A verified ONNX Runtime session, the name to show for its file, and its SHA-256
    (what a dice profile records, so it knows which model described its examples)."""

    session: ort.InferenceSession
    name: str
    sha256: str
    outputs: tuple[str, ...]


def load_session(
    path: Path | None,
    shipped: str,
    outputs: tuple[str, ...],
    threads: int,
    *,
    optional: tuple[str, ...] = (),
) -> LoadedModel:
    """A verified session of the model at `path` (default: `shipped` in `models/`).

    Its outputs must be `outputs`, optionally followed by `optional` (the classifier's
    embedding, which older model files lack). Raises ModelFileError when the file is
    not that model."""
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    name, data, expected = _read_model(path, shipped)
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise ModelFileError(
            name, f"SHA-256 is {actual}, expected {expected}: the file is corrupt or replaced"
        )
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(
            data, sess_options=options, providers=["CPUExecutionProvider"]
        )
    except Exception as error:  # onnxruntime raises its own untyped errors
        raise ModelFileError(name, f"not a loadable ONNX model ({error})") from error
    found = tuple(o.name for o in session.get_outputs())
    if found not in (outputs, outputs + optional):
        raise ModelFileError(name, f"outputs are {found}, expected {outputs}")
    return LoadedModel(session, name, actual, found)
