"""`make bench`: Scorekeeper under gunicorn as production runs it, loaded as tables load it.

Creates and migrates a database of its own (PostgreSQL, or SQLite with --sqlite), fills it
through the models, counts SQL per request in-process, then serves the app, a bare Flask app
and the floors (bench/floor.py) under the same gunicorn command line and loads them with wrk:
the app with a mix of requests in a pushed table's proportions (bench/mix.py), the sheet page
and entry posts beside their floors, the bare app with its one constant route, in interleaved
rounds so a change in the machine's load hits every measurement alike, and every share is a
ratio within one run. Then tables played as the page's script plays them, streams and all
(bench/tables.py), at a few sizes: how many this box serves, the CPU a table costs, how soon an
entry reaches the other phones; idle streams held against one worker, weighed; single requests
as diagnostics. Prints markdown tables; exits 1 if a target is missed. Everything it starts or
creates is removed, even on failure.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import http.client
import itertools
import math
import os
import platform
import runpy
import secrets
import shlex
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import sqlalchemy as sa
from flask import Flask

from bench import database, fill, mix, slow3g, standings, tables
from bench.database import BenchError
from bench.floor import PAGE_FILE as FLOOR_PAGE_FILE
from bench.load import Cpu, Load, Series, cpu_meter, own_seconds, run_wrk
from bench.phones import SignedPhone, signed_phone
from bench.queries import QueryCounter
from bench.server import APP_SPEC, Gunicorn
from bench.tables import Window
from scorekeeper import Scorekeeper, create_app, serve
from scorekeeper.extensions import db
from scorekeeper.models import Entry, Hand, Match

BARE_SPEC = "bench.bare:app"
FLOOR_SPEC = "bench.floor:create_floor()"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
# Each wrk thread of an entry-post run posts to matches of its own, a few per run, going round
# again (hand 31 on) if it gets through them all: the supply never runs out whatever the
# server's speed. The mix posts a ninth as often: one match a thread is plenty.
ENTRY_MATCHES_PER_CONNECTION = 4
# A run whose connections landed on one worker is measured again, this many times at most.
MAX_TRIES = 3
# The four phones of a table whose live part the mix fetches: each asks with its own cookie,
# so gets its own ETag.
TABLE_PHONES = (fill.MAIN_PHONE, *fill.MATE_PHONES)

# The targets (issue 34), as ratios measured in the same run where they can be: a share of a
# floor's rate, a ceiling on a time ratio; and the latency a table is served within, for
# counting tables.
SHEET_OF_FLOOR, ENTRY_OF_FLOOR = 0.50, 0.40
SHEET_GROWTH = 2.0
# CPU-ms per table-minute, the workers' and the database's, at the most tables served.
TABLE_MINUTE_MS = 110.0
# Delivery, a post answered → every other phone has it, p95 at the most tables served (ms); and
# against one live-part fetch's p95 there.
DELIVERY_MS = 100.0
DELIVERY_OF_FETCH = 3.0
# Tables served at p99 < P99_CEILING_MS on the 2-core box the bench is read on: an aim told
# beside the figure, not a target (it follows the machine).
P99_CEILING_MS = 100.0
TABLES_AIM = 400
# How far the tables climb past the listed sizes looking for the knee, where p99 passes the
# ceiling (issue 41: 500 tables played at p99 20 ms; by hand, 1,000 at 29 ms, 2,000 at 161).
CLIMB_TO = 5_000
# The long-term targets, shown as diagnostics with how far each still is: the page and the post
# against their floors, and CPU per table-minute.
LATER_SHEET_OF_FLOOR, LATER_ENTRY_OF_FLOOR, LATER_TABLE_MINUTE_MS = 0.60, 0.50, 74.0
# Issue 32: the record page of a phone with 1,000 finished matches, p50, in milliseconds.
RECORD_MS = 100.0
IDLE_STREAM_KB = 64.0
# The stream caps lifted for the bench's one address (far above its idle streams and tables),
# its share of a crowded worker too; each worker's budget of streams stays production's
# (four fifths of its connections), checked for every stream the tables open.
STREAM_CAPS = ("PHONE", "ADDRESS", "MATCH", "ADDRESS_CROWDED")
BENCH_STREAM_CAP = 1_000_000
# More than this many cores busy outside the bench, on average over a run, skews its numbers.
BUSY_MACHINE = 0.25


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line: server shape, load shape, database."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.run", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2 cores: 2)")
    parser.add_argument(
        "--connections",
        type=int,
        default=8,
        help="keep-alive connections for the loaded wrk runs (8)",
    )
    # A single round's share swings by a tenth either way here: the median of 5 holds.
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--seconds", type=int, default=3, help="seconds per loaded run (3)")
    parser.add_argument(
        "--tables",
        type=lambda text: sorted({int(n) for n in text.split(",")}),
        default=[100, 200, 300, 400, 500],
        help="tables played, to count those served (100,200,300,400,500)",
    )
    parser.add_argument(
        "--climb-to",
        type=int,
        default=CLIMB_TO,
        help=f"after the listed sizes, larger ones (the largest doubled, and so on, then this "
        f"many) while p99 stays under {P99_CEILING_MS:g} ms, to find the knee; 0: none "
        f"({CLIMB_TO})",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=10.0,
        help="how many times fast the tables' clock runs (10: a hand in 18 s)",
    )
    parser.add_argument("--table-rounds", type=int, default=2, help="rounds of the table sizes (2)")
    parser.add_argument(
        "--table-seconds", type=float, default=8.0, help="seconds measured per table size (8)"
    )
    parser.add_argument(
        "--idle-streams", type=int, default=2000, help="idle streams held by one worker (2000)"
    )
    parser.add_argument(
        "--timing-seconds", type=int, default=2, help="seconds per one-connection run (2)"
    )
    parser.add_argument("--warmup", type=int, default=2, help="seconds of warm-up per kind (2)")
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file, not PostgreSQL")
    parser.add_argument("--postgres", default=ADMIN_URL, help=f"the server to use ({ADMIN_URL})")
    return parser.parse_args(argv)


@dataclass(frozen=True)
class Request:
    """What wrk sends: a path and headers, or (scripted runs) the data file load.lua reads."""

    path: str
    headers: dict[str, str]
    script_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Kind:
    """One kind of load measured: the server it goes to, its connections and its request for
    each run."""

    name: str
    server: Gunicorn
    connections: int
    # By attempt number (0 is the warm-up): posts need fresh matches every run.
    request: Callable[[int], Request]


@dataclass(frozen=True)
class Played:
    """The tables played at one size, over its rounds."""

    tables: int
    windows: tuple[tuple[Window, Cpu], ...]

    def timed(self, kind: str | None = None) -> list[float]:
        """Seconds each request of a kind (every kind: None) took, over every round."""
        return [
            took
            for window, _ in self.windows
            for name, took, _ in window.timed
            if kind is None or name == kind
        ]

    def p99_ms(self) -> float:
        """The median round's 99th percentile of every request, in ms."""
        return statistics.median(
            1000 * percentile([took for _, took, _ in w.timed], 99) for w, _ in self.windows
        )

    @property
    def deliveries(self) -> list[float]:
        """Every post's delivery time over the rounds."""
        return [took for window, _ in self.windows for took in window.deliveries]

    @property
    def errors(self) -> int:
        """Errors and undelivered posts over the rounds."""
        return sum(w.errors + w.undelivered for w, _ in self.windows)

    @property
    def rate(self) -> float:
        """Requests begun per second, streams opened among them."""
        return sum(len(w.timed) for w, _ in self.windows) / sum(w.seconds for w, _ in self.windows)

    @property
    def cpu(self) -> Cpu:
        """CPU use averaged over the rounds."""
        cpus = [cpu for _, cpu in self.windows]
        return Cpu(
            client=statistics.fmean(c.client for c in cpus),
            workers=tuple(map(statistics.fmean, zip(*(c.workers for c in cpus), strict=True))),
            database=statistics.fmean(c.database for c in cpus),
            other=statistics.fmean(c.other for c in cpus),
        )

    def table_minute(self) -> tuple[float, float, float]:
        """CPU milliseconds per table per minute of play: all, the workers', the database's.
        The server's cores busy while `tables` tables play, over 60,000 ms of their minute."""
        cpu = self.cpu
        scale = 60_000 / self.tables
        workers = sum(cpu.workers)
        return (workers + cpu.database) * scale, workers * scale, cpu.database * scale

    @property
    def within(self) -> bool:
        """Served: p99 under the ceiling, every request answered as expected, every post
        delivered."""
        return is_served(self.p99_ms(), self.errors)


