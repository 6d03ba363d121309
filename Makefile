# One virtual environment, made on first use and refreshed when pyproject.toml changes.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-slow lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## The main job.
run: $(STAMP)
	$(PY) -m randomchess demo

## The whole test suite (without the slow deep-perft checks).
test: $(STAMP)
	$(PY) -m pytest -q

## Deep perft and other slow checks.
test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy --strict src/randomchess

bench: $(STAMP)
	$(PY) bench/perft_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
