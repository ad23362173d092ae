# The two set-up commands of the README: `make run` and `make test`; `make check` is the
# quick lane while working (under a minute), `make test` the whole suite.
# Each creates (or updates, when pyproject.toml changes) the local virtual
# environment .venv from this project's own files, then runs.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run check test lint bench train clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/phase10 serve

# The quick lane: lint, then every test but the slow and browser ones, stopping at the
# first failure, with Hypothesis's dev profile (tests/conftest.py).
check: lint
	$(BIN)/python -m pytest -q -x -m "not slow and not browser" --hypothesis-profile=dev

# The whole suite, with Hypothesis's ci profile (the default; HYPOTHESIS_PROFILE=thorough
# tries each property test ten times as often).
test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks -o python_files='bench_*.py' --benchmark-only

# Training needs the CPU build of PyTorch (the `train` extra) and the outline fonts
# (Debian packages, installed as root); the app never imports either.
train: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,train]'
	$(if $(filter 0,$(shell id -u)),,sudo) bash models/install_fonts.sh
	$(BIN)/phase10 train

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
