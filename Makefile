# Two commands on a fresh machine with only Python: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
FLASK  := $(BIN)/flask --app scorekeeper

.PHONY: run serve test test-postgres migrate bench lint clean

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

lint: $(VENV)/.test
	$(BIN)/ruff check scorekeeper tests

clean:
	rm -rf $(VENV) .pytest_cache