@dataclass(frozen=True)
class Weighed:
    """Idle streams held by one worker, and the worker's memory and sockets before and after."""

    idle: tables.Idle
    rss_kb: tuple[int, int]
    sockets: tuple[int, int]
    # A live-part fetch while they were all held (the median of 5), in ms.
    fetch_ms: float
    worker_connections: int

    @property
    def per_stream_kb(self) -> float:
        """The worker's memory per stream held."""
        return (self.rss_kb[1] - self.rss_kb[0]) / max(self.idle.held, 1)


@dataclass(frozen=True)
class Measured:
    """Everything measured under load."""

    # The mix, the loaded diagnostics, the floors and bare, in the same rounds.
    loads: dict[str, Series]
    # Tables played, by size.
    played: dict[int, Played]
    # Weighed after the rest, on a server of one worker.
    weighed: Weighed | None
    # One connection at a time, for time ratios.
    timings: dict[str, Series]
    # Every wrk run, warm-ups and runs measured again included.
    every: list[Load]
    # Entry posts the tables had answered, within the windows or not.
    table_posts: int


def climb(listed: list[int], top: int) -> list[int]:
    """The sizes played after the listed ones: the largest doubled while under `top`, then
    `top`; none if the listed already reach it."""
    sizes = [max(listed)]
    while sizes[-1] * 2 < top:
        sizes.append(sizes[-1] * 2)
    return [*sizes[1:], top] if top > sizes[0] else []


def is_served(p99_ms: float, errors: int) -> bool:
    """A size, or one round's window of it, served: p99 under the ceiling, no errors."""
    return p99_ms < P99_CEILING_MS and not errors


@dataclass(frozen=True)
class Knee:
    """Where the tables stop being served: the largest size served below the first that was
    not (None if even the fewest were not), and that first (None if every size was)."""

    within: int | None
    past: int | None


def knee(p99s: dict[int, float], errors: dict[int, int] | None = None) -> Knee:
    """The knee from each size's p99 (ms) and errors: a size with errors is past it too."""
    sizes = sorted(p99s)
    past = next((n for n in sizes if not is_served(p99s[n], (errors or {}).get(n, 0))), None)
    within = [n for n in sizes if past is None or n < past]
    return Knee(within[-1] if within else None, past)


def knee_line(p99s: dict[int, float], errors: dict[int, int], top: int) -> str:
    """The knee in words, each size named with its p99 (ms): between which two sizes p99 passes
    the ceiling, or that it did not up to `top`, the climb's ceiling, or up to the most
    played."""

    def at(n: int) -> str:
        erred = f", {errors[n]:,} errors" if errors.get(n) else ""
        return f"{n:,} tables (p99 {p99s[n]:.1f} ms{erred})"

    found = knee(p99s, errors)
    ceiling = f"{P99_CEILING_MS:g} ms"
    if found.past is not None and found.within is not None:
        return f"between {at(found.within)} and {at(found.past)}"
    if found.past is not None:
        return f"below {at(found.past)}, the fewest played: already past {ceiling}"
    assert found.within is not None
    if top and found.within >= top:
        return f"{found.within:,} tables within {ceiling} (p99 {p99s[found.within]:.1f} ms)"
    return (
        f"beyond {at(found.within)}, the most played: within {ceiling}, not looked for further "
        f"(--climb-to)"
    )


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank); nan for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def main(argv: list[str] | None = None) -> int:
    """Set up, measure, report, clean up; 0 when every target is met."""
    args = parse(argv)

    # SIGTERM (a timeout, kill) unwinds through the finally blocks as Ctrl-C does.
    def stop(signum: int, frame: object) -> NoReturn:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    # Thousands of streams are thousands of open files, here and in the workers, as in
    # `make serve`.
    serve.allow_open_streams()
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    app: Scorekeeper | None = None
    try:
        if args.sqlite:
            database_url = f"sqlite:///{workdir / 'bench.sqlite'}"
        else:
            database_url = database.postgres_url(args.postgres)
            database.create_postgres(args.postgres)
        step("migrating", lambda: database.migrate(database_url))
        env = {
            "DATABASE_URL": database_url,
            "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32),
            # Every table the bench plays comes from this one address, with a few phones'
            # cookies shared among tables: the stream caps, a brake on one stranger, would
            # refuse the load modelled here (docs/operations.md, "Stream caps").
            **{f"SCOREKEEPER_STREAMS_PER_{cap}": str(BENCH_STREAM_CAP) for cap in STREAM_CAPS},
            # Its connections likewise: the idle streams alone are 2,000 of one worker's.
            "SCOREKEEPER_CONNECTIONS_PER_ADDRESS": "0",
        }
        # The in-process app is made as gunicorn's workers make theirs: from the environment.
        os.environ.update(env)
        app = create_app()
        # Enough fresh matches for every run that posts, retries included: the app's entry
        # posts and the post floor's, the mix's, and a table's each per round of the tables.
        tries = 1 + args.rounds * MAX_TRIES
        entry_matches = 2 * tries * args.connections * ENTRY_MATCHES_PER_CONNECTION
        sizes = [*args.tables, *climb(args.tables, args.climb_to)]
        played_at_most = max(round(n / args.speed) for n in sizes)
        mix_matches = tries * args.connections + args.table_rounds * played_at_most
        fixture = step("filling", lambda: fill.fill(app, entry_matches, mix_matches))
        tokens = (
            fill.FEW_PHONE,
            fill.RECORD_PHONE,
            fill.RECORD_FEW_PHONE,
            *TABLE_PHONES,
            *fill.ENTRY_PHONES,
        )
        phones = {token: signed_phone(app, token) for token in tokens}
        queries = step("counting SQL", lambda: count_queries(app, fixture, phones))
        # The tables' clock runs `speed` times fast: so does the streams' heartbeat.
        heartbeat = {"SCOREKEEPER_STREAM_HEARTBEAT": str(mix.HEARTBEAT_SECONDS / args.speed)}
        with (
            Gunicorn(APP_SPEC, args.workers, {**env, **heartbeat}, workdir / "app.log") as server,
            Gunicorn(BARE_SPEC, args.workers, env, workdir / "bare.log") as bare,
        ):
            measured = measure(args, server, bare, fixture, phones, workdir)
            server_argv = server.argv
        # The idle streams are weighed on a server of one worker, with the real heartbeat.
        with Gunicorn(APP_SPEC, 1, env, workdir / "one.log") as one:
            weighed = step(
                f"idle streams: {args.idle_streams:,} held by one worker",
                lambda: weigh_idle(one, fixture, phones, args.idle_streams),
            )
        measured = dataclasses.replace(measured, weighed=weighed)
        with app.app_context():
            stored = db.session.scalar(
                sa.select(sa.func.count(Entry.id))
                .join(Hand, Hand.id == Entry.hand_id)
                .join(Match, Match.id == Hand.match_id)
                .where(Match.code.in_([*fixture.entry, *fixture.mix]))
            )
        # Only the entries posted, not the mix matches' own 30 hands.
        posted = (stored or 0) - len(fixture.mix) * fill.SHEET_HANDS * fill.SIDES
        failed = report(args, database_url, server_argv, measured, queries, posted)
        # A group's standings at size (issue 43): a diagnostic, read in-process from a
        # database (SQLite) or a schema (PostgreSQL) of its own, filled with a season of years.
        read = step(
            "a group's standings, 10,000 matches",
            lambda: standings.run(None if args.sqlite else database_url),
        )
        print(f"\n{standings.line(*read)}")
        # The sheet on a slow 3G with and without the service worker (issue 45): its timings,
        # and what a phone's visits asked the server each way (a diagnostic, on its own server).
        timed = step("the sheet on a slow 3G, 3 phones each way", lambda: slow3g.measure(3))
        print()
        slow3g.report(timed)
        print(f"\nTook {time.monotonic() - started:.0f} s.")
        return 1 if failed else 0
    except BenchError as error:
        print(f"\nbench: {error}", file=sys.stderr)
        return 2
    finally:
        if app is not None:
            with app.app_context():
                db.engine.dispose()
        if not args.sqlite:
            database.drop_postgres(args.postgres)
        shutil.rmtree(workdir, ignore_errors=True)


