"""Build the shipped odds tables file (scorer/data/odds_tables.xz) and time reading it.

Run after changing the odds rules or the dice (scorer/inventory.py); the tests
rebuild the tables and fail while the file is stale:

    .venv/bin/python benchmarks/build_odds_tables.py
"""

from __future__ import annotations

import time
from pathlib import Path

from scorer.odds_file import FILE_NAME, decode, write

PATH = Path(__file__).resolve().parent.parent / "scorer" / "data" / FILE_NAME


def main() -> None:
    started = time.perf_counter()
    PATH.parent.mkdir(exist_ok=True)
    size = write(PATH)
    built = time.perf_counter() - started
    started = time.perf_counter()
    decode(PATH.read_bytes())
    read = time.perf_counter() - started
    print(f"{PATH}: {size / 1e6:.2f} MB, built in {built:.1f} s, read back in {read:.3f} s")


if __name__ == "__main__":
    main()
