# Every target creates .venv and installs the project into it when missing,
# so a fresh clone needs nothing but Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint check bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rating-batch rate sample_data/events --out out

test: $(STAMP)
	$(BIN)/pytest -q

lint: $(STAMP)
	$(BIN)/ruff check rating_batch tests benchmarks
	$(BIN)/ruff format --check rating_batch tests benchmarks
	$(BIN)/mypy

check: lint test

bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf out .pytest_cache .mypy_cache .ruff_cache
