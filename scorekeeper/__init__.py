"""Scorekeeper: the score sheet for card games played at a real table."""

from __future__ import annotations

import os
import secrets
from typing import Any

import orjson
import sqlalchemy as sa
from flask import Flask
from flask import typing as ft
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper import (
    edges,
    figures,
    guesses,
    languages,
    live,
    new_matches,
    stream_caps,
)
from scorekeeper.extensions import (
    compress,
    csrf,
    db,
    migrate,
    ping_when_idle,
)
from scorekeeper.live import fanout, stream
from scorekeeper.phones import identity


def create_app(test_config: dict[str, Any] | None = None) -> Scorekeeper:
    """Build the app: configuration, extensions, blueprints. Migrations run from a command."""
    app = Scorekeeper(
        __name__,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # A phone keeps its seats for a year: matches span evenings, history spans longer.
        PERMANENT_SESSION_LIFETIME=365 * 24 * 3600,
        # Only a change writes the cookie: a live fetch racing a post must not send back an old
        # session (it brought a shown message back), and a 304 stays a few hundred bytes.
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,
        # WTForms' own messages come in the phone's language through the forms' Meta
        # (forms.PhoneForm), from catalogs read once, not on every request.
        WTF_I18N_ENABLED=False,
        # The biggest form here (a new match with eight named sides) is about 3 KB and 40
        # fields: anything far beyond is not a phone at the table, and is refused unread (413).
        MAX_CONTENT_LENGTH=32 * 1024,
        MAX_FORM_PARTS=200,
        # Look-ups of codes that find no match, per phone address (scorekeeper/guesses.py).
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_KEY_PREFIX="scorekeeper",
        CODE_MISS_LIMIT="20 per hour; 40 per day",
        # Matches one phone, and one address, may create (new_matches.py): far above a host at
        # a café making one a minute, far below a script making them by the hundred.
        NEW_MATCHES_PER_PHONE="10 per minute; 120 per hour",
        NEW_MATCHES_PER_ADDRESS="30 per minute; 300 per hour; 2000 per day",
        # How many worker processes this server runs, each counting misses in its own memory
        # under memory:// (guesses.py): gunicorn's worker says (gunicorn.conf.py).
        SERVER_WORKERS=1,
        # How many reverse proxies stand in front (nginx, a load balancer): their
        # X-Forwarded-* headers then name the phone's address and the public host.
        TRUSTED_PROXIES=0,
        # PostgreSQL: each worker hears every match's new version (live/fanout.py); off behind a
        # pooler that cannot LISTEN (PgBouncer in transaction mode): it reads them each second.
        LISTEN_FOR_VERSIONS=True,
        # A match's stream says it is alive this often (seconds), and a page with a stream open
        # fetches its live part this often anyway (four times as often while it has none).
        STREAM_HEARTBEAT=stream.HEARTBEAT,
        # A stream ends after this many seconds (a little less, at random) and its phone
        # reconnects: no connection is held forever by a phone long gone.
        STREAM_LIFETIME=stream.LIFETIME,
        # Streams held open at once (stream_caps.py), far above a real table (2-8 phones with
        # a few tabs each, a TV; a café's tables behind one address) and far below what a
        # worker holds (gunicorn.conf.py): whoever holds the rest, pages and posts get in.
        STREAMS_PER_PHONE=10,
        STREAMS_PER_ADDRESS=300,
        STREAMS_PER_MATCH=100,
        # And each worker's budget of streams (stream_caps.py): by default four fifths of the
        # connections it holds (gunicorn's worker_connections, which its worker tells the app:
        # gunicorn.conf.py), the rest always free for pages and posts; past half of it, an
        # address holding this many streams in the worker gets no more there.
        STREAMS_PER_WORKER=None,
        WORKER_CONNECTIONS=5000,
        STREAMS_PER_ADDRESS_CROWDED=50,
        # Where workers don't hear each other's writes, how often (seconds) each reads the
        # versions its streams watch (live/fanout.py: on SQLite a write wakes them at once as well).
        READ_VERSIONS_EVERY=fanout.READ_EVERY,
        SAFETY_FETCH_SECONDS=60,
        # Prometheus' bearer token for /metrics (figures.py): none, and nobody is shown them.
        METRICS_TOKEN=None,
        # How long a code that moves a history to another browser works (scoresheet/moving.py).
        HISTORY_CODE_MINUTES=5,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("SCOREKEEPER")
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
        if os.environ.get("RATELIMIT_STORAGE_URI"):
            app.config["RATELIMIT_STORAGE_URI"] = os.environ["RATELIMIT_STORAGE_URI"]
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = _instance_secret_key(app.instance_path)
    else:
        app.config.update(test_config)

    app.config["SQLALCHEMY_DATABASE_URI"] = _driver_url(app.config["SQLALCHEMY_DATABASE_URI"])
    # The app's connection settings, under any the configuration gives (a test's search path,
    # an operator's timeout) key by key: so every database reads JSON alike.
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
        **_engine_options(app.config["SQLALCHEMY_DATABASE_URI"]),
        **app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {}),
    }

    # First: a request that is no phone's form is refused before anything reads it.
    edges.init_app(app)
    identity.init_app(app)
    db.init_app(app)

    @app.teardown_appcontext
    def let_the_connection_go(error: BaseException | None) -> None:
        """End the request's transaction before Flask-SQLAlchemy removes its session: a
        connection dropped after the request's last statement (its answer is ready) must not
        turn that answer into an error; the pool replaces it."""
        try:
            db.session.rollback()
        except sa.exc.DBAPIError:
            app.logger.warning("database connection dropped after the answer was ready")

    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            ping_when_idle(db.engine)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(__file__), "..", "migrations"))
    csrf.init_app(app)
    guesses.init_app(app)
    new_matches.init_app(app)
    compress.init_app(app)
    languages.init_app(app)

    from scorekeeper import errors, headers, words
    from scorekeeper.calculator.routes import bp as calculator_bp
    from scorekeeper.forms import DIGITS, new_key
    from scorekeeper.groups.routes import bp as groups_bp
    from scorekeeper.history.routes import bp as history_bp
    from scorekeeper.phones.group_rules import GroupAction
    from scorekeeper.phones.rules import Action
    from scorekeeper.sheet.routes import bp as sheet_bp
    from scorekeeper.tables.routes import bp as tables_bp

    # Every template may ask the viewer what it may do (viewer.may(Action.END)), gives each
    # form its key, and tells the page's script which digits the server reads (the
    # calculator's data-digits, for its steppers to count on from).
    app.jinja_env.globals["Action"] = Action
    app.jinja_env.globals["GroupAction"] = GroupAction
    app.jinja_env.globals["DIGITS"] = "".join(DIGITS)
    app.add_template_global(new_key)
    words.init_app(app)
    app.register_blueprint(tables_bp)
    app.register_blueprint(sheet_bp)
    app.register_blueprint(history_bp)
    app.register_blueprint(calculator_bp)
    app.register_blueprint(groups_bp)
    headers.init_app(app)
    errors.register(app)
    live.init_app(app)
    figures.init_app(app)
    stream_caps.init_app(app)
    if app.config["TRUSTED_PROXIES"]:
        # Outermost, so every layer inside sees the phone's address and the host it asked for.
        hops = int(app.config["TRUSTED_PROXIES"])
        # Flask's documented way to wrap its WSGI app, which type checkers take for
        # replacing a method.
        proxied = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
        app.wsgi_app = proxied  # type: ignore[method-assign]
    return app


