# Two commands on a fresh machine with only Python: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
FLASK  := $(BIN)/flask --app scorekeeper

.PHONY: run serve test migrate bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.app: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.app

## Set up, migrate the database and serve on 0.0.0.0:5000 for the phones on this Wi-Fi.
run: $(VENV)/.app migrate
	$(BIN)/python -m scorekeeper.serve

## The same, as production runs it: more workers (WORKERS=n), DATABASE_URL for PostgreSQL.
serve: $(VENV)/.app migrate
	WORKERS=$${WORKERS:-4} $(BIN)/python -m scorekeeper.serve

migrate: $(VENV)/.app
	$(FLASK) db upgrade

## Set up with the test extras and run the whole suite (SQLite; TEST_DATABASE_URL for PostgreSQL).
test: $(VENV)/.test
	$(BIN)/python -m pytest

## On demand, not in the suite: the app under production's gunicorn, loaded, against its
## targets (bench/run.py; needs wrk and PostgreSQL). BENCH_ARGS="--sqlite --workers 4" etc.
bench: $(VENV)/.test
	$(BIN)/python -m bench.run $(BENCH_ARGS)

lint: $(VENV)/.test
	$(BIN)/ruff check scorekeeper tests

clean:
	rm -rf $(VENV) .pytest_cache
