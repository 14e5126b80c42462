"""`make bench`: Scorekeeper under gunicorn as production runs it, loaded as tables load it.

Creates and migrates a database of its own (PostgreSQL, or SQLite with --sqlite), fills it
through the models, counts SQL per request in-process, then serves the app and a bare Flask
app under the same gunicorn command line and loads them with wrk: the app with a mix of
requests in a table's proportions (bench/mix.py), the bare app with its one constant route, in
interleaved rounds so a change in the machine's load hits every measurement alike, and every
share is a ratio within one run. Then the mix at a few concurrencies (how many tables this box
serves), and single requests as diagnostics. Prints markdown tables; exits 1 if a target is
missed. Everything it starts or creates is removed, even on failure.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import platform
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

from bench import database, fill, mix
from bench.database import BenchError
from bench.floor import PAGE_FILE as FLOOR_PAGE_FILE
from bench.load import Load, Series, run_wrk
from bench.phones import SignedPhone, signed_phone
from bench.queries import QueryCounter
from bench.server import APP_SPEC, Gunicorn
from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Entry, Hand, Match

BARE_SPEC = "bench.bare:app"
FLOOR_SPEC = "bench.floor:create_floor()"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
# Each wrk thread of the entry-post run posts to matches of its own, a few per run, going round
# again (hand 31 on) if it gets through them all: the supply never runs out whatever the
# server's speed. The mix posts a hundredth as often: one match a thread is plenty.
ENTRY_MATCHES_PER_CONNECTION = 4
# A run whose connections landed on one worker is measured again, this many times at most.
MAX_TRIES = 3
# The four phones of a polled table: each asks with its own cookie, so gets its own ETag.
POLLERS = (fill.MAIN_PHONE, *fill.MATE_PHONES)
# As app.js polls.
LIVE = {"X-Live": "1"}

# The targets, as ratios measured in the same run: a share of the bare endpoint's rate,
# or a ceiling on a time ratio. And the latency a table is served within, for counting tables.
MIX_SHARE, SHEET_SHARE = 0.60, 0.10
SHEET_GROWTH = 2.0
P99_CEILING_MS = 100.0
# More than this many cores busy outside the bench, on average over a run, skews its numbers.
BUSY_MACHINE = 0.25


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line: server shape, load shape, database."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.run", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2 cores: 2)")
    parser.add_argument(
        "--threads", type=int, default=4, help="threads per worker (serve.py's default: 4)"
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=8,
        help="keep-alive connections for the mix against bare (8)",
    )
    # A single round's share of bare swings by a tenth either way here: the median of 5 holds.
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--seconds", type=int, default=3, help="seconds per loaded run (3)")
    parser.add_argument(
        "--levels",
        type=lambda text: sorted({int(n) for n in text.split(",")}),
        default=[8, 16, 32, 64],
        help="connections the mix is run at to count tables (8,16,32,64)",
    )
    parser.add_argument(
        "--level-rounds", type=int, default=3, help="interleaved rounds of the levels (3)"
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
class Measured:
    """Everything measured under load."""

    # The mix, the loaded diagnostics and bare, in the same rounds.
    loads: dict[str, Series]
    # The mix by connections.
    levels: dict[int, Series]
    # One connection at a time, for time ratios.
    timings: dict[str, Series]
    # Every wrk run, warm-ups and runs measured again included.
    every: list[Load]


def main(argv: list[str] | None = None) -> int:
    """Set up, measure, report, clean up; 0 when every target is met."""
    args = parse(argv)

    # SIGTERM (a timeout, kill) unwinds through the finally blocks as Ctrl-C does.
    def stop(signum: int, frame: object) -> NoReturn:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    app: Flask | None = None
    try:
        if args.sqlite:
            database_url = f"sqlite:///{workdir / 'bench.sqlite'}"
        else:
            database_url = database.postgres_url(args.postgres)
            database.create_postgres(args.postgres)
        step("migrating", lambda: database.migrate(database_url))
        env = {"DATABASE_URL": database_url, "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32)}
        # The in-process app is made as gunicorn's workers make theirs: from the environment.
        os.environ.update(env)
        app = create_app()
        # Enough fresh matches for every run that posts, retries included.
        tries = 1 + args.rounds * MAX_TRIES
        entry_matches = tries * args.connections * ENTRY_MATCHES_PER_CONNECTION
        mix_matches = tries * args.connections + sum(
            (1 + args.level_rounds * MAX_TRIES) * level for level in args.levels
        )
        fixture = step("filling", lambda: fill.fill(app, entry_matches, mix_matches))
        tokens = (fill.FEW_PHONE, *POLLERS, *fill.ENTRY_PHONES)
        phones = {token: signed_phone(app, token) for token in tokens}
        queries = step("counting SQL", lambda: count_queries(app, fixture, phones))
        # This process serves no more requests: its version listener, started by the first,
        # would only go on hearing every post under load, on the machine being measured.
        app.extensions["match_versions"].close()
        with (
            Gunicorn(APP_SPEC, args.workers, args.threads, env, workdir / "app.log") as server,
            Gunicorn(BARE_SPEC, args.workers, args.threads, env, workdir / "bare.log") as bare,
        ):
            measured = measure(args, server, bare, fixture, phones, workdir)
            server_argv = server.argv
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
        print(f"\nTook {time.monotonic() - started:.0f} s.")
        return 1 if failed else 0
    except BenchError as error:
        print(f"\nbench: {error}", file=sys.stderr)
        return 2
    finally:
        if app is not None:
            app.extensions["match_versions"].close()
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
    "unchanged": "live poll, unchanged (304), another phone with the ETag it was given",
    "entry": "entry post by the first phone, a new entry for the open hand",
    "after": "sheet page that post redirects to (its message shown)",
    "changed": "the other phone's next poll (200, the live fragment), its ETag now stale",
}


def settle(counter: QueryCounter, phone: SignedPhone, code: str) -> None:
    """Bring the process to a worker's steady state before counting: a worker has long since
    made its first request, which on PostgreSQL starts it listening for versions. Polls one
    match every 50 ms for two seconds (a new listener trusts what it hears once its first echo
    is back), then until five in a row cost the same (5 s at most)."""
    client = counter.phone(phone)
    live = f"/m/{code}/live"
    _, given = counter.count(client, "GET", live, 200, headers=LIVE)
    asked = {**LIVE, "If-None-Match": given.headers["ETag"]}
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
    shown the sheet, another polls it with the ETag it was given, the first posts an entry and
    follows the redirect, and the second's next poll finds the match changed.
    """
    counter = QueryCounter(app)
    settle(counter, phones[fill.MAIN_PHONE], fixture.sheets[0])
    counts: dict[str, list[int]] = {name: [] for name in QUERY_ROWS}
    writer = phones[fill.ENTRY_PHONES[0]]
    sizes = ((fixture.count_small, fill.SMALL_SHEET), (fixture.count_large, fill.LARGE_SHEET))
    for code, hands in sizes:
        poster = counter.phone(writer)
        poller = counter.phone(phones[fill.ENTRY_PHONES[1]])
        counts["sheet"].append(counter.count(poster, "GET", f"/m/{code}", 200)[0])
        live = f"/m/{code}/live"
        _, given = counter.count(poller, "GET", live, 200, headers=LIVE)
        # Sent back verbatim, whatever its form.
        asked = {**LIVE, "If-None-Match": given.headers["ETag"]}
        counts["unchanged"].append(counter.count(poller, "GET", live, 304, headers=asked)[0])
        form = {"csrf_token": writer.csrf, "key": secrets.token_hex(8), "hand": hands + 1}
        form |= {"side": 0, "points": 12}
        entry, posted = counter.count(poster, "POST", f"/m/{code}/enter", 302, data=form)
        counts["entry"].append(entry)
        counts["after"].append(counter.count(poster, "GET", posted.location, 200)[0])
        counts["changed"].append(counter.count(poller, "GET", live, 200, headers=asked)[0])
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


