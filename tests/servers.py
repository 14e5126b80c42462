"""Real app servers for tests: gunicorn processes over a database of their own, phones over HTTP."""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, closing, contextmanager
from functools import partial
from pathlib import Path

import sqlalchemy as sa

from scorekeeper.serve import CONFIG
from tests.streams import Stream
from tests.waiting import wait_until

# A head-to-head Basra as the New match form posts it, every table rule chosen: the match
# the server tests (and bench/delivery.py) play over HTTP.
BASRA_FORM = {
    "table_format": "2",
    "target": "101",
    "host_side": "0",
    "side_0": "Alice",
    "side_1": "Ben",
    "rule_carry_over": "stack",
    "rule_double_basra": "off",
    "rule_basra_value": "flat",
    "rule_seven_diamonds": "standard",
}
# The checkout these tests are in: its servers run its own code.
ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    """A port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def new_database(directory: Path, template: str | None = None) -> Iterator[str]:
    """A database of its own, on PostgreSQL when the suite runs there, else SQLite: empty, or
    a copy of `template` (another such database)."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base or not base.startswith("postgresql"):
        url = f"sqlite:///{directory / f'{uuid.uuid4().hex[:8]}.sqlite'}"
        if template is not None:
            # SQLite's own copy: whatever of the template is still in its write-ahead log too.
            with (
                closing(sqlite3.connect(str(sa.engine.make_url(template).database))) as source,
                closing(sqlite3.connect(str(sa.engine.make_url(url).database))) as copy,
            ):
                source.backup(copy)
        yield url
        return
    name = f"scorekeeper_two_{uuid.uuid4().hex[:8]}"
    copied = f' TEMPLATE "{sa.engine.make_url(template).database}"' if template else ""
    # A connection of its own each time (no pool): one kept from the start would not outlive
    # a test that ends every connection to the suite's database (test_dropped_connections).
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"{copied}'))
    try:
        yield str(sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False))
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# The streams' heartbeat on test servers: short, so a test's streams are closed in a moment
# (a stream's reader only notices it is done when something arrives).
HEARTBEAT = "0.5"


def server_env(database_url: str, **settings: str) -> dict[str, str]:
    """The environment a production server runs with: its database and a fixed secret, a
    short heartbeat, and any other settings (`LISTEN_FOR_VERSIONS="false"` becomes
    SCOREKEEPER_LISTEN_FOR_VERSIONS)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "servers-test",
        "SCOREKEEPER_STREAM_HEARTBEAT": HEARTBEAT,
    }
    return env | {f"SCOREKEEPER_{name}": value for name, value in settings.items()}


def migrate(database_url: str) -> None:
    """Bring the database to the newest schema, as `make run` does."""
    subprocess.run(
        [str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT,
        env=server_env(database_url),
        check=True,
        capture_output=True,
    )


def answers(url: str) -> bool:
    """Whether a server answers at this address (not yet listening, or still booting: no; an
    error page is an answer: a server whose database is down answers 503)."""
    try:
        urllib.request.urlopen(url + "/", timeout=1).close()
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


@contextmanager
def gunicorns(
    database_url: str,
    count: int = 1,
    workers: int = 2,
    worker_connections: int | None = None,
    **settings: str,
) -> Iterator[list[tuple[str, subprocess.Popen]]]:
    """`count` gunicorns serving the app as production does, each on a port of its own; yields
    their addresses and processes once every one answers. Started together, as the servers
    behind a balancer boot, and ended at once after (kill -9): how a server stops when told to
    is tested on its own (test_a_server_told_to_stop_ends_its_streams_at_once), and waiting
    for each to stop gracefully cost some 2 s a test. `worker_connections` makes each worker
    hold fewer connections than production's (a crowd a test can afford fills it)."""
    servers = []
    # Each server's figures in a folder of its own (gunicorn.conf.py makes one otherwise, and
    # removes it on exit, which a server ended with kill -9 never reaches).
    figures = ExitStack()
    held = ["--worker-connections", str(worker_connections)] if worker_connections else []
    for _ in range(count):
        port = free_port()
        folder = figures.enter_context(tempfile.TemporaryDirectory(prefix="scorekeeper-figures-"))
        process = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "--config",
                CONFIG,
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                *held,
                "scorekeeper:create_app()",
            ],
            cwd=ROOT,
            env=server_env(database_url, **settings) | {"PROMETHEUS_MULTIPROC_DIR": folder},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        servers.append((f"http://127.0.0.1:{port}", process))
    try:
        for url, _process in servers:
            # A booting server answers in 2 s on a quiet machine, and in 10 to 15 s on one
            # busy with other work (measured at a load of 10 on 2 cores).
            assert wait_until(partial(answers, url), 30), f"{url} never answered"
        yield servers
    finally:
        for _url, process in servers:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
        for _url, process in servers:
            process.wait(timeout=10)
        figures.close()


@contextmanager
def gunicorn(
    database_url: str, workers: int = 2, worker_connections: int | None = None, **settings: str
) -> Iterator[tuple[str, subprocess.Popen]]:
    """A gunicorn serving the app as production does; yields its address once it answers."""
    with gunicorns(database_url, 1, workers, worker_connections, **settings) as [server]:
        yield server


def kill_hard(server: subprocess.Popen) -> None:
    """kill -9 the server and every worker, as a crash or a pulled plug would."""
    os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=10)


CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


class FromAddress(urllib.request.HTTPHandler):
    """Connections from this loopback address (Linux routes all of 127/8 to the machine
    itself): another phone's address, as a server behind no proxy sees it."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        """Open the connection from this handler's address."""
        return self.do_open(http.client.HTTPConnection, req, source_address=(self.address, 0))


class HttpPhone:
    """A phone talking HTTP to one server, with its own cookies, posting with the CSRF token
    of the last page it was shown; from 127.0.0.1 unless `address` says another."""

    def __init__(self, base: str, address: str = "127.0.0.1") -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), FromAddress(address)
        )
        self.token: str | None = None

    def cookie_header(self) -> str:
        """The Cookie header this phone sends, for a request written by hand."""
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.cookies)

    def _shown(self, page: str) -> str:
        """Keep the token of a page this phone was shown."""
        found = CSRF.search(page)
        if found:
            self.token = found.group(1)
        return page

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict]:
        """Open a page; status, text and headers (a 304 is an answer, not an error)."""
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with self.opener.open(request, timeout=10) as response:
                return (
                    response.status,
                    self._shown(response.read().decode()),
                    dict(response.headers),
                )
        except urllib.error.HTTPError as error:
            return error.code, self._shown(error.read().decode()), dict(error.headers)

    def stream(self, path: str, headers: dict[str, str] | None = None) -> Stream:
        """Open a match's stream of events, as a page's EventSource does."""
        request = urllib.request.Request(self.base + path, headers=headers or {})
        response = self.opener.open(request, timeout=30)
        assert response.status == 200
        return Stream(iter(response.readline, b""), response.close)

    def post(self, path: str, form: Mapping[str, object]) -> tuple[int, str]:
        """Submit a form with this phone's CSRF token (a phone shown no page yet opens Home
        first), following the redirect."""
        if self.token is None:
            self.get("/")
        assert self.token
        data = {"csrf_token": self.token, "key": uuid.uuid4().hex, **form}
        body = urllib.parse.urlencode(data).encode()
        try:
            with self.opener.open(self.base + path, data=body, timeout=10) as response:
                return response.status, self._shown(response.read().decode())
        except urllib.error.HTTPError as error:
            return error.code, self._shown(error.read().decode())