class Scorekeeper(Flask):
    """Flask, with a request that finds its database connection dead carried out once more
    on a fresh one (a restarted server, a pooler or NAT that dropped it): a read is safe to
    repeat, and so is a write, whose transaction never committed (or, if the connection died
    at COMMIT, whose key makes the repeat answer "Already recorded.")."""

    def dispatch_request(self) -> ft.ResponseReturnValue:
        """The view's answer, retried once after a dropped connection."""
        try:
            return super().dispatch_request()
        except sa.exc.DBAPIError as error:
            if not error.connection_invalidated:
                raise
            self.logger.warning("database connection dropped; the request is tried again")
            db.session.rollback()
            return super().dispatch_request()


def _instance_secret_key(instance_path: str) -> str:
    """The signing key for phones' cookies: made once into instance/, never a default in code."""
    path = os.path.join(instance_path, "secret_key")
    try:
        with open(path) as f:
            key = f.read().strip()
            if key:
                return key
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    # O_EXCL: when several workers start at once, one writes and the others read its key.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with open(path) as f:
            return f.read().strip() or key
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


def _driver_url(url: str) -> str:
    """Let DATABASE_URL say plain postgresql:// (as hosts hand it out) and still use psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _engine_options(url: str) -> dict[str, Any]:
    """Connection settings: SQLite waits for a busy writer instead of failing at once. (A
    server's connections are checked after idling: extensions.ping_when_idle.) JSON columns
    are read by orjson: every cell carries its ticks as JSON, and the standard library's
    json.loads (3 µs for an empty list, on the driver's bytes) was an eighth of a 200-hand
    sheet's page on PostgreSQL (docs/benchmark.md)."""
    options: dict[str, Any] = {"json_deserializer": orjson.loads}
    if url.startswith("sqlite"):
        options["connect_args"] = {"timeout": 30}
    return options