def poll_tags(
    server: Gunicorn, codes: list[str], phones: dict[str, SignedPhone]
) -> list[tuple[str, int, str]]:
    """Each polling phone's ETag for each match, as the server gave it: (code, phone, ETag).

    Each is checked to be answered 304 when sent back, so the mix's unchanged polls are."""
    tags = []
    with Browser(server.url) as browser:
        for code in codes:
            for n, token in enumerate(POLLERS):
                live = Request(f"/m/{code}/live", {**as_phone(phones[token]), **LIVE})
                etag = browser.expect(live, 200)["ETag"]
                browser.expect(Request(live.path, {**live.headers, "If-None-Match": etag}), 304)
                tags.append((code, n, etag))
    return tags


def measure(
    args: argparse.Namespace,
    server: Gunicorn,
    bare: Gunicorn,
    fixture: fill.Fixture,
    phones: dict[str, SignedPhone],
    workdir: Path,
) -> Measured:
    """The mix and the loaded diagnostics against bare, the mix at each level, and the
    one-connection runs."""
    main = as_phone(phones[fill.MAIN_PHONE])
    entry_phones = [phones[token] for token in fill.ENTRY_PHONES]
    posters = [f"phone {side} {p.cookie} {p.csrf}" for side, p in enumerate(entry_phones)]
    # The last sheet is the loaded sheet page's; the mix polls the others, a match a thread.
    polled = fixture.sheets[: min(len(fixture.sheets) - 1, max(args.connections, *args.levels))]
    tags = step("taking ETags", lambda: poll_tags(server, polled, phones))
    pollers = [f"poller {n} {phones[token].cookie}" for n, token in enumerate(POLLERS)]
    polls = [f"poll {code} {n} {etag}" for code, n, etag in tags]
    cycle = mix.cycle()
    mix_codes = iter(fixture.mix)

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
            lines += [f"cycle {cycle}", *pollers, *polls]
            return scripted("mix", connections, lines)

        return request

    per_run = args.connections * ENTRY_MATCHES_PER_CONNECTION

    def entry(attempt: int) -> Request:
        """Posts alone for one run, to matches no other run touches, each from hand 1."""
        codes = fixture.entry[attempt * per_run : (attempt + 1) * per_run]
        lines = [*posters, f"hands {fill.SHEET_HANDS}", "start 0"]
        lines += [f"match {c}" for c in codes]
        lines.append(f"cycle {mix.ENTRY}")
        return scripted("entry", args.connections, lines)

    sheet = Request(f"/m/{fixture.sheets[-1]}", main)
    with Browser(server.url) as browser:
        page = workdir / "sheet.html"
        page.write_bytes(browser.answer(sheet, 200)[1])
    with Browser(bare.url) as browser:
        browser.expect(Request("/", {}), 200)
    floor_env = {**server.env, FLOOR_PAGE_FILE: str(page)}
    floor_log = workdir / "floor.log"
    with Gunicorn(FLOOR_SPEC, args.workers, args.threads, floor_env, floor_log) as floor:
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
            Kind("entry", server, connections, entry),
        ]
        print(f"loaded: {connections} connections, {args.rounds} rounds of {args.seconds} s")
        every: list[Load] = []
        loads = rounds(args, loaded, args.rounds, args.seconds, every)

    print(f"levels: the mix at {', '.join(map(str, args.levels))} connections")
    at_levels = rounds(
        args,
        [Kind(f"mix {level}", server, level, mixed(level)) for level in args.levels],
        args.level_rounds,
        args.seconds,
        every,
    )
    levels = {level: at_levels[f"mix {level}"] for level in args.levels}

    timed = {
        "sheet 10": Request(f"/m/{fixture.small}", main),
        "sheet 200": Request(f"/m/{fixture.large}", main),
        "history 10": Request("/history", as_phone(phones[fill.FEW_PHONE])),
        "history 10000": Request("/history", main),
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
    return Measured(loads, levels, timings, every)


def uneven(cores: tuple[float, ...], connections: int) -> bool:
    """Whether a loaded run's connections all but missed a worker.

    gthread workers race to accept connections, and keep-alive keeps each where it landed:
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


def table_minute(series: Series) -> tuple[float, float, float]:
    """CPU milliseconds per table per minute of play: all, the workers', the database's.

    The server's cores busy over the requests it answered a second is its CPU per request;
    a table makes 60 × TABLE_RATE requests a minute.
    """
    scale = 1000 * 60 * mix.TABLE_RATE / series.rate
    workers = statistics.fmean(sum(r.cpu.workers) for r in series.runs)
    database_cores = series.cpu.database
    return (workers + database_cores) * scale, workers * scale, database_cores * scale


@dataclass
class Targets:
    """The targets met and missed, with by how much."""

    missed: list[str]

    def share(self, label: str, ratio: float, least: float) -> bool:
        """A share of bare that must reach `least`."""
        if ratio >= least:
            return True
        self.missed.append(
            f"{label}: {ratio:.1%} of bare, {100 * (least - ratio):.1f} points under {least:.0%} "
            f"(it needs {least / ratio - 1:.0%} more throughput)"
        )
        return False

    def ceiling(self, label: str, ratio: float, ceiling: float) -> bool:
        """A time ratio that must stay within `ceiling`."""
        if ratio <= ceiling:
            return True
        self.missed.append(
            f"{label}: {ratio:.2f}×, {ratio - ceiling:.2f}× over {ceiling:g}× (the large one "
            f"needs to take {1 - ceiling / ratio:.0%} less time)"
        )
        return False

    def clean(self, label: str, series: Series) -> bool:
        """A run that measured what it meant to: no errors, no unexpected answers."""
        if not series.errors and not series.unexpected:
            return True
        self.missed.append(f"{label}: {errors(series)} errors, so it measured something else")
        return False


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
    loads, levels, timings = measured.loads, measured.levels, measured.timings
    bare, mixed = loads["bare"], loads["mix"]
    kind = "SQLite" if args.sqlite else "PostgreSQL"
    hand = mix.HAND
    cycle = mix.cycle()
    print(
        f"\n### Scorekeeper under gunicorn: {args.workers} workers × {args.threads} threads, "
        f"{kind}, {os.cpu_count()} cores, Python {platform.python_version()}\n"
    )
    print(f"Server: `{shlex.join(server_argv)}`  ")
    print(f"Database: `{sa.make_url(database_url).render_as_string()}`  ")
    print(
        f"A table: {mix.PHONES} phones polling every {mix.POLL_SECONDS} s; a hand every "
        f"{mix.HAND_SECONDS} s, in which each of {mix.SIDES} sides posts once; per hand "
        f"{hand.unchanged} unchanged polls, {hand.changed} changed, {hand.entries} entry posts "
        f"and the {hand.sheets} sheet pages they redirect to: {mix.TABLE_RATE:.2f} req/s.  "
    )
    print(
        f"The mix: each connection cycles through {len(cycle)} requests in those proportions "
        f"({', '.join(f'{cycle.count(k)} × {mix.NAMES[k]}' for k in mix.NAMES)}). Its polls go to "
        f"a sheet of {fill.SHEET_HANDS} hands × {fill.SIDES} sides from its table's "
        f"{mix.PHONES} phones in turn, unchanged with the ETag the server gave that phone, "
        f"changed with none; its posts go to a match of its own that has "
        f"{fill.SHEET_HANDS} hands, each followed by the page it redirects to.  "
    )
    print(
        f"Load: wrk, {args.connections} keep-alive connections (one wrk thread each), "
        f"{args.rounds} interleaved rounds of {args.seconds} s after {args.warmup} s warm-up; "
        f"req/s over all rounds; p50/p99 and share of bare (range over rounds) the median "
        f"round's, each round against bare in the same round. p50/p99 of the mix and the "
        f"entry posts: each request timed by load.lua; of the others: wrk's. CPU in cores: "
        f"wrk / each worker / "
        f"{'PostgreSQL' if not args.sqlite else 'nothing (SQLite runs in the workers)'}"
        f" / rest of the machine.\n"
    )
    print("| measure | req/s | p50 ms | p99 ms | of bare (rounds) | target | | errors | CPU |")
    print("|---|--:|--:|--:|--:|--|--|--:|--|")
    rows = [
        ("bare Flask endpoint (baseline)", "bare", None),
        ("**the table mix**", "mix", MIX_SHARE),
        ("sheet page, 30 hands × 4 sides, the same one again and again", "sheet", SHEET_SHARE),
        ("the floor: that page's statements and bytes, nothing else (diagnostic)", "floor", None),
        ("entry post, a new entry each (diagnostic)", "entry", None),
    ]
    for label, name, least in rows:
        result = loads[name]
        # Each round against the bare rate of the same round: a change in the machine's load
        # between rounds then cancels out; the median round is the figure, the others its range.
        shares = sorted(r.rate / b.rate for r, b in zip(result.runs, bare.runs, strict=True))
        ratio = statistics.median(shares)
        ok = targets.clean(label, result)
        if least is not None:
            ok = targets.share(label.strip("*"), ratio, least) and ok
        target = f"≥ {least:.0%}" if least is not None else "—"
        mark = verdict(ok) if least is not None or not ok else ""
        spread = f" ({shares[0]:.1%}–{shares[-1]:.1%})" if result is not bare else ""
        print(
            f"| {label} | {result.rate:,.1f} | {result.p50_ms:.2f} | {result.p99_ms:.2f} "
            f"| {ratio:.1%}{spread} | {target} | {mark} | {errors(result)} | {result.cpu} |"
        )

    print(
        "\nThe sheet page row is the same page over and over: worked out cold each time by an "
        "app that keeps no pages, served from memory by one that does. The floor (bench/floor.py) "
        "is the least a page like it can cost here: the same four statements through "
        "SQLAlchemy Core and the same bytes from one Jinja template under the same gunicorn, "
        "without the app's session, CSRF, languages, forms, ORM, permissions or rules."
    )
    answered = mixed.answered
    total = sum(answered.values())
    print(
        f"\n| the mix by kind, {args.connections} connections | share (model) | p50 ms | p99 ms |"
    )
    print("|---|--:|--:|--:|")
    for letter, name in mix.NAMES.items():
        p50, p99 = mixed.timed(letter)
        share = answered.get(letter, 0) / total
        print(
            f"| {name} | {share:.1%} ({cycle.count(letter) / len(cycle):.1%}) "
            f"| {p50:.2f} | {p99:.2f} |"
        )

    cpu, workers_cpu, database_cpu = table_minute(mixed)
    print(
        f"\n**CPU per table-minute: {cpu:.0f} CPU-ms** (workers {workers_cpu:.0f}, "
        f"{'PostgreSQL' if not args.sqlite else 'database, in the workers,'} "
        f"{database_cpu:.1f}), from the mix at {args.connections} connections: the server's "
        f"CPU per request times a table's {60 * mix.TABLE_RATE:.0f} requests a minute; a core "
        f"for every {60_000 / cpu:,.0f} tables or so. wrk and the rest of the machine"
        f"{'' if args.sqlite else ' (PostgreSQL background processes among it)'} are not "
        f"counted.\n"
    )

    print(
        f"| the mix at | req/s | p50 ms | p99 ms | p99 < {P99_CEILING_MS:g} ms | tables "
        f"| CPU-ms per table-minute | errors |"
    )
    print("|--:|--:|--:|--:|--|--:|--:|--:|")
    best: tuple[int, Series] | None = None
    for level, result in levels.items():
        within = result.p99_ms < P99_CEILING_MS and not result.errors and not result.unexpected
        if within and (best is None or result.rate > best[1].rate):
            best = (level, result)
        print(
            f"| {level} connections | {result.rate:,.1f} | {result.p50_ms:.2f} "
            f"| {result.p99_ms:.2f} | {'yes' if within else 'no'} "
            f"| {result.rate / mix.TABLE_RATE:,.0f} | {table_minute(result)[0]:.0f} "
            f"| {errors(result)} |"
        )
    closed = (
        "A closed-loop approximation: each connection asks again the moment it is answered, "
        "where real tables ask on their own clocks whatever the server's speed, so the queues "
        "near the limit are only roughly theirs. A figure of this machine, not a target."
    )
    if best is None:
        print(
            f"\n**Tables this box serves at p99 < {P99_CEILING_MS:g} ms: none measured**: no "
            f"level stayed under it (try lower --levels). {closed}"
        )
    else:
        level, result = best
        print(
            f"\n**Tables this box serves at p99 < {P99_CEILING_MS:g} ms: about "
            f"{result.rate / mix.TABLE_RATE:,.0f}**: the mix's {result.rate:,.0f} req/s at "
            f"{level} connections, the fastest level within it, over {mix.TABLE_RATE:.2f} req/s "
            f"a table ({args.level_rounds} interleaved rounds of {args.seconds} s a level, p99 "
            f"the median round's). {closed}"
        )

    print(
        f"\n| single requests: p50 time, 1 connection, {args.rounds} rounds of "
        f"{args.timing_seconds} s | small | large | ratio | target | |"
    )
    print("|---|--:|--:|--:|--|--|")

    def timing(label: str, small: str, large: str, ceiling: float | None) -> None:
        a, b = timings[small], timings[large]
        # Paired by round, as the shares of bare are.
        ratio = statistics.median(y.p50_ms / x.p50_ms for x, y in zip(a.runs, b.runs, strict=True))
        ok = targets.clean(f"{label} (small)", a) and targets.clean(f"{label} (large)", b)
        if ceiling is not None:
            ok = targets.ceiling(label, ratio, ceiling) and ok
        target = f"≤ {ceiling:g}×" if ceiling is not None else "— (diagnostic)"
        mark = verdict(ok) if ceiling is not None or not ok else ""
        print(
            f"| {label} | {a.p50_ms:.2f} ms | {b.p50_ms:.2f} ms | {ratio:.2f}× | {target} "
            f"| {mark} |"
        )

    timing("sheet page: 200 hands vs 10", "sheet 10", "sheet 200", SHEET_GROWTH)
    timing("history: 10,000 matches vs 10", "history 10", "history 10000", None)

    print(
        f"\n| SQL statements per request, a table's turn in order | {fill.SMALL_SHEET} hands "
        f"| {fill.LARGE_SHEET} hands | not more with more hands |"
    )
    print("|---|--:|--:|--|")
    for name, label in QUERY_ROWS.items():
        small, large = queries[name]
        ok = large <= small
        if not ok:
            targets.missed.append(
                f"SQL statements per {label}: {small} at {fill.SMALL_SHEET} hands, {large} at "
                f"{fill.LARGE_SHEET}: they grow with the sheet"
            )
        print(f"| {label} | {small} | {large} | {verdict(ok)} |")

    # Every post answered must have stored an entry of its own (none taken for a repeat); a
    # post still in flight as a run ends may land too.
    posts = sum(r.answered.get(mix.ENTRY, 0) for r in measured.every)
    print(
        f"\nEntry posts answered over every run (warm-ups and levels too): {posts:,}; entries "
        f"they stored: {stored:,}."
    )
    if stored < posts:
        targets.missed.append(
            f"entry posts: {posts:,} answered but only {stored:,} entries stored, so some "
            f"posts were taken for repeats and the bench measured something else"
        )

    everything = [*loads.values(), *levels.values(), *timings.values()]
    busiest = max(r.cpu.other for s in everything for r in s.runs)
    if busiest > BUSY_MACHINE:
        print(
            f"\nWarning: other processes used up to {busiest:.2f} cores during a run; "
            "the machine was not quiet, so these numbers are skewed (run again when it is)."
        )
    if targets.missed:
        print("\nMissed:\n")
        for line in targets.missed:
            print(f"- {line}")
    else:
        print("\nEvery target met.")
    return bool(targets.missed)


if __name__ == "__main__":
    sys.exit(main())
