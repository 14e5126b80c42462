# Two commands on a fresh machine with only Python: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
FLASK  := $(BIN)/flask --app scorekeeper

.PHONY: run serve test test-fast migrate bench profile lint clean messages language

# The players' languages: a catalog (.po, translated by hand) per language, compiled here
# (.mo, never committed) before the app runs or is tested.
TRANSLATIONS := scorekeeper/translations
CATALOGS     := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
COMPILED     := $(CATALOGS:.po=.mo)
PYBABEL      := $(BIN)/pybabel

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
run: $(VENV)/.app $(COMPILED) migrate
	$(BIN)/python -m scorekeeper.serve

## The same, as production runs it: more workers (WORKERS=n), DATABASE_URL for PostgreSQL.
serve: $(VENV)/.app $(COMPILED) migrate
	WORKERS=$${WORKERS:-4} $(BIN)/python -m scorekeeper.serve

migrate: $(VENV)/.app
	$(FLASK) db upgrade

## Set up with the test extras and run the whole suite (SQLite; TEST_DATABASE_URL for PostgreSQL).
test: $(VENV)/.test $(COMPILED)
	$(BIN)/python -m pytest -n auto

## The lane to run while you work: unit and test-client tests, no browser and no servers.
test-fast: $(VENV)/.test $(COMPILED)
	$(BIN)/python -m pytest -n auto -m "not browser and not server" --hypothesis-profile=fast

## On demand, not in the suite: the app under production's gunicorn, loaded, against its
## targets (bench/run.py; needs wrk and PostgreSQL). BENCH_ARGS="--sqlite --workers 4" etc.
bench: $(VENV)/.test $(COMPILED)
	$(BIN)/python -m bench.run $(BENCH_ARGS)

## Where a request's CPU goes, in-process, by component (Jinja, SQL, ORM, sheet, Flask...):
## the sheet page, its live part, the entry post, 200 hands (bench/profile.py; PostgreSQL,
## or PROFILE_ARGS="--sqlite"; --help for the rest).
profile: $(VENV)/.test $(COMPILED)
	$(BIN)/python -m bench.profile $(PROFILE_ARGS)

$(TRANSLATIONS)/%.mo: $(TRANSLATIONS)/%.po | $(VENV)/.app
	$(PYBABEL) compile --statistics -i $< -o $@

## After changing words in the code or templates: gather them (messages.pot) and add the new
## ones to every catalog, to be translated there (tests/web/test_languages.py says which).
messages: $(VENV)/.app
	$(PYBABEL) extract -F babel.cfg -k _l -k lazy_ngettext:1,2 -k lazy_pgettext:1c,2 -k says -k says_n:1,2 --no-location \
		--sort-output --add-comments=NOTE: -o $(TRANSLATIONS)/messages.pot .
	$(PYBABEL) update --no-fuzzy-matching -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS)

## A new language: make language LANGUAGE=de, then translate its messages.po.
language: messages
	$(PYBABEL) init -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) -l $(LANGUAGE)

## Lint and type-check, as CI does: ruff and mypy on the code, tests and bench.
lint: $(VENV)/.test
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/ruff format --check scorekeeper tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache
