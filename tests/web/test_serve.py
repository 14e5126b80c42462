"""`make run` as a host at a table meets it: the address once the server answers, a plain
word when the port is taken, no line per request, and a whole table's streams held."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from scorekeeper.serve import CONFIG
from tests.servers import BIN, ROOT, HttpPhone, free_port, server_env
from tests.streams import close_all


def serve(database_url: str, port: int, workers: str | None = "1") -> subprocess.Popen[str]:
    """`python -m scorekeeper.serve`, as `make run` starts it, on this port (with its own
    default number of workers where `workers` is None)."""
    env = server_env(database_url) | {"PORT": str(port), "HOST": "127.0.0.1"}
    env.pop("WORKERS", None)
    if workers is not None:
        env["WORKERS"] = workers
    return subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def read_until(server: subprocess.Popen[str], words: str, seconds: float = 60) -> list[str]:
    """The lines it prints up to one holding `words`."""
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    assert server.stdout is not None
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line and server.poll() is not None:
            break
        lines.append(line)
        if words in line:
            return lines
    raise AssertionError(f"{words!r} never printed: {''.join(lines)}")


def test_the_address_is_printed_once_it_answers_and_polls_are_not_logged(migrated_database):
    port = free_port()
    server = serve(migrated_database, port)
    try:
        read_until(server, "Scorekeeper is up")
        address = read_until(server, f":{port}/")[-1].strip()
        assert address == f"http://127.0.0.1:{port}/"
        # Printed once it answers: the very next request is served.
        with urllib.request.urlopen(address, timeout=5) as home:
            assert home.status == 200
        for _ in range(5):
            urllib.request.urlopen(address, timeout=5).close()
        read_until(server, "ACCESS_LOG=1")
    finally:
        server.send_signal(signal.SIGTERM)
        rest, _ = server.communicate(timeout=30)
    assert server.returncode == 0
    # Six requests served, and not one line each.
    assert '"GET / HTTP/1.1" 200' not in rest


def test_a_taken_port_is_said_plainly_with_the_way_out(shared_database):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = serve(shared_database, port)
        said, _ = server.communicate(timeout=30)
    assert server.returncode == 1
    assert f"Port {port} is taken" in said
    assert f"PORT={port + 1} make run" in said
    assert "Scorekeeper is up" not in said
    assert "Traceback" not in said


def test_make_run_holds_a_table_of_eight_phones_and_a_tv(migrated_database):
    """As `make run` serves (serve.py's own command, its default two workers, SQLite unless
    the suite runs on PostgreSQL): eight phones and a TV each hold the match's stream open,
    and every entry rings all nine while they stay open."""
    port = free_port()
    server = serve(migrated_database, port, workers=None)
    try:
        read_until(server, "Scorekeeper is up")
        base = f"http://127.0.0.1:{port}"
        names = {f"side_{i}": f"Player {i + 1}" for i in range(8)}
        host = HttpPhone(base)
        table = {"table_format": "free", "target": "500", "host_side": "0", **names}
        status, page = host.post("/new/other", table)
        assert status == 200, page
        code = re.search(r"/m/([A-Z2-9]{6})/live", page).group(1)
        players = [host] + [HttpPhone(base) for _ in range(7)]
        for position, phone in enumerate(players[1:], start=1):
            assert phone.post(f"/m/{code}/claim", {"target": position})[0] == 200
        tv = HttpPhone(base)
        streams = [phone.stream(f"/m/{code}/events") for phone in [*players, tv]]
        for stream in streams:
            assert stream.next()["event"] == "release"
        for position, phone in enumerate(players):
            status, _ = phone.post(
                f"/m/{code}/enter", {"hand": 1, "side": position, "points": 10 + position}
            )
            assert status == 200
            rings = [stream.ring() for stream in streams]
            assert None not in rings, f"entry {position + 1}: {rings.count(None)} of 9 not rung"
        status, tv_page, _ = tv.get(f"/m/{code}/tv")
        assert status == 200 and "Player 8" in tv_page
        close_all(streams)
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
    assert server.returncode == 0


# gunicorn.conf.py with a worker that gevent never patched, as a server started some other way
# (a worker class of its own, an app imported before the patch) would run.
UNPATCHED = """
import runpy

_ours = runpy.run_path({config!r})
globals().update({{k: v for k, v in _ours.items() if not k.startswith("__")}})


class Unpatched(_ours["PatientGeventWorker"]):
    def patch(self):
        pass


worker_class = Unpatched
"""


def test_a_worker_gevent_did_not_patch_refuses_to_serve_and_gunicorn_stops(
    shared_database: str, tmp_path: Path
):
    config = tmp_path / "unpatched.conf.py"
    config.write_text(UNPATCHED.format(config=CONFIG))
    command = [str(BIN / "gunicorn"), "--config", str(config), "--workers", "1"]
    bind = ["--bind", f"127.0.0.1:{free_port()}", "scorekeeper:create_app()"]
    stopped = subprocess.run(
        [*command, *bind],
        cwd=ROOT,
        env=server_env(shared_database),
        capture_output=True,
        text=True,
        timeout=60,
    )
    # Said in the log, and no phone served: the worker fails to boot, and gunicorn with it.
    assert "gevent did not patch socket and threading" in stopped.stderr
    assert "Worker failed to boot" in stopped.stderr
    assert stopped.returncode == 3
