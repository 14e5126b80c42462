"""The benchmark serves the app as production does: its gunicorn command line is serve.py's."""

from __future__ import annotations

import os
from unittest import mock

from bench.server import production_argv
from scorekeeper import serve


def test_bench_serves_with_productions_command_line() -> None:
    """`make bench` measures the command `make serve` runs, with its own port, workers and app
    (an access log would be work production does not do)."""
    with mock.patch.dict(os.environ, {"ACCESS_LOG": "1"}):
        argv = production_argv("bench.bare:app", 5123, workers=3, threads=5)
    with mock.patch.dict(os.environ, {"WORKERS": "3", "THREADS": "5", "ACCESS_LOG": ""}):
        served = serve.gunicorn_command("127.0.0.1", 5123)
    assert argv == [*served[:-1], "bench.bare:app"]
    assert argv[argv.index("--workers") + 1] == "3"
    # gunicorn's settings file (gevent workers, streams ended on shutdown) comes along.
    assert argv[argv.index("--config") + 1] == serve.CONFIG
    assert "--access-logfile" not in argv
