# Two commands: `make run` and `make test`. Both create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
TRAIN_STAMP := $(VENV)/.installed-train

.PHONY: run test lint train train-handwriting eval bench loadtest solve clean

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

# The pad reader's handwriting model: three networks trained on the two cores (two narrow
# ones of two seeds one after the other beside the wide one, about 110 minutes), joined
# side by side in one file and their weights stored as int8.
HW := runs/handwriting
train-handwriting: $(TRAIN_STAMP)
	mkdir -p $(HW)
	(nice $(BIN)/python -m models.handwriting --out $(HW)/narrow.onnx && \
		nice $(BIN)/python -m models.handwriting --seed 3 --out $(HW)/narrow3.onnx) & narrow=$$!; \
	nice $(BIN)/python -m models.handwriting --width 2 --epochs 12 --seed 1 \
		--out $(HW)/wide.onnx && wait $$narrow
	$(BIN)/python -m models.ensemble --side-by-side $(HW)/narrow.onnx $(HW)/wide.onnx \
		$(HW)/narrow3.onnx $(HW)/joined.onnx
	$(BIN)/python -m models.compress $(HW)/joined.onnx models/handwriting.onnx

eval: $(STAMP)
	$(BIN)/python -m models.evaluate --loso
	$(BIN)/python -m models.padeval

# The advisor's bench runs beside the reference solver yatzy-solver: installed here, into
# build/bench-deps, never into the app's environment or its dependencies.
BENCH_DEPS := build/bench-deps
REFERENCE_SOLVER := yatzy-solver==1.0.0

$(BENCH_DEPS)/.installed: $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps --target $(BENCH_DEPS) $(REFERENCE_SOLVER)
	touch $@

bench: $(STAMP) $(BENCH_DEPS)/.installed
	$(BIN)/python -m models.bench
	PYTHONPATH=$(BENCH_DEPS) $(BIN)/python -m scorekeeper.advisor.bench

# Then the tables spread over 4 processes on one PostgreSQL, beside SQLite with one.
loadtest: $(STAMP)
	$(BIN)/python -m web.loadtest
	$(BIN)/python -m web.loadtest.spread

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .pytest_cache .ruff_cache
