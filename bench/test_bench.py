"""The bench checks itself (here, beside it, as tests/ imports nothing of bench; `make test`
collects bench/ too): it serves the app as production does, its gunicorn command line is
serve.py's, and its model of a table and its HTTP reader are what it says."""

from __future__ import annotations

import asyncio
import gzip
import os
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

from bench import mix, tables
from bench.server import production_argv
from scorekeeper import serve


def test_bench_serves_with_productions_command_line() -> None:
    """`make bench` measures the command `make serve` runs, with its own port, workers and app
    (an access log would be work production does not do)."""
    with mock.patch.dict(os.environ, {"ACCESS_LOG": "1"}):
        argv = production_argv("bench.bare:app", 5123, workers=3)
    with mock.patch.dict(os.environ, {"WORKERS": "3", "ACCESS_LOG": ""}):
        served = serve.gunicorn_command("127.0.0.1", 5123)
    assert argv == [*served[:-1], "bench.bare:app"]
    assert argv[argv.index("--workers") + 1] == "3"
    # gunicorn's settings file (gevent workers, streams ended on shutdown) comes along.
    assert argv[argv.index("--config") + 1] == serve.CONFIG
    assert "--access-logfile" not in argv


def test_a_pushed_tables_hand() -> None:
    """The bench's model of a table (bench/mix.py): per hand, a safety fetch a minute per
    phone, every entry ringing every phone (the poster's ring fetched, unchanged, once its
    answer is in), a sheet page per phone; the wrk mix in those proportions, each post straight
    before the page it leads to."""
    hand = mix.HAND
    assert (hand.safety, hand.rung, hand.entries, hand.sheets) == (12 + 4, 16 - 4, 4, 4)
    assert hand.heartbeats == 36
    assert mix.TABLE_RATE == 36 / 180
    cycle = mix.cycle()
    assert sorted(cycle) == sorted("uuuuccces")
    assert cycle[cycle.index(mix.ENTRY) + 1] == mix.SHEET


def test_the_tables_client_reads_what_gunicorn_sends() -> None:
    """bench/tables.py reads HTTP by hand: a chunked body, and a page's live-part ETag."""

    async def read(raw: bytes) -> tables.Answer:
        reader = asyncio.StreamReader()
        reader.feed_data(raw)
        reader.feed_eof()
        return await tables.read_answer(reader)

    page = gzip.compress(b'<div id="live" data-version="7" data-etag="W/&#34;7-ab&#34;">')
    raw = (
        b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
        + f"{len(page):x}\r\n".encode()
        + page
        + b"\r\n0\r\n\r\n"
    )
    # In a thread of its own: the browser tests' Playwright keeps an event loop running in
    # this one for the rest of the session.
    with ThreadPoolExecutor(1) as thread:
        answer = thread.submit(asyncio.run, read(raw)).result()
    assert answer.status == 200
    assert tables.page_etag(answer) == 'W/"7-ab"'
    assert tables.version_of(tables.page_etag(answer)) == 7
