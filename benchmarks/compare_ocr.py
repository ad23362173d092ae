"""Would a pretrained text recogniser help read the faces? PP-OCR (rapidocr-onnxruntime,
its models inside its wheel) against the shipped face classifier, on the same crops.

    pip install rapidocr-onnxruntime           # not a dependency of the project
    .venv/bin/python benchmarks/compare_ocr.py --faces 100

Crops are the classifier's own 40-pixel face crops, rendered in font families
training never saw (`held-out-light` and `held-out-dark`, from the evaluation
seeds). The recogniser reads the face's middle (the die's outline cut away, padded
with the body's colour, enlarged to 96 pixels) at the four quarter turns, with no
detection step, and the most confident reading that is a value (1 to 10, W; an M
is a W upside down) is its answer. Prints each reader's value accuracy, the same
on the dice the classifier is unsure of (top value probability under 0.9, where a
second opinion would be asked), and the recogniser's median time per die on one
thread.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import cv2
import numpy as np

from models.evaluate import render_eval_set
from vision.read.classifier import FaceClassifier
from vision.read.model_io import VALUE_LABELS
from vision.synth.looks import eval_group
from vision.synth.seeds import EVAL_SEED_BASE

UNSURE_BELOW = 0.9
READS_AS = {"W": 0, "M": 0, **{str(value): value for value in range(1, 11)}}


def ocr_value(engine, crop: np.ndarray) -> int | None:
    """The recogniser's most confident value over the four quarter turns, or None."""
    inner = crop[7:33, 7:33]
    body = np.median(inner.reshape(-1, 3), axis=0).astype(np.uint8).tolist()
    padded = cv2.copyMakeBorder(inner, 6, 6, 6, 6, cv2.BORDER_CONSTANT, value=body)
    large = cv2.resize(padded, (96, 96), interpolation=cv2.INTER_CUBIC)
    best: tuple[float, int] | None = None
    for turns in range(4):
        found, _ = engine(np.ascontiguousarray(np.rot90(large, turns)), use_det=False,
                          use_cls=False, use_rec=True)
        for text, score in ((item[0], item[1]) for item in found or []):
            value = READS_AS.get(str(text).strip().upper())
            if value is not None and (best is None or float(score) > best[0]):
                best = (float(score), value)
    return None if best is None else best[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faces", type=int, default=100, help="face crops per group")
    args = parser.parse_args(argv)
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError:
        print("skipped: rapidocr-onnxruntime is not installed (pip install "
              "rapidocr-onnxruntime)", file=sys.stderr)
        return 0
    cv2.setNumThreads(1)
    engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)
    classifier = FaceClassifier.load(threads=1)
    rows = []
    for key in ("held-out-light", "held-out-dark"):
        data = render_eval_set(args.faces, EVAL_SEED_BASE + 5_000_000, look=eval_group(key).mix())
        crops, values = data.crops[data.faces], data.values[data.faces]
        probs = classifier.predict(crops).value_probs
        for crop, truth, row in zip(crops, values, probs, strict=True):
            start = time.perf_counter()
            read = ocr_value(engine, crop)
            rows.append((VALUE_LABELS[int(truth)], VALUE_LABELS[int(row.argmax())],
                         float(row.max()), read, time.perf_counter() - start))
    unsure = [row for row in rows if row[2] < UNSURE_BELOW]
    print(f"{len(rows)} face crops in held-out fonts (light and dark bodies)")
    print(f"classifier: {sum(r[1] == r[0] for r in rows) / len(rows):.1%} of values right")
    print(f"recogniser: {sum(r[3] == r[0] for r in rows) / len(rows):.1%} of values right, "
          f"{1000 * statistics.median(r[4] for r in rows):.0f} ms per die (four turns)")
    print(f"on the {len(unsure)} dice the classifier is unsure of: classifier right "
          f"{sum(r[1] == r[0] for r in unsure)}, recogniser right "
          f"{sum(r[3] == r[0] for r in unsure)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
