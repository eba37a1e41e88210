# Two commands for a fresh clone: `make run` (the simulator) and `make test` (the whole suite).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test lint typecheck pytest bench install clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "companion needs Python 3.11 or newer"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.sim: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[sim]'
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.sim

install: $(VENV)/.sim

run: $(VENV)/.sim
	$(BIN)/companion simulate

test: lint typecheck pytest

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev
	$(BIN)/mypy --strict companion/games companion/session companion/render
	$(BIN)/mypy companion

pytest: $(VENV)/.dev
	$(BIN)/python -m pytest -n 2

bench: $(VENV)/.sim
	$(BIN)/companion bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
