"""Two app servers (separate gunicorn processes, two ports) over one database: live across both."""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    """A port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def shared_database(tmp_path) -> Iterator[str]:
    """An empty database of its own, on PostgreSQL when the suite runs there, else SQLite."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base or not base.startswith("postgresql"):
        yield f"sqlite:///{tmp_path / 'shared.sqlite'}"
        return
    name = f"scorekeeper_two_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield str(sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False))
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def two_servers(shared_database, tmp_path) -> Iterator[tuple[str, str]]:
    """Migrate the database as `make run` does, then two gunicorns on it, as two servers would."""
    env = {
        **os.environ,
        "DATABASE_URL": shared_database,
        "SCOREKEEPER_SECRET_KEY": "two-servers-test",
    }
    subprocess.run(
        [BIN / "flask", "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    ports = [free_port(), free_port()]
    servers = [
        subprocess.Popen(
            [
                BIN / "gunicorn",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "scorekeeper:create_app()",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url in urls:
            for _ in range(100):
                try:
                    urllib.request.urlopen(url + "/", timeout=1).close()
                    break
                except OSError:  # not listening yet, or still booting
                    time.sleep(0.1)
        yield urls[0], urls[1]
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)


class HttpPhone:
    """A phone talking HTTP to one server, with its own cookies."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict]:
        """Open a page; status, text and headers (a 304 is an answer, not an error)."""
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, response.read().decode(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), dict(error.headers)

    def post(self, path: str, form: dict[str, object]) -> tuple[int, str]:
        """Submit a form with this phone's CSRF token, following the redirect."""
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', self.get("/")[1])
        assert token
        data = {"csrf_token": token.group(1), "key": uuid.uuid4().hex, **form}
        body = urllib.parse.urlencode(data).encode()
        try:
            with self.opener.open(self.base + path, data=body, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def test_an_entry_through_one_server_appears_live_through_the_other(two_servers):
    first, second = two_servers
    host, guest = HttpPhone(first), HttpPhone(second)
    status, page = host.post(
        "/new/basra",
        {
            "table_format": "2",
            "target": "101",
            "host_side": "0",
            "side_0": "Alice",
            "side_1": "Ben",
            "rule_carry_over": "stack",
            "rule_double_basra": "off",
            "rule_basra_value": "flat",
            "rule_seven_diamonds": "standard",
        },
    )
    assert status == 200
    code = re.search(r"/m/([A-Z2-9]{6})/live", page).group(1)
    status, _ = guest.post(f"/m/{code}/claim", {"target": 1})
    assert status == 200

    status, _, headers = guest.get(f"/m/{code}/live")
    assert status == 200
    etag = headers["ETag"]
    status, _, _ = guest.get(f"/m/{code}/live", {"If-None-Match": etag})
    assert status == 304

    status, _ = host.post(f"/m/{code}/enter", {"hand": 1, "side": 0, "points": 48})
    assert status == 200
    status, live, _ = guest.get(f"/m/{code}/live", {"If-None-Match": etag})
    assert status == 200
    assert "waiting for" in live and ">48<" in live.replace("\n", "").replace(" ", "")
