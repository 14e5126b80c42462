"""The bench checks itself (here, beside it, as tests/ imports nothing of bench; `make test`
collects bench/ too): it serves the app as production does, its gunicorn command line is
serve.py's, and its model of a table and its HTTP reader are what it says."""

from __future__ import annotations

import asyncio
import gzip
import os
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from bench import mix, run, tables
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


def test_the_tables_climb_doubling_to_their_ceiling() -> None:
    """Past the listed sizes the tables climb: the largest doubled while under --climb-to, then
    --climb-to itself; nothing once the listed reach it (0 turns the climb off)."""
    listed = [100, 200, 300, 400, 500]
    assert run.climb(listed, 5_000) == [1_000, 2_000, 4_000, 5_000]
    assert run.climb([20, 40], 160) == [80, 160]
    assert run.climb(listed, 600) == [600]
    assert run.climb(listed, 500) == []
    assert run.climb(listed, 0) == []


def test_the_knee_as_issue_41_played_it_by_hand() -> None:
    """500 tables at p99 20 ms, 1,000 at 29, 2,000 at 161: the knee is between 1,000 and 2,000,
    and the report says so with both p99s; a size with errors is past it however fast."""
    p99s = {100: 8.0, 500: 20.0, 1_000: 29.0, 2_000: 161.0}
    assert run.knee(p99s) == run.Knee(1_000, 2_000)
    assert run.knee_line(p99s, {}, 5_000) == (
        "between 1,000 tables (p99 29.0 ms) and 2,000 tables (p99 161.0 ms)"
    )
    assert run.knee(p99s, {1_000: 3}) == run.Knee(500, 1_000)
    assert run.knee_line(p99s, {1_000: 3}, 5_000) == (
        "between 500 tables (p99 20.0 ms) and 1,000 tables (p99 29.0 ms, 3 errors)"
    )
    # Every size within, up to the climb's ceiling, or up to the most played with no climb.
    within = {500: 20.0, 5_000: 99.9}
    assert run.knee(within) == run.Knee(5_000, None)
    assert run.knee_line(within, {}, 5_000) == "5,000 tables within 100 ms (p99 99.9 ms)"
    assert run.knee_line({500: 20.0}, {}, 0).startswith("beyond 500 tables (p99 20.0 ms)")
    # Already past at the fewest played; exactly the ceiling is past it.
    assert run.knee({100: 100.0, 200: 50.0}) == run.Knee(None, 100)
    assert run.knee_line({100: 100.0}, {}, 0).startswith("below 100 tables (p99 100.0 ms)")


@given(
    st.dictionaries(
        st.integers(1, 10_000),
        st.floats(0, 400, allow_nan=False),
        min_size=1,
    ),
    st.data(),
)
def test_the_knee_is_where_a_size_first_is_not_served(
    p99s: dict[int, float], data: st.DataObject
) -> None:
    """Against the knee's definition read another way: every size up to the one below the knee
    was served (p99 under 100 ms, no errors), and the one past it is the fewest tables that
    were not."""
    errors = data.draw(st.dictionaries(st.sampled_from(sorted(p99s)), st.integers(0, 3)))
    found = run.knee(p99s, errors)
    failing = {n for n, p99 in p99s.items() if p99 >= 100 or errors.get(n, 0) > 0}
    assert found.past == (min(failing) if failing else None)
    all_served_up_to = [n for n in p99s if not any(m <= n for m in failing)]
    assert found.within == (max(all_served_up_to) if all_served_up_to else None)