def step(what: str, work: Callable[[], Any]) -> Any:
    """Run one setup step, saying what and how long it took."""
    print(f"{what}…", end=" ", flush=True)
    began = time.monotonic()
    result = work()
    print(f"{time.monotonic() - began:.1f} s", flush=True)
    return result


# The requests counted, in the order one table's phones make them (count_queries).
QUERY_ROWS = {
    "sheet": "sheet page, shown to one phone",
    "unchanged": "safety fetch, unchanged (304), another phone with the ETag it was given",
    "entry": "entry post by the first phone, a new entry for the open hand",
    "after": "sheet page that post redirects to (its message shown)",
    "changed": "the other phone's fetch after the ring (200, the live part), its ETag stale",
}


def settle(counter: QueryCounter, phone: SignedPhone, code: str) -> None:
    """Bring the process to a worker's steady state before counting: a worker has long since
    made its first request, which on PostgreSQL starts it listening for versions. Fetches one
    match's live part every 50 ms for two seconds (a new listener trusts what it hears once
    its first echo is back), then until five in a row cost the same (5 s at most)."""
    client = counter.phone(phone)
    live = f"/m/{code}/live"
    _, given = counter.count(client, "GET", live, 200)
    asked = {"If-None-Match": given.headers["ETag"]}
    began = time.monotonic()
    last: list[int] = []
    while True:
        last = [*last[-4:], counter.count(client, "GET", live, 304, headers=asked)[0]]
        waited = time.monotonic() - began
        if waited >= 5 or (waited >= 2 and len(last) == 5 and len(set(last)) == 1):
            return
        time.sleep(0.05)


def count_queries(
    app: Flask, fixture: fill.Fixture, phones: dict[str, SignedPhone]
) -> dict[str, tuple[int, int]]:
    """SQL statements per request of each kind the mix makes, at a small and a large size.

    Counted as they come, in a settled process, in the order a table makes them: one phone is
    shown the sheet, another's safety fetch sends the ETag it was given, the first posts an
    entry and follows the redirect, and the second's fetch after the ring finds the match
    changed.
    """
    counter = QueryCounter(app)
    settle(counter, phones[fill.MAIN_PHONE], fixture.sheets[0])
    counts: dict[str, list[int]] = {name: [] for name in QUERY_ROWS}
    writer = phones[fill.ENTRY_PHONES[0]]
    sizes = ((fixture.count_small, fill.SMALL_SHEET), (fixture.count_large, fill.LARGE_SHEET))
    for code, hands in sizes:
        poster = counter.phone(writer)
        reader = counter.phone(phones[fill.ENTRY_PHONES[1]])
        counts["sheet"].append(counter.count(poster, "GET", f"/m/{code}", 200)[0])
        live = f"/m/{code}/live"
        _, given = counter.count(reader, "GET", live, 200)
        # Sent back verbatim, whatever its form.
        asked = {"If-None-Match": given.headers["ETag"]}
        counts["unchanged"].append(counter.count(reader, "GET", live, 304, headers=asked)[0])
        form = {"csrf_token": writer.csrf, "key": secrets.token_hex(8), "hand": hands + 1}
        form |= {"side": 0, "revision": 0, "points": 12}
        entry, posted = counter.count(poster, "POST", f"/m/{code}/enter", 302, data=form)
        counts["entry"].append(entry)
        counts["after"].append(counter.count(poster, "GET", posted.location, 200)[0])
        counts["changed"].append(counter.count(reader, "GET", live, 200, headers=asked)[0])
    return {name: (small, large) for name, (small, large) in counts.items()}


class Browser:
    """One keep-alive connection to a server, for the requests that set the load up."""

    def __init__(self, base: str) -> None:
        self.connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=10)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.connection.close()

    def expect(self, request: Request, status: int) -> dict[str, str]:
        """Check a request is answered as the measurement assumes; its headers."""
        return self.answer(request, status)[0]

    def answer(self, request: Request, status: int) -> tuple[dict[str, str], bytes]:
        """Check a request is answered as the measurement assumes; its headers and body."""
        self.connection.request("GET", request.path, headers=request.headers)
        response = self.connection.getresponse()
        body = response.read()
        if response.status != status:
            raise BenchError(
                f"GET {request.path} answered {response.status}, not {status}:\n{body[:2000]!r}"
            )
        return dict(response.getheaders()), body


def as_phone(phone: SignedPhone) -> dict[str, str]:
    """The header that makes a request this phone's."""
    return {"Cookie": phone.cookie}


def always(request: Request) -> Callable[[int], Request]:
    """The same request for every run."""
    return lambda attempt: request


def live_tags(
    server: Gunicorn, codes: list[str], phones: dict[str, SignedPhone]
) -> list[tuple[str, int, str, str]]:
    """Each table phone's ETag for each match as the server gave it, and the same phone's for
    the version before: (code, phone, current, stale).

    Each is checked: the current one answered 304 when sent back, as the mix's safety fetches
    are, the stale one 200, as the fetches after a ring are."""
    tags = []
    with Browser(server.url) as browser:
        for code in codes:
            for n, token in enumerate(TABLE_PHONES):
                live = Request(f"/m/{code}/live", as_phone(phones[token]))
                etag = browser.expect(live, 200)["ETag"]
                version = tables.version_of(etag)
                stale = etag.replace(f'"{version}-', f'"{version - 1}-', 1)
                browser.expect(Request(live.path, {**live.headers, "If-None-Match": etag}), 304)
                browser.expect(Request(live.path, {**live.headers, "If-None-Match": stale}), 200)
                tags.append((code, n, etag, stale))
    return tags


