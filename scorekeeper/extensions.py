"""The Flask extensions, created once and bound to the app in create_app."""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import has_request_context, request
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_sqlalchemy.session import Session as FlaskSession
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase

# Named constraints, so Alembic can alter them on SQLite and PostgreSQL alike.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)


class Session(FlaskSession):
    """Flask-SQLAlchemy's session, with a GET's statements run outside a transaction: no BEGIN
    and ROLLBACK around them, two of a sheet page's six round trips. A GET only reads, and
    under READ COMMITTED each of its statements saw its own snapshot anyway; every write is a
    POST, one transaction that takes its match's lock first (scoresheet/writing.py). Chosen when a
    statement first needs a connection, so a request that reads nothing takes none."""

    def get_bind(self, *args: Any, **kwargs: Any) -> sa.Engine | sa.Connection:
        """The app's engine; for a GET, the same engine's connections in autocommit."""
        engine = super().get_bind(*args, **kwargs)
        return reading_twin(engine) if reading() and isinstance(engine, sa.Engine) else engine


def reading() -> bool:
    """Whether this request only reads: a GET (or HEAD), served outside a transaction."""
    return has_request_context() and request.method in ("GET", "HEAD")


class WriteInRead(RuntimeError):
    """A GET tried to write. Outside a transaction each statement would commit on its own,
    without the match's lock or an idempotency key: a bug, stopped before it reaches the
    database."""


@sa.event.listens_for(Session, "do_orm_execute")
def _reads_only(state: so.ORMExecuteState) -> None:
    """A GET's statements read: an INSERT, UPDATE or DELETE is refused."""
    if reading() and (state.is_insert or state.is_update or state.is_delete):
        raise WriteInRead(f"{request.method} {request.path} wrote: {state.statement}")


@sa.event.listens_for(Session, "before_flush")
def _flushes_nothing(session: so.Session, context: Any, instances: Any) -> None:
    """A GET changes no object (a flush would write it)."""
    if reading() and (session.new or session.dirty or session.deleted):
        raise WriteInRead(f"{request.method} {request.path} changed {session.dirty or session.new}")


@functools.cache
def reading_twin(engine: sa.Engine) -> sa.Engine:
    """The engine's twin that runs each statement without a transaction, made once per engine."""
    return engine.execution_options(isolation_level="AUTOCOMMIT")


db = SQLAlchemy(model_class=Base, session_options={"class_": Session})

# What the models are made from: db.Model, which type checkers cannot follow as a base class
# (Flask-SQLAlchemy makes it as the app starts), is the declarative Base it extends.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
# Pages go out compressed: a phone on a weak connection at the table waits less.
compress = Compress()

# A pooled connection left unused this long is checked before it is handed out again.
PING_AFTER_IDLE = 5.0


def ping_when_idle(engine: sa.Engine) -> None:
    """Check a pooled connection before use if it sat idle (a restarted or timed-out database
    server drops connections), and replace it if it is gone, as pool_pre_ping would; but not
    one used a moment ago. pool_pre_ping's round trip on every checkout was a tenth of the cost
    of an entry post; a connection dropped in the moments since it was last used costs one
    failed request, after which the pool replaces all its connections."""

    @sa.event.listens_for(engine, "checkin")
    def checked_in(dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def checked_out(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < PING_AFTER_IDLE:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as gone:
            # The pool discards this connection and checks out another (a new one if need be).
            raise sa.exc.DisconnectionError() from gone


@sa.event.listens_for(sa.Engine, "connect")
def _sqlite_pragmas(dbapi_connection: object, connection_record: object) -> None:
    """SQLite: enforce foreign keys, and let readers go on while one phone writes (WAL)."""
    import sqlite3

    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()
