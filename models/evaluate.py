"""Score a face classifier on a held-out rendered set (seeds >= EVAL_SEED_BASE, never trained on).

Runs the ONNX model through the runtime classifier (no torch), so what is
measured is what ships. Reports value and colour accuracy with their confusion
matrices, the 6-vs-9 and 1-vs-7 confusions on their own, and how often the
face head rejects non-faces (and wrongly rejects faces). Crops are drawn per
evaluation group (`synth.looks.EVAL_GROUPS`): fonts training never saw, light and
dark bodies, apart from the training fonts, so generalisation is what is measured.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.read.classifier import FaceClassifier
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.synth.looks import LookMix
from vision.synth.seeds import EVAL_SEED_BASE
from vision.synth.training import render_face_crops

EVAL_CHUNK = 500
FACE_THRESHOLD = 0.5


@dataclass(frozen=True)
class EvalSet:
    """Labelled crops: (N, S, S, 3) uint8, value and colour index (-1 on negatives), is_face."""

    crops: np.ndarray
    values: np.ndarray
    colours: np.ndarray
    faces: np.ndarray


def render_eval_set(
    faces: int, first_seed: int = EVAL_SEED_BASE, look: LookMix | None = None
) -> EvalSet:
    """Exactly `faces` face crops plus the negatives rendered with them, dice sets as `look`
    draws them (None: the Hershey renderer)."""
    if faces < 1:
        raise ValueError(f"an evaluation needs at least one face crop, got {faces}")
    if first_seed < EVAL_SEED_BASE:
        raise ValueError(f"evaluation seeds start at {EVAL_SEED_BASE}, got {first_seed}")
    parts = []
    found = 0
    seed = first_seed
    while found < faces:
        part = render_face_crops(seed, EVAL_CHUNK, look=look)
        parts.append(part)
        found += int(part[3].sum())
        seed += 1
    crops, values, colours, is_face = (np.concatenate(a) for a in zip(*parts, strict=True))
    keep = ~is_face | (np.cumsum(is_face) <= faces)
    return EvalSet(crops[keep], values[keep], colours[keep], is_face[keep])


def _confusion(truth: np.ndarray, predicted: np.ndarray, classes: int) -> np.ndarray:
    matrix = np.zeros((classes, classes), np.int64)
    np.add.at(matrix, (truth, predicted), 1)
    return matrix


def _pair(matrix: np.ndarray, a: int, b: int) -> dict[str, int]:
    """How often label a was read as b and b as a (by value, e.g. 6 and 9)."""
    ia, ib = VALUE_LABELS.index(a), VALUE_LABELS.index(b)
    return {f"{a}_as_{b}": int(matrix[ia, ib]), f"{b}_as_{a}": int(matrix[ib, ia])}


def evaluate(classifier: FaceClassifier, data: EvalSet, batch: int = 256) -> dict:
    """Accuracy figures and confusion matrices (rows: truth, columns: prediction) as plain data."""
    value_probs, colour_probs, face_probs = [], [], []
    for start in range(0, len(data.crops), batch):
        prediction = classifier.predict(data.crops[start : start + batch])
        value_probs.append(prediction.value_probs)
        colour_probs.append(prediction.colour_probs)
        face_probs.append(prediction.face_prob)
    value_pred = np.concatenate(value_probs).argmax(axis=1)
    colour_pred = np.concatenate(colour_probs).argmax(axis=1)
    face_prob = np.concatenate(face_probs)
    faces = data.faces
    values = _confusion(data.values[faces], value_pred[faces], len(VALUE_LABELS))
    colours = _confusion(data.colours[faces], colour_pred[faces], len(COLOUR_LABELS))
    positives, negatives = int(faces.sum()), int((~faces).sum())
    both = (value_pred == data.values) & (colour_pred == data.colours)
    return {
        "face_crops": positives,
        "negative_crops": negatives,
        "value_accuracy": float(np.trace(values) / max(positives, 1)),
        "colour_accuracy": float(np.trace(colours) / max(positives, 1)),
        "die_accuracy": float(both[faces].mean()) if positives else 0.0,
        "colour_accuracy_by_colour": {
            label: float(colours[i, i] / max(colours[i].sum(), 1))
            for i, label in enumerate(COLOUR_LABELS)
        },
        "six_nine": _pair(values, 6, 9),
        "one_seven": _pair(values, 1, 7),
        "negative_rejection_rate": float((face_prob[~faces] < FACE_THRESHOLD).mean())
        if negatives
        else 0.0,
        "face_false_rejection_rate": float((face_prob[faces] < FACE_THRESHOLD).mean())
        if positives
        else 0.0,
        "value_labels": ["W" if v == 0 else str(v) for v in VALUE_LABELS],
        "colour_labels": list(COLOUR_LABELS),
        "value_confusion": values.tolist(),
        "colour_confusion": colours.tolist(),
    }


def format_report(report: dict) -> str:
    """The evaluation as text for the terminal and the model card."""
    lines = [
        f"face crops: {report['face_crops']}, negative crops: {report['negative_crops']}",
        f"value accuracy:  {100 * report['value_accuracy']:.2f} %",
        f"colour accuracy: {100 * report['colour_accuracy']:.2f} %",
        f"value and colour both right: {100 * report['die_accuracy']:.2f} %",
        "colour accuracy by colour: "
        + ", ".join(f"{k} {100 * v:.2f} %" for k, v in report["colour_accuracy_by_colour"].items()),
        "6 vs 9: " + ", ".join(f"{k} {v}" for k, v in report["six_nine"].items()),
        "1 vs 7: " + ", ".join(f"{k} {v}" for k, v in report["one_seven"].items()),
        f"not-a-die rejection rate: {100 * report['negative_rejection_rate']:.2f} % of negatives",
        f"faces wrongly rejected: {100 * report['face_false_rejection_rate']:.2f} %",
        "",
        "value confusion (rows truth, columns read):",
        _matrix(report["value_labels"], report["value_confusion"]),
        "",
        "colour confusion (rows truth, columns read):",
        _matrix(report["colour_labels"], report["colour_confusion"]),
    ]
    return "\n".join(lines)


def _matrix(labels: list[str], rows: list[list[int]]) -> str:
    width = max(5, max(len(str(v)) for row in rows for v in row) + 1)
    header = " " * 4 + "".join(f"{label:>{width}}" for label in labels)
    body = [
        f"{label:>3} " + "".join(f"{v:>{width}}" for v in row)
        for label, row in zip(labels, rows, strict=True)
    ]
    return "\n".join([header, *body])