def measure(
    args: argparse.Namespace,
    server: Gunicorn,
    bare: Gunicorn,
    fixture: fill.Fixture,
    phones: dict[str, SignedPhone],
    workdir: Path,
) -> Measured:
    """The mix, the pages and posts beside their floors, against bare; the tables played; the
    one-connection runs. (The idle streams are weighed after, on a server of their own.)"""
    main = as_phone(phones[fill.MAIN_PHONE])
    entry_phones = [phones[token] for token in fill.ENTRY_PHONES]
    posters = [f"phone {side} {p.cookie} {p.csrf}" for side, p in enumerate(entry_phones)]
    # The last sheet is the loaded sheet page's; the mix fetches the others, a match a thread.
    fetched = fixture.sheets[: min(len(fixture.sheets) - 1, args.connections)]
    tags = step("taking ETags", lambda: live_tags(server, fetched, phones))
    readers = [f"reader {n} {phones[token].cookie}" for n, token in enumerate(TABLE_PHONES)]
    etags = [f"etag {code} {n} {etag} {stale}" for code, n, etag, stale in tags]
    cycle = mix.cycle()
    mix_codes = iter(fixture.mix)
    # The tables' matches: each round of them its own, after the mix's.
    table_codes = fixture.mix[(1 + args.rounds * MAX_TRIES) * args.connections :]

    serial = itertools.count()

    def scripted(name: str, connections: int, lines: list[str]) -> Request:
        """A load.lua run: its data file, and its tag, which makes its posts' idempotency keys
        its own (keys are unique across matches: one seen before would be taken for a repeat).
        """
        tag = f"{name}{next(serial)}"
        path = workdir / f"{tag}.txt"
        path.write_text("\n".join(lines) + "\n")
        return Request("/", {}, (str(path), str(connections), tag))

    def mixed(connections: int) -> Callable[[int], Request]:
        """The table mix on this many connections: posts to matches no other run touches."""

        def request(attempt: int) -> Request:
            codes = list(itertools.islice(mix_codes, connections))
            if len(codes) < connections:
                raise BenchError("the fill made too few matches for the mix to post to")
            lines = [*posters, f"hands {fill.SHEET_HANDS}", f"start {fill.SHEET_HANDS}"]
            lines += [f"match {c}" for c in codes]
            lines += [f"cycle {cycle}", *readers, *etags]
            return scripted("mix", connections, lines)

        return request

    per_run = args.connections * ENTRY_MATCHES_PER_CONNECTION
    # The app's posts and the post floor's go to matches of their own.
    floor_entry = len(fixture.entry) // 2

    def posts(name: str, first: int) -> Callable[[int], Request]:
        """Posts alone for one run, to matches no other run touches, each from hand 1."""

        def request(attempt: int) -> Request:
            at = first + attempt * per_run
            codes = fixture.entry[at : at + per_run]
            lines = [*posters, f"hands {fill.SHEET_HANDS}", "start 0"]
            lines += [f"match {c}" for c in codes]
            lines.append(f"cycle {mix.ENTRY}")
            return scripted(name, args.connections, lines)

        return request

    sheet = Request(f"/m/{fixture.sheets[-1]}", main)
    with Browser(server.url) as browser:
        page = workdir / "sheet.html"
        page.write_bytes(browser.answer(sheet, 200)[1])
    with Browser(bare.url) as browser:
        browser.expect(Request("/", {}), 200)
    floor_env = {**server.env, FLOOR_PAGE_FILE: str(page)}
    floor_log = workdir / "floor.log"
    with Gunicorn(FLOOR_SPEC, args.workers, floor_env, floor_log) as floor:
        with Browser(floor.url) as browser:
            # The floor writes the page the app wrote: else it measured another page.
            drawn, saved = browser.answer(Request(sheet.path, {}), 200)[1], page.read_bytes()
            if drawn != saved:
                at = next(
                    (i for i, (a, b) in enumerate(zip(drawn, saved, strict=False)) if a != b),
                    min(len(drawn), len(saved)),
                )
                near = slice(max(at - 200, 0), at + 200)
                raise BenchError(
                    "the floor's page differs from the app's (bench/floor.py) from byte "
                    f"{at}:\n{drawn[near]!r}\nnot\n{saved[near]!r}"
                )
        connections = args.connections
        loaded = [
            Kind("bare", bare, connections, always(Request("/", {}))),
            Kind("mix", server, connections, mixed(connections)),
            Kind("sheet", server, connections, always(sheet)),
            Kind("floor", floor, connections, always(Request(sheet.path, {}))),
            Kind("entry", server, connections, posts("entry", 0)),
            Kind("post floor", floor, connections, posts("floor", floor_entry)),
        ]
        print(f"loaded: {connections} connections, {args.rounds} rounds of {args.seconds} s")
        every: list[Load] = []
        loads = rounds(args, loaded, args.rounds, args.seconds, every)

    played, table_posts = play_tables(args, server, table_codes, entry_phones)

    timed = {
        "sheet 10": Request(f"/m/{fixture.small}", main),
        "sheet 200": Request(f"/m/{fixture.large}", main),
        "history 10": Request("/history", as_phone(phones[fill.FEW_PHONE])),
        "history 10000": Request("/history", main),
        "record 10": Request("/history/record", as_phone(phones[fill.RECORD_FEW_PHONE])),
        "record 1000": Request("/history/record", as_phone(phones[fill.RECORD_PHONE])),
    }
    with Browser(server.url) as browser:
        for request in timed.values():
            browser.expect(request, 200)
    print(f"timed: 1 connection, {args.rounds} rounds of {args.timing_seconds} s")
    timings = rounds(
        args,
        [Kind(name, server, 1, always(request)) for name, request in timed.items()],
        args.rounds,
        args.timing_seconds,
        every,
    )
    return Measured(loads, played, None, timings, every, table_posts)


def play_tables(
    args: argparse.Namespace, server: Gunicorn, codes: list[str], phones: list[SignedPhone]
) -> tuple[dict[int, Played], int]:
    """Tables played at each size, smallest first, in rounds (each round on matches of its
    own), each round climbing on past the listed sizes while its last window was served; by
    size (those some round played), and how many posts the tables had answered."""
    higher = climb(args.tables, args.climb_to)
    every_size = [*args.tables, *higher]
    sizes = [round(n / args.speed) for n in args.tables]
    climbing = [round(n / args.speed) for n in higher]
    then = (
        f", then {', '.join(f'{n:,}' for n in higher)} while each size before stays under "
        f"p99 {P99_CEILING_MS:g} ms"
        if higher
        else ""
    )
    print(
        f"tables: {', '.join(f'{n:,}' for n in args.tables)}{then} "
        f"({', '.join(map(str, sizes + climbing))} played {args.speed:g}× fast), "
        f"{args.table_rounds} rounds of {args.table_seconds:g} s"
    )
    workers = server.workers()
    name = None if args.sqlite else database.BENCH_DATABASE
    windows: dict[int, list[tuple[tables.Window, Cpu]]] = {n: [] for n in every_size}
    answered = 0
    each = max(sizes + climbing)
    for run in range(args.table_rounds):
        mine = codes[run * each : (run + 1) * each]
        found = asyncio.run(
            tables.play_levels(
                server.url,
                mine,
                phones,
                sizes,
                args.speed,
                settle=2.0,
                seconds=args.table_seconds,
                tag=f"tables{run}",
                measure=lambda: cpu_meter(workers, name, client=own_seconds),
                climb=climbing,
                held=lambda took, errors: is_served(1000 * percentile(took, 99), errors),
            )
        )
        answered += found.posted
        for n, (window, cpu) in zip(every_size, found.windows, strict=False):
            windows[n].append((window, cpu))
            p99 = 1000 * percentile([took for _, took, _ in window.timed], 99)
            trouble = f"  last error: {window.last_error}" if window.errors else ""
            print(
                f"  {run + 1} {n:>6,} tables  {len(window.timed) / window.seconds:7.1f} req/s  "
                f"p99 {p99:7.2f} ms  delivery p95 "
                f"{1000 * percentile(window.deliveries, 95):7.2f} ms  errors "
                f"{window.errors + window.undelivered}  cores {cpu}{trouble}",
                flush=True,
            )
    return {n: Played(n, tuple(w)) for n, w in windows.items() if w}, answered


