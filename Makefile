# Two commands: `make run` and `make test`. Both create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
TRAIN_STAMP := $(VENV)/.installed-train

.PHONY: run test lint train eval bench loadtest solve clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(TRAIN_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[train]'
	touch $@

run: $(STAMP)
	$(BIN)/pipkeeper serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# PYTHONNODEBUGRANGES: a traceback logged by a server thread is then printed without
# column carets, which Python 3.11 finds with ast.parse; ast.parse in two threads at
# once (that one, and Flask building another app's routes) can fail with "AST
# constructor recursion depth mismatch" (CPython gh-106905).
test: lint
	PYTHONNODEBUGRANGES=1 $(BIN)/python -m pytest

train: $(TRAIN_STAMP)
	$(BIN)/python -m models.train

eval: $(STAMP)
	$(BIN)/python -m models.evaluate --loso

bench: $(STAMP)
	$(BIN)/python -m models.bench
	$(BIN)/python -m scorekeeper.advisor.bench

# Then the tables spread over 4 processes on one PostgreSQL, beside SQLite with one.
loadtest: $(STAMP)
	$(BIN)/python -m web.loadtest
	$(BIN)/python -m web.loadtest.spread

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .pytest_cache .ruff_cache
