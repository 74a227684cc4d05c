# Every target creates .venv and installs the project into it when missing,
# so a fresh clone needs nothing but Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-portable soak long-tests lint check bench bench-pair bench-history clean

$(STAMP): pyproject.toml constraints.txt
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

DEMO_DB := out/rating_batch.sqlite

# The main job on sample_data/: rate a real event file, then the monthly workflow on a
# synthetic federation (init from a list, add two months of events, publish both lists).
run: $(STAMP)
	$(BIN)/rating-batch rate sample_data/events --out out/rate
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	$(BIN)/rating-batch init --list sample_data/monthly/list-2026-01.csv --period 2026-01 --db $(DEMO_DB)
	$(BIN)/rating-batch add sample_data/monthly/2026-01 --db $(DEMO_DB)
	$(BIN)/rating-batch publish 2026-02 --db $(DEMO_DB) --out out/lists
	$(BIN)/rating-batch add sample_data/monthly/2026-02 --db $(DEMO_DB)
	$(BIN)/rating-batch publish 2026-03 --db $(DEMO_DB) --out out/lists
	$(BIN)/rating-batch player 900000020 --db $(DEMO_DB) --out out/lists
	$(BIN)/rating-batch -q rate sample_data/events --rules glicko2 --out out/glicko2

# Python's compiled modules for the tests, kept in .venv/pycache (not beside the sources)
# and written even where PYTHONDONTWRITEBYTECODE is set (some machines and images set it,
# the 2-core machine among them): the suite starts the command line as a real process
# hundreds of times, and without a cache each one compiled again every module it imports
# (docs/testing.md §6).
PYCACHE := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache

# The whole suite, on every core (pytest-xdist).
test: $(STAMP)
	$(PYCACHE) $(BIN)/pytest -q -n auto --dist loadgroup

# The edit-test loop: everything but the kill, concurrency, fault-injection, fuzz and printing
# tests and the long ones of tests/long_tests.txt (the whole suite runs in CI).
test-fast: $(STAMP)
	$(PYCACHE) $(BIN)/pytest -q -n auto --dist loadgroup -m "not slow and not long"

# The commands', the desk's and the monthly tests as on Windows: no fcntl, termios or
# resource, no fork, children by spawn, in every process (tests/portability, docs/testing.md §5).
# PORTABLE_TESTS=tests runs the whole suite so.
PORTABLE_TESTS ?= tests/test_portable.py tests/test_cli.py tests/monthly tests/web tests/store \
	tests/test_crash.py tests/test_undo_safety.py tests/test_parallel.py tests/test_staging.py
test-portable: $(STAMP)
	$(PYCACHE) PYTHONPATH=tests/portability RATING_BATCH_PORTABILITY=1 $(BIN)/pytest -q -n auto --dist loadgroup $(PORTABLE_TESTS)

# The whole suite with the fuzzing and the kill and concurrency loops at full length
# (tests/budget.py): before a release, or nightly (about 1.5 times make test; CI runs test).
soak: $(STAMP)
	$(PYCACHE) RATING_BATCH_SOAK=1 $(BIN)/pytest -q -n auto --dist loadgroup

# tests/long_tests.txt measured again on this machine (review the diff and commit it).
long-tests: $(STAMP)
	$(PYCACHE) $(BIN)/python benchmarks/long_tests.py

lint: $(STAMP)
	$(BIN)/ruff check rating_batch tests benchmarks
	$(BIN)/ruff format --check rating_batch tests benchmarks
	$(BIN)/mypy

check: lint test

bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

# This code against BASE (default 53108da) on the same generated months, whole processes,
# paired: issue 42's figures (benchmarks/pair.py; the base is checked out under its data).
BASE ?= 53108da
bench-pair: $(STAMP)
	$(BIN)/python benchmarks/pair.py --base $(BASE)

# A 10-year database built month by month: add and publish in year 10 against month 2.
bench-history: $(STAMP)
	$(BIN)/python benchmarks/history.py

clean:
	rm -rf out .pytest_cache .mypy_cache .ruff_cache