def weigh_idle(
    server: Gunicorn, fixture: fill.Fixture, phones: dict[str, SignedPhone], count: int
) -> Weighed:
    """Hold `count` idle streams against a server of one worker: four a match, as a table's
    phones, none of them rung; the worker's memory and sockets before and while they are."""
    (worker,) = server.workers()
    sides = [phones[token] for token in fill.ENTRY_PHONES]
    # Every match these four phones hold (more streams a match once they are all taken).
    codes = [*fixture.mix, *fixture.entry]

    def targets(n: int) -> list[tuple[str, SignedPhone]]:
        return [(codes[i // 4 % len(codes)], sides[i % 4]) for i in range(n)]

    def measured() -> tuple[int, int]:
        return rss_kb(worker), sockets_of(worker)

    # A few streams opened and closed first: the worker's first requests fill its caches.
    asyncio.run(tables.idle_streams(server.url, targets(200), measured))
    time.sleep(0.5)
    before = measured()
    live = Request(f"/m/{codes[0]}/live", as_phone(sides[0]))

    def weigh() -> tuple[tuple[int, int], float]:
        held = measured()
        took = []
        with Browser(server.url) as browser:
            for _ in range(5):
                began = time.monotonic()
                browser.expect(live, 200)
                took.append(1000 * (time.monotonic() - began))
        return held, statistics.median(took)

    idle, (after, fetch_ms) = asyncio.run(tables.idle_streams(server.url, targets(count), weigh))
    if idle.errors:
        raise BenchError(f"{idle.errors} idle streams failed; the last: {idle.last_error}")
    config = runpy.run_path(serve.CONFIG)
    return Weighed(
        idle,
        rss_kb=(before[0], after[0]),
        sockets=(before[1], after[1]),
        fetch_ms=fetch_ms,
        worker_connections=int(config["worker_connections"]),
    )


def rss_kb(pid: int) -> int:
    """A process's resident memory in KB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise BenchError(f"no VmRSS for process {pid}")


def sockets_of(pid: int) -> int:
    """How many sockets a process holds open."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            count += os.readlink(fd).startswith("socket:")
        except OSError:
            pass
    return count


def uneven(cores: tuple[float, ...], connections: int) -> bool:
    """Whether a loaded run's connections all but missed a worker.

    gunicorn's workers race to accept connections, and keep-alive keeps each where it landed:
    now and then one worker gets nearly all of them and the run measures half the server.
    """
    return connections > 1 and len(cores) > 1 and min(cores) < 0.5 * max(cores)


def rounds(
    args: argparse.Namespace, kinds: list[Kind], count: int, seconds: int, every: list[Load]
) -> dict[str, Series]:
    """Warm each kind up, then measure them all in turn, `count` rounds; every run goes on
    `every` too."""
    runs: dict[str, list[Load]] = {kind.name: [] for kind in kinds}
    workers = {kind.name: kind.server.workers() for kind in kinds}
    # Every attempt gets its own number: posts need matches no earlier run touched.
    attempts = {kind.name: itertools.count() for kind in kinds}
    name = None if args.sqlite else database.BENCH_DATABASE
    for run in range(count + 1):
        for kind in kinds:
            for _ in range(1 if run == 0 else MAX_TRIES):
                request = kind.request(next(attempts[kind.name]))
                result = run_wrk(
                    kind.server.url + request.path,
                    connections=kind.connections,
                    seconds=args.warmup if run == 0 else seconds,
                    headers=request.headers,
                    workers=workers[kind.name],
                    database=name,
                    script_args=request.script_args,
                )
                every.append(result)
                if run == 0 or not uneven(result.cpu.workers, kind.connections):
                    break
                print(f"  {run} {kind.name:<8} landed on one worker ({result.cpu}): again")
            if run == 0:
                # The warm-up doubles as the check that the load is what it means to be.
                if result.errors or result.unexpected:
                    raise BenchError(
                        f"{kind.name}: the warm-up had {result.errors} errors and "
                        f"{result.unexpected} unexpected answers (the last: "
                        f"{result.unexpected_last or 'none'}; answered by kind: "
                        f"{result.answered}); the server's log ends:\n"
                        f"{kind.server.log_tail()}"
                    )
                continue
            runs[kind.name].append(result)
            print(
                f"  {run} {kind.name:<8} {result.rate:8.1f} req/s  p50 {result.p50_ms:7.2f} ms"
                f"  p99 {result.p99_ms:7.2f} ms  errors {result.errors}"
                f"{f' unexpected {result.unexpected}' if result.unexpected else ''}"
                f"  cores {result.cpu}",
                flush=True,
            )
    return {name: Series(tuple(results)) for name, results in runs.items()}


def verdict(ok: bool) -> str:
    """The mark a target gets."""
    return "PASS" if ok else "**FAIL**"


def errors(series: Series) -> str:
    """A run's errors, and its unexpected answers if any."""
    unexpected = f" ({series.unexpected:,} unexpected)" if series.unexpected else ""
    return f"{series.errors:,}{unexpected}"


@dataclass
class Targets:
    """The targets met and missed, with by how much; and the long-term ones, with how far."""

    missed: list[str]
    # Every target, as the summary lists it: what, its figure, the target, the verdict.
    summary: list[tuple[str, str, str, str]] = dataclasses.field(default_factory=list)
    # The long-term targets (diagnostics): what, its figure, the target, how far it still is.
    later: list[tuple[str, str, str, str]] = dataclasses.field(default_factory=list)

    def told(self, label: str, figure: str, target: str, ok: bool) -> bool:
        """A target's row in the summary; `ok` as given."""
        self.summary.append((label, figure, target, verdict(ok)))
        return ok

    def later_share(self, label: str, ratio: float, least: float) -> None:
        """A long-term share of a floor: how far it still is."""
        far = (
            "met"
            if ratio >= least
            else f"{100 * (least - ratio):.1f} points short: {least / ratio - 1:.0%} more "
            f"throughput"
        )
        self.later.append((label, f"{ratio:.1%}", f"≥ {least:.0%} of its floor", far))

    def later_ceiling(self, label: str, value: float, ceiling: float, unit: str) -> None:
        """A long-term ceiling: how far it still is."""
        far = (
            "met"
            if value <= ceiling
            else f"{value - ceiling:.0f} {unit} over: {1 - ceiling / value:.0%} less"
        )
        self.later.append((label, f"{value:.0f} {unit}", f"≤ {ceiling:g} {unit}", far))

    def share(self, label: str, ratio: float, least: float, of: str) -> bool:
        """A share of another rate (`of`) that must reach `least`."""
        if ratio >= least:
            return True
        self.missed.append(
            f"{label}: {ratio:.1%} of {of}, {100 * (least - ratio):.1f} points under "
            f"{least:.0%} (it needs {least / ratio - 1:.0%} more throughput)"
        )
        return False

    def ceiling(self, label: str, ratio: float, ceiling: float) -> bool:
        """A time ratio that must stay within `ceiling`."""
        if ratio <= ceiling:
            return True
        self.missed.append(
            f"{label}: {ratio:.2f}×, {ratio - ceiling:.2f}× over {ceiling:g}× (it needs to "
            f"take {1 - ceiling / ratio:.0%} less)"
        )
        return False

    def clean(self, label: str, series: Series) -> bool:
        """A run that measured what it meant to: no errors, no unexpected answers."""
        if not series.errors and not series.unexpected:
            return True
        self.missed.append(f"{label}: {errors(series)} errors, so it measured something else")
        return False


def paired(result: Series, base: Series) -> list[float]:
    """Each round's rate over the base's in the same round, sorted: a change in the machine's
    load between rounds then cancels out; the median is the figure, the ends its range."""
    return sorted(r.rate / b.rate for r, b in zip(result.runs, base.runs, strict=True))


def report(
    args: argparse.Namespace,
    database_url: str,
    server_argv: list[str],
    measured: Measured,
    queries: dict[str, tuple[int, int]],
    stored: int,
) -> bool:
    """Print the markdown tables; True if any target was missed."""
    targets = Targets([])
    loads, timings = measured.loads, measured.timings
    bare, mixed = loads["bare"], loads["mix"]
    kind = "SQLite" if args.sqlite else "PostgreSQL"
    hand = mix.HAND
    cycle = mix.cycle()
    print(
        f"\n### Scorekeeper under gunicorn: {args.workers} gevent workers, {kind}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}\n"
    )
    print(f"Server: `{shlex.join(server_argv)}`  ")
    print(f"Database: `{sa.make_url(database_url).render_as_string()}`  ")
    print(
        f"A table: {mix.PHONES} phones, each holding its match's stream open and fetching its "
        f"live part once every {mix.SAFETY_SECONDS} s; a hand every {mix.HAND_SECONDS} s, in "
        f"which each of {mix.SIDES} sides posts once, each post ringing every phone, which "
        f"fetches its live part; per hand {hand.safety} unchanged fetches (304: the safety "
        f"fetches, and each poster's after its answer), {hand.rung} fetches after a ring "
        f"(200), {hand.entries} entry posts and the {hand.sheets} sheet pages they lead to "
        f"(the stream stays open); "
        f"{mix.TABLE_RATE:.2f} req/s besides the streams, and {hand.heartbeats} heartbeats a "
        f"hand on them.  "
    )
    print(
        f"The mix (wrk, which cannot hold a stream): each connection cycles through "
        f"{len(cycle)} requests in those proportions "
        f"({', '.join(f'{cycle.count(k)} × {mix.NAMES[k]}' for k in mix.NAMES)}). Its fetches go "
        f"to a sheet of {fill.SHEET_HANDS} hands × {fill.SIDES} sides from its table's "
        f"{mix.PHONES} phones in turn, each with the ETag the server gave it (the safety "
        f"fetch) or with that phone's ETag of the version before (after a ring); its posts go "
        f"to a match of its own that has {fill.SHEET_HANDS} hands, each followed by the page it "
        f"redirects to.  "
    )
    print(
        f"Load: wrk, {args.connections} keep-alive connections (one wrk thread each), "
        f"{args.rounds} interleaved rounds of {args.seconds} s after {args.warmup} s warm-up; "
        f"req/s over all rounds; p50/p99 and shares (range over rounds) the median round's, "
        f"each round against the bare endpoint or the floor in the same round. p50/p99 of the "
        f"mix and the posts: each request timed by load.lua; of the others: wrk's. CPU in "
        f"cores: the load generator / each worker / "
        f"{'PostgreSQL' if not args.sqlite else 'nothing (SQLite runs in the workers)'}"
        f" / rest of the machine.\n"
    )
    print(
        "| measure | req/s | p50 ms | p99 ms | of bare (rounds) | of its floor (rounds) "
        "| target | | errors | CPU |"
    )
    print("|---|--:|--:|--:|--:|--:|--|--|--:|--|")
    rows = [
        ("bare Flask endpoint (baseline)", "bare", None, None),
        ("**the table mix**", "mix", None, None),
        ("**sheet page, 30 hands × 4 sides, worked out cold**", "sheet", "floor", SHEET_OF_FLOOR),
        ("the floor: that page's statements and bytes, nothing else", "floor", None, None),
        ("**entry post, a new entry each**", "entry", "post floor", ENTRY_OF_FLOOR),
        ("the post floor: its lock, key, insert, commit, nothing else", "post floor", None, None),
    ]
    # The long-term shares, by measure: shown with how far each still is.
    later_of = {"sheet": LATER_SHEET_OF_FLOOR, "entry": LATER_ENTRY_OF_FLOOR}
    for label, name, floor, least in rows:
        result = loads[name]
        of_bare = paired(result, bare)
        ok = targets.clean(label.strip("*"), result)
        share = "—"
        if floor is not None and least is not None:
            shares = paired(result, loads[floor])
            ratio = statistics.median(shares)
            ok = targets.share(label.strip("*"), ratio, least, f"the {floor}") and ok
            share = f"{ratio:.1%} ({shares[0]:.1%}–{shares[-1]:.1%})"
            short = {"sheet": "cold 30-hand sheet page", "entry": "entry post"}[name]
            targets.told(short, f"{share} of its floor", f"≥ {least:.0%} of its floor", ok)
            targets.later_share(short, ratio, later_of[name])
        target = f"≥ {least:.0%} of its floor" if least is not None else "—"
        mark = verdict(ok) if least is not None or not ok else ""
        spread = f" ({of_bare[0]:.1%}–{of_bare[-1]:.1%})" if result is not bare else ""
        print(
            f"| {label} | {result.rate:,.1f} | {result.p50_ms:.2f} | {result.p99_ms:.2f} "
            f"| {statistics.median(of_bare):.1%}{spread} | {share} | {target} | {mark} "
            f"| {errors(result)} | {result.cpu} |"
        )

    print(
        "\nThe sheet page row is the same page over and over, worked out cold each time (the "
        "app keeps no pages). The floor (bench/floor.py) is the least a page like it can cost "
        "here: the same five statements through SQLAlchemy Core and the same bytes from one "
        "Jinja template under the same gunicorn, without the app's session, CSRF, languages, "
        "forms, ORM, permissions or rules. The post floor is an entry post's writes alone "
        "through Core: the lock (the version bumped and announced), the post's key, the entry "
        "(and its hand if new), commit, a redirect; no form, session, seat, sheet or check."
    )
    answered = mixed.answered
    total = sum(answered.values())
    print(
        f"\n| the mix by kind, {args.connections} connections | share (model) | p50 ms | p99 ms |"
    )
    print("|---|--:|--:|--:|")
    for letter, name in mix.NAMES.items():
        p50, p99 = mixed.timed(letter)
        part = answered.get(letter, 0) / total
        print(
            f"| {name} | {part:.1%} ({cycle.count(letter) / len(cycle):.1%}) "
            f"| {p50:.2f} | {p99:.2f} |"
        )

    played = measured.played
    print(
        f"\nTables played (bench/tables.py): every phone holds its stream, fetches on each "
        f"ring and once a minute, posts its side's entry in turn and loads the page it leads "
        f"to (its stream stays open; a ring meanwhile waits for it), on a clock "
        f"{args.speed:g}× fast (a hand in "
        f"{mix.HAND_SECONDS / args.speed:g} s, the heartbeat every "
        f"{mix.HEARTBEAT_SECONDS / args.speed:g} s), so each table played stands for "
        f"{args.speed:g}; one connection per request, as phones whose requests are seconds "
        f"apart. {args.table_rounds} rounds, each growing from the fewest tables to the "
        f"most, {args.table_seconds:g} s measured at each size. Open loop: the tables ask on "
        f"their own clocks whatever the server's speed. Delivery: a post answered → every "
        f"other phone of its table has the live part of that version (0 if they had it "
        f"first). p99 of every request, streams' opening among them (to their first event); "
        f"the median round's. CPU: the bench's client / each worker / database / rest.\n"
    )
    print(
        f"| tables | streams | req/s | p50 ms | p99 ms | p99 < {P99_CEILING_MS:g} ms "
        f"| live-part fetch p95 ms | delivery p50 / p95 ms | CPU-ms per table-minute "
        f"| errors | CPU |"
    )
    print("|--:|--:|--:|--:|--:|--|--:|--:|--:|--:|--|")
    best: Played | None = None
    for n, size in played.items():
        if size.within:
            best = size
        deliveries = size.deliveries
        # A size past the listed ones that not every round climbed to.
        rounds_of = len(size.windows)
        fewer = (
            f" ({rounds_of} of {args.table_rounds} rounds)" if rounds_of < args.table_rounds else ""
        )
        print(
            f"| {n:,}{fewer} | {round(n / args.speed) * mix.PHONES:,} | {size.rate:,.1f} "
            f"| {1000 * percentile(size.timed(), 50):.2f} | {size.p99_ms():.2f} "
            f"| {'yes' if size.within else 'no'} "
            f"| {1000 * percentile(size.timed(mix.RUNG), 95):.2f} "
            f"| {1000 * percentile(deliveries, 50):.2f} / {1000 * percentile(deliveries, 95):.2f} "
            f"| {size.table_minute()[0]:.0f} | {size.errors:,} | {size.cpu} |"
        )
    if best is None:
        # Nothing served within the ceiling: the smallest size is the one described.
        figure = next(iter(played.values()))
        print(
            f"\n**Tables this box serves at p99 < {P99_CEILING_MS:g} ms: none measured**: no "
            f"size stayed under it (try fewer --tables). The figures below are at "
            f"{figure.tables:,} tables."
        )
        targets.missed.append(
            f"tables served at p99 < {P99_CEILING_MS:g} ms: none of {', '.join(map(str, played))}"
        )
        served = "none measured"
    else:
        figure = best
        print(
            f"\n**Tables this box serves at p99 < {P99_CEILING_MS:g} ms: about "
            f"{best.tables:,}**: the largest size played within it, every post delivered and "
            f"every request answered as meant ({args.table_rounds} rounds, p99 the median "
            f"round's). A figure of this machine, told beside its aim of {TABLES_AIM:,} on the "
            f"2-core box the bench is read on."
        )
        served = f"about {best.tables:,}"
    reached = best is not None and best.tables >= TABLES_AIM
    largest = max(played)
    targets.summary.append(
        (
            f"tables served at p99 < {P99_CEILING_MS:g} ms (of {largest:,} played at most)",
            served,
            f"aim ≥ {TABLES_AIM:,} (a figure of the machine)",
            "aim met" if reached else "below the aim",
        )
    )
    where = knee_line(
        {n: size.p99_ms() for n, size in played.items()},
        {n: size.errors for n, size in played.items()},
        args.climb_to,
    )
    climbed = [n for n in played if n > max(args.tables)]
    if not climb(args.tables, args.climb_to):
        how = f"The tables did not climb past the listed sizes (--climb-to {args.climb_to:,})"
    elif climbed:
        how = (
            f"Past the listed sizes the tables climbed (the largest doubled, and so on, up to "
            f"--climb-to {args.climb_to:,}), each round on while its last size was served: as "
            f"far as {climbed[-1]:,}"
        )
    else:
        how = (
            f"No round climbed past the listed sizes (towards --climb-to {args.climb_to:,}): "
            f"the largest was not served"
        )
    print(
        f"\n**The knee, where p99 passes {P99_CEILING_MS:g} ms: {where}.** {how}; a size's "
        f"p99 is the median of the rounds that played it, and a size with errors is past the "
        f"knee too."
    )
    targets.summary.append(
        (
            f"the knee, where p99 passes {P99_CEILING_MS:g} ms",
            where,
            "— (a figure of the machine)",
            "",
        )
    )
    by_kind = {letter: figure.timed(letter) for letter in tables.KINDS}
    print(f"\n| at {figure.tables:,} tables, by kind | requests | p50 ms | p95 ms | p99 ms |")
    print("|---|--:|--:|--:|--:|")
    for letter, name in tables.KINDS.items():
        took = by_kind[letter]
        if not took:
            continue  # streams open before a window, and stay open through it
        print(
            f"| {name} | {len(took):,} | {1000 * percentile(took, 50):.2f} "
            f"| {1000 * percentile(took, 95):.2f} | {1000 * percentile(took, 99):.2f} |"
        )
    beats = sum(w.heartbeats for w, _ in figure.windows)
    rings = sum(w.rings for w, _ in figure.windows)
    seconds = sum(w.seconds for w, _ in figure.windows)
    print(
        f"\nOn the streams meanwhile: {rings / seconds:,.1f} rings and {beats / seconds:,.1f} "
        f"heartbeats a second (the model: {figure.tables * hand.rings / mix.HAND_SECONDS:,.1f} "
        f"and {figure.tables * hand.heartbeats / mix.HAND_SECONDS:,.1f})."
    )

    cpu, workers_cpu, database_cpu = figure.table_minute()
    ok = cpu <= TABLE_MINUTE_MS
    if not ok:
        targets.missed.append(
            f"CPU per table-minute: {cpu:.0f} CPU-ms, over {TABLE_MINUTE_MS:g} by "
            f"{cpu - TABLE_MINUTE_MS:.0f} (it needs {1 - TABLE_MINUTE_MS / cpu:.0%} less)"
        )
    at_tables = f"at {figure.tables:,} tables"
    target = f"≤ {TABLE_MINUTE_MS:g} CPU-ms"
    targets.told(f"CPU per table-minute {at_tables}", f"{cpu:.0f} CPU-ms", target, ok)
    targets.later_ceiling(f"CPU per table-minute {at_tables}", cpu, LATER_TABLE_MINUTE_MS, "CPU-ms")
    # The wrk mix's server CPU per request (keep-alive connections, closed loop) times a
    # table's requests a minute; its streams left out.
    by_requests = 1000 * mixed.server_cores / mixed.rate * 60 * mix.TABLE_RATE
    fetch_p95 = percentile(figure.timed(mix.RUNG), 95)
    delivery_p95 = percentile(figure.deliveries, 95)
    delivery_ratio = delivery_p95 / fetch_p95
    soon = 1000 * delivery_p95 <= DELIVERY_MS
    if not soon:
        targets.missed.append(
            f"delivery p95 {at_tables}: {1000 * delivery_p95:.1f} ms, over {DELIVERY_MS:g} ms"
        )
    targets.told(
        f"delivery p95 {at_tables}", f"{1000 * delivery_p95:.1f} ms", f"≤ {DELIVERY_MS:g} ms", soon
    )
    delivered = targets.ceiling(
        "delivery p95 over one live-part fetch's p95", delivery_ratio, DELIVERY_OF_FETCH
    )
    targets.told(
        "delivery p95 over one live-part fetch's p95",
        f"{delivery_ratio:.2f}×",
        f"≤ {DELIVERY_OF_FETCH:g}×",
        delivered,
    )
    weighed = measured.weighed
    assert weighed is not None
    light = weighed.per_stream_kb <= IDLE_STREAM_KB
    targets.told(
        "memory per idle stream",
        f"{weighed.per_stream_kb:.1f} KB",
        f"≤ {IDLE_STREAM_KB:g} KB",
        light,
    )
    if not light:
        targets.missed.append(
            f"memory per idle stream: {weighed.per_stream_kb:.1f} KB, "
            f"{weighed.per_stream_kb - IDLE_STREAM_KB:.1f} KB over {IDLE_STREAM_KB:g}"
        )
    print("\n| figure of this machine | | target | |")
    print("|---|--:|--|--|")
    print(
        f"| CPU per table-minute (workers + "
        f"{'PostgreSQL' if not args.sqlite else 'nothing'}), at {figure.tables:,} tables "
        f"| {cpu:.0f} CPU-ms ({workers_cpu:.0f} + {database_cpu:.1f}): a core for about "
        f"{60_000 / cpu:,.0f} tables | ≤ {TABLE_MINUTE_MS:g} CPU-ms | {verdict(ok)} |"
    )
    print(
        f"| the same from the wrk mix: its server CPU per request × a table's "
        f"{60 * mix.TABLE_RATE:.0f} requests a minute, streams left out (diagnostic) "
        f"| {by_requests:.0f} CPU-ms | | |"
    )
    print(
        f"| delivery, post answered → every other phone has it, at {figure.tables:,} tables "
        f"| p50 {1000 * percentile(figure.deliveries, 50):.2f} ms, p95 "
        f"{1000 * delivery_p95:.2f} ms ({len(figure.deliveries):,} posts) "
        f"| p95 ≤ {DELIVERY_MS:g} ms | {verdict(soon)} |"
    )
    print(
        f"| delivery against one live-part fetch, at {figure.tables:,} tables "
        f"| p95 {delivery_ratio:.2f}× a live-part fetch's p95 ({1000 * fetch_p95:.2f} ms) "
        f"| ≤ {DELIVERY_OF_FETCH:g}× | {verdict(delivered)} |"
    )
    idle = weighed.idle
    print(
        f"| idle streams one worker holds | {idle.held:,} open at once (opened in "
        f"{idle.opened_seconds:.1f} s; its sockets {weighed.sockets[0]:,} → "
        f"{weighed.sockets[1]:,}; a live-part fetch meanwhile {weighed.fetch_ms:.1f} ms, "
        f"median of 5; worker_connections {weighed.worker_connections:,}) | — | |"
    )
    print(
        f"| memory per idle stream | {weighed.per_stream_kb:.1f} KB (the worker's RSS "
        f"{weighed.rss_kb[0] / 1024:.1f} → {weighed.rss_kb[1] / 1024:.1f} MB) "
        f"| ≤ {IDLE_STREAM_KB:g} KB | {verdict(light)} |"
    )

    print(
        f"\n| single requests: p50 time, 1 connection, {args.rounds} rounds of "
        f"{args.timing_seconds} s | small | large | ratio | target | |"
    )
    print("|---|--:|--:|--:|--|--|")

    def timing(label: str, small: str, large: str, ceiling: float | None) -> None:
        a, b = timings[small], timings[large]
        # Paired by round, as the shares are.
        ratio = statistics.median(y.p50_ms / x.p50_ms for x, y in zip(a.runs, b.runs, strict=True))
        ok = targets.clean(f"{label} (small)", a) and targets.clean(f"{label} (large)", b)
        if ceiling is not None:
            ok = targets.ceiling(label, ratio, ceiling) and ok
            targets.told(label, f"{ratio:.2f}×", f"≤ {ceiling:g}×", ok)
        target = f"≤ {ceiling:g}×" if ceiling is not None else "— (diagnostic)"
        mark = verdict(ok) if ceiling is not None or not ok else ""
        print(
            f"| {label} | {a.p50_ms:.2f} ms | {b.p50_ms:.2f} ms | {ratio:.2f}× | {target} "
            f"| {mark} |"
        )

    timing("sheet page: 200 hands vs 10", "sheet 10", "sheet 200", SHEET_GROWTH)
    timing("history: 10,000 matches vs 10", "history 10", "history 10000", None)
    # The issue asks a record of 1,000 matches to render "in well under a second": its time is
    # the large column, read as it is.
    timing("record page: 1,000 finished matches vs 10", "record 10", "record 1000", None)
    # Its own time against issue 32's mark: a diagnostic, as absolute times follow the machine
    # (the ratios above are the targets that travel).
    record_ms = timings["record 1000"].p50_ms
    print(
        f"| record page, 1,000 finished matches (diagnostic) | | {record_ms:.2f} ms | "
        f"| p50 ≤ {RECORD_MS:g} ms | {verdict(record_ms <= RECORD_MS)} |"
    )

    print(
        f"\n| SQL statements per request, a table's turn in order | {fill.SMALL_SHEET} hands "
        f"| {fill.LARGE_SHEET} hands | not more with more hands |"
    )
    print("|---|--:|--:|--|")
    grown = []
    for name, label in QUERY_ROWS.items():
        small, large = queries[name]
        ok = large <= small
        if not ok:
            grown.append(name)
            targets.missed.append(
                f"SQL statements per {label}: {small} at {fill.SMALL_SHEET} hands, {large} at "
                f"{fill.LARGE_SHEET}: they grow with the sheet"
            )
        print(f"| {label} | {small} | {large} | {verdict(ok)} |")

    targets.told(
        "SQL statements per request, with more hands",
        f"grow: {', '.join(grown)}" if grown else "no more",
        "not more",
        not grown,
    )
    # Every post answered must have stored an entry of its own (none taken for a repeat); a
    # post still in flight as a run ends may land too.
    posts = sum(r.answered.get(mix.ENTRY, 0) for r in measured.every) + measured.table_posts
    print(
        f"\nEntry posts answered over every run (warm-ups, post floor and tables too): "
        f"{posts:,}; entries they stored: {stored:,}."
    )
    if stored < posts:
        targets.missed.append(
            f"entry posts: {posts:,} answered but only {stored:,} entries stored, so some "
            f"posts were taken for repeats and the bench measured something else"
        )

    everything = [*loads.values(), *timings.values()]
    busiest = max(
        [r.cpu.other for s in everything for r in s.runs]
        + [cpu.other for p in played.values() for _, cpu in p.windows]
    )
    if busiest > BUSY_MACHINE:
        print(
            f"\nWarning: other processes used up to {busiest:.2f} cores during a run; "
            "the machine was not quiet, so these numbers are skewed (run again when it is)."
        )
    print("\n| target | figure | target | |")
    print("|---|--:|--|--|")
    for label, figure_of, target, mark in targets.summary:
        print(f"| {label} | {figure_of} | {target} | {mark} |")
    print("\n| long-term target (diagnostic) | figure | target | how far |")
    print("|---|--:|--|--|")
    for label, figure_of, target, far in targets.later:
        print(f"| {label} | {figure_of} | {target} | {far} |")
    if targets.missed:
        print("\nMissed:\n")
        for line in targets.missed:
            print(f"- {line}")
    else:
        print("\nEvery target met.")
    return bool(targets.missed)


if __name__ == "__main__":
    sys.exit(main())
