"""The bench's own database: created and migrated as production's is, dropped afterwards."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

REPO = Path(__file__).resolve().parent.parent
BENCH_DATABASE = "scorekeeper_bench"


class BenchError(RuntimeError):
    """The bench could not measure what it meant to: say why and stop."""


def postgres_url(admin_url: str, name: str = BENCH_DATABASE) -> str:
    """The bench database's URL (or another of the bench's: the profile's) on the server that
    `admin_url` reaches."""
    return sa.make_url(admin_url).set(database=name).render_as_string(hide_password=False)


def create_postgres(admin_url: str, name: str = BENCH_DATABASE) -> None:
    """A fresh, empty bench database (one left behind by a killed run is dropped first)."""
    _admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(admin_url, f'CREATE DATABASE "{name}"')


def drop_postgres(admin_url: str, name: str = BENCH_DATABASE) -> None:
    """Drop the bench database, whoever is still connected to it."""
    _admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _admin(admin_url: str, statement: str) -> None:
    """Run one statement outside a transaction, as CREATE/DROP DATABASE need."""
    engine = sa.create_engine(_psycopg(admin_url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(sa.text(statement))
    finally:
        engine.dispose()


def _psycopg(url: str) -> str:
    """The URL with the psycopg 3 driver the app uses (not psycopg2, which isn't installed)."""
    return (
        sa.make_url(url).set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    )


def migrate(database_url: str) -> None:
    """`flask --app scorekeeper db upgrade` against the bench database, as `make migrate` does."""
    flask = str(Path(sys.executable).parent / "flask")
    done = subprocess.run(
        [flask, "--app", "scorekeeper", "db", "upgrade"],
        cwd=REPO,
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BenchError(f"migrations failed:\n{done.stdout}{done.stderr}")
