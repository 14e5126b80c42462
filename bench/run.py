"""`make bench`: Scorekeeper under gunicorn as production runs it, loaded, against its targets.

Creates and migrates a database of its own (PostgreSQL, or SQLite with --sqlite), fills it
through the models, counts SQL per request in-process, then serves the app and a bare Flask
app under the same gunicorn command line and loads both with wrk, in interleaved rounds so a
change in the machine's load hits every measurement alike. Prints markdown tables; exits 1 if
a target is missed. Everything it starts or creates is removed, even on failure.
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

from bench import database, fill
from bench.database import BenchError
from bench.load import Load, Series, run_wrk
from bench.phones import SignedPhone, signed_phone
from bench.queries import QueryCounter
from bench.server import APP_SPEC, Gunicorn
from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Entry, Hand, Match

BARE_SPEC = "bench.bare:app"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
# Each wrk thread posts to matches of its own, a few per run, going round again (hand 31 on)
# if it gets through them all: the supply never runs out whatever the server's speed.
ENTRY_MATCHES_PER_CONNECTION = 4
# A run whose connections landed on one worker is measured again, this many times at most.
MAX_TRIES = 3

# The targets: a share of the bare endpoint's rate, or a ceiling on a time ratio.
POLL_SHARE, SHEET_SHARE, ENTRY_SHARE = 0.60, 0.25, 0.10
SHEET_GROWTH, HISTORY_GROWTH = 2.0, 1.5
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
        "--connections", type=int, default=8, help="concurrent keep-alive connections (8)"
    )
    # A single round's share of bare swings by a tenth either way here: the median of 5 holds.
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--seconds", type=int, default=3, help="seconds per loaded run (3)")
    parser.add_argument(
        "--timing-seconds", type=int, default=2, help="seconds per one-connection run (2)"
    )
    parser.add_argument("--warmup", type=int, default=2, help="seconds of warm-up per kind (2)")
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file, not PostgreSQL")
    parser.add_argument("--postgres", default=ADMIN_URL, help=f"the server to use ({ADMIN_URL})")
    return parser.parse_args(argv)


@dataclass(frozen=True)
class Request:
    """What wrk sends: a path and headers, or (entry posts) the data file load.lua reads."""

    path: str
    headers: dict[str, str]
    script_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Kind:
    """One kind of request measured: the server it goes to and its request for each run."""

    name: str
    server: Gunicorn
    # By attempt number (0 is the warm-up): entry posts need fresh matches every run.
    request: Callable[[int], Request]


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
        runs = 1 + args.rounds * MAX_TRIES
        entry_matches = runs * args.connections * ENTRY_MATCHES_PER_CONNECTION
        fixture = step("filling", lambda: fill.fill(app, entry_matches))
        tokens = (fill.MAIN_PHONE, fill.FEW_PHONE, fill.PAGE_PHONE, *fill.ENTRY_PHONES)
        phones = {token: signed_phone(app, token) for token in tokens}
        queries = step("counting SQL", lambda: count_queries(app, fixture, phones))
        with (
            Gunicorn(APP_SPEC, args.workers, args.threads, env, workdir / "app.log") as server,
            Gunicorn(BARE_SPEC, args.workers, args.threads, env, workdir / "bare.log") as bare,
        ):
            loads, timings = measure(args, server, bare, fixture, phones, workdir)
            server_argv = server.argv
        with app.app_context():
            stored = db.session.scalar(
                sa.select(sa.func.count(Entry.id))
                .join(Hand, Hand.id == Entry.hand_id)
                .join(Match, Match.id == Hand.match_id)
                .where(Match.code.in_(fixture.entry))
            )
        failed = report(args, database_url, server_argv, loads, timings, queries, stored or 0)
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


def count_queries(
    app: Flask, fixture: fill.Fixture, phones: dict[str, SignedPhone]
) -> dict[str, tuple[int, ...]]:
    """SQL statements per request for each kind measured, at a small and a large size."""
    counter = QueryCounter(app)
    main = phones[fill.MAIN_PHONE]
    client = app.test_client()
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], main.cookie_value)
    versions = app.extensions["match_versions"]
    with app.app_context():
        listens = db.engine.dialect.name == "postgresql"

    def poll(code: str) -> int:
        """The poll's statements while nothing changed (the ETag the page gave still holds),
        in a process listening for versions as each worker soon is (on PostgreSQL)."""
        listening_by = time.monotonic() + 10
        while listens and not versions.listening and time.monotonic() < listening_by:
            client.get(f"/m/{code}/live")  # the first request starts the listener
            time.sleep(0.05)
        etag = client.get(f"/m/{code}/live").headers["ETag"]
        return counter.count(main, "GET", f"/m/{code}/live", 304, headers={"If-None-Match": etag})

    def enter(code: str, hand: int, side: int = 0) -> int:
        """A new entry for a side in the hand after the last complete one: cold for the first
        side, then for the next one right after it on the same worker (which keeps the match
        as the first left it)."""
        phone = phones[fill.ENTRY_PHONES[side]]
        form = {"csrf_token": phone.csrf, "key": secrets.token_hex(8), "hand": hand}
        form |= {"side": side, "points": 12}
        path = f"/m/{code}/enter"
        return counter.count(phone, "POST", path, 302, data=form, cold=side == 0)

    counts = {
        "poll": (poll(fixture.small), poll(fixture.large)),
        "sheet": tuple(
            counter.count(main, "GET", f"/m/{code}", 200) for code in (fixture.small, fixture.large)
        ),
    }
    # Each match's first entry (cold), then the next side's right after it.
    sizes = ((fixture.count_small, fill.SMALL_SHEET), (fixture.count_large, fill.LARGE_SHEET))
    entries = [(enter(code, hands + 1), enter(code, hands + 1, side=1)) for code, hands in sizes]
    counts["entry"] = tuple(cold for cold, _ in entries)
    counts["entry after one"] = tuple(after for _, after in entries)
    counts["history"] = tuple(
        counter.count(phones[token], "GET", "/history", 200)
        for token in (fill.FEW_PHONE, fill.PAGE_PHONE, fill.MAIN_PHONE)
    )
    return counts


def fetch(base: str, request: Request) -> tuple[int, dict[str, str], bytes]:
    """One request as wrk will make it: status, headers, body."""
    connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=10)
    try:
        connection.request("GET", request.path, headers=request.headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def expect(base: str, request: Request, status: int) -> dict[str, str]:
    """Check a request is answered as the measurement assumes, before measuring it."""
    got, headers, body = fetch(base, request)
    if got != status:
        raise BenchError(f"GET {request.path} answered {got}, not {status}:\n{body[:2000]!r}")
    return headers


def as_phone(phone: SignedPhone) -> dict[str, str]:
    """The header that makes a request this phone's."""
    return {"Cookie": phone.cookie}


def always(request: Request) -> Callable[[int], Request]:
    """The same request for every run."""
    return lambda attempt: request


def measure(
    args: argparse.Namespace,
    server: Gunicorn,
    bare: Gunicorn,
    fixture: fill.Fixture,
    phones: dict[str, SignedPhone],
    workdir: Path,
) -> tuple[dict[str, Series], dict[str, Series]]:
    """The loaded runs (rates against bare) and the one-connection runs (time ratios)."""
    main = as_phone(phones[fill.MAIN_PHONE])
    code = fixture.sheets[-1]
    live = Request(f"/m/{code}/live", main)
    etag = expect(server.url, live, 200)["ETag"]
    steady = {
        "bare": (bare, Request("/", {})),
        # As app.js polls: the ETag it was given, and its X-Live header.
        "poll": (server, Request(live.path, {**main, "If-None-Match": etag, "X-Live": "1"})),
        "sheet": (server, Request(f"/m/{code}", main)),
        "history": (server, Request("/history", main)),
    }
    for name, (target, request) in steady.items():
        expect(target.url, request, 304 if name == "poll" else 200)
    per_run = args.connections * ENTRY_MATCHES_PER_CONNECTION
    entry_phones = [phones[token] for token in fill.ENTRY_PHONES]

    def entry(attempt: int) -> Request:
        """Posts for one run, to matches no other run touches, each from hand 1."""
        path = workdir / f"entry-{attempt}.txt"
        lines = [f"phone {side} {p.cookie} {p.csrf}" for side, p in enumerate(entry_phones)]
        lines.append(f"hands {fill.SHEET_HANDS}")
        lines += [f"match {c}" for c in fixture.entry[attempt * per_run : (attempt + 1) * per_run]]
        path.write_text("\n".join(lines) + "\n")
        return Request("/", {}, (str(path), str(args.connections), f"r{attempt}"))

    loaded = [Kind(name, target, always(request)) for name, (target, request) in steady.items()]
    loaded.insert(3, Kind("entry", server, entry))
    print(f"loaded: {args.connections} connections, {args.rounds} rounds of {args.seconds} s")
    loads = rounds(args, loaded, args.connections, args.seconds)

    timed = {
        "sheet 10": Request(f"/m/{fixture.small}", main),
        "sheet 200": Request(f"/m/{fixture.large}", main),
        "history 10": Request("/history", as_phone(phones[fill.FEW_PHONE])),
        "history 20": Request("/history", as_phone(phones[fill.PAGE_PHONE])),
        "history 10000": Request("/history", main),
    }
    for request in timed.values():
        expect(server.url, request, 200)
    print(f"timed: 1 connection, {args.rounds} rounds of {args.timing_seconds} s")
    timings = rounds(
        args,
        [Kind(name, server, always(request)) for name, request in timed.items()],
        1,
        args.timing_seconds,
    )
    return loads, timings


def uneven(cores: tuple[float, ...], connections: int) -> bool:
    """Whether a loaded run's connections all but missed a worker.

    gthread workers race to accept connections, and keep-alive keeps each where it landed:
    now and then one worker gets nearly all of them and the run measures half the server.
    """
    return connections > 1 and len(cores) > 1 and min(cores) < 0.5 * max(cores)


def rounds(
    args: argparse.Namespace, kinds: list[Kind], connections: int, seconds: int
) -> dict[str, Series]:
    """Warm each kind up, then measure them all in turn, round after round."""
    runs: dict[str, list[Load]] = {kind.name: [] for kind in kinds}
    workers = {kind.name: kind.server.workers() for kind in kinds}
    # Every attempt gets its own number: entry posts need matches no earlier run touched.
    attempts = {kind.name: itertools.count() for kind in kinds}
    name = None if args.sqlite else database.BENCH_DATABASE
    for run in range(args.rounds + 1):
        for kind in kinds:
            for _ in range(1 if run == 0 else MAX_TRIES):
                request = kind.request(next(attempts[kind.name]))
                result = run_wrk(
                    kind.server.url + request.path,
                    connections=connections,
                    seconds=args.warmup if run == 0 else seconds,
                    headers=request.headers,
                    workers=workers[kind.name],
                    database=name,
                    script_args=request.script_args,
                )
                if run == 0 or not uneven(result.cpu.workers, connections):
                    break
                print(f"  {run} {kind.name:<14} landed on one worker ({result.cpu}): again")
            if run == 0:
                continue
            runs[kind.name].append(result)
            print(
                f"  {run} {kind.name:<14} {result.rate:8.1f} req/s  p50 {result.p50_ms:7.2f} ms"
                f"  p99 {result.p99_ms:7.2f} ms  errors {result.errors}  cores {result.cpu}",
                flush=True,
            )
    return {name: Series(tuple(results)) for name, results in runs.items()}


def verdict(ok: bool) -> str:
    """The mark a target gets."""
    return "PASS" if ok else "**FAIL**"


def report(
    args: argparse.Namespace,
    database_url: str,
    server_argv: list[str],
    loads: dict[str, Series],
    timings: dict[str, Series],
    queries: dict[str, tuple[int, ...]],
    stored: int,
) -> bool:
    """Print the markdown tables; True if any target was missed."""
    failed = False
    bare = loads["bare"]
    kind = "SQLite" if args.sqlite else "PostgreSQL"
    print(
        f"\n### Scorekeeper under gunicorn: {args.workers} workers × {args.threads} threads, "
        f"{kind}, {os.cpu_count()} cores, Python {platform.python_version()}\n"
    )
    print(f"Server: `{shlex.join(server_argv)}`  ")
    print(f"Database: `{sa.make_url(database_url).render_as_string()}`  ")
    print(
        f"Load: wrk, {args.connections} keep-alive connections (one wrk thread each), "
        f"{args.rounds} interleaved rounds of {args.seconds} s after {args.warmup} s warm-up; "
        f"req/s over all rounds; p50/p99 and share of bare (range over rounds) the median "
        f"round's, each round against bare in the same round. CPU in cores: wrk / each "
        f"worker / {'PostgreSQL' if not args.sqlite else 'nothing (SQLite runs in the workers)'}"
        f" / rest of the machine.\n"
    )
    print("| measure | req/s | p50 ms | p99 ms | of bare (rounds) | target | | errors | CPU |")
    print("|---|--:|--:|--:|--:|--|--|--:|--|")
    rows = [
        ("(e) bare Flask endpoint (baseline)", "bare", None),
        ("(a) live poll, unchanged (304)", "poll", POLL_SHARE),
        ("(b) sheet page, 30 hands × 4 sides, host's phone", "sheet", SHEET_SHARE),
        ("(c) entry post, a new entry each", "entry", ENTRY_SHARE),
        ("(d) history page, 10,000 matches", "history", None),
    ]
    for label, name, share in rows:
        result = loads[name]
        # Each round against the bare rate of the same round: a change in the machine's load
        # between rounds then cancels out; the median round is the figure, the others its range.
        shares = sorted(r.rate / b.rate for r, b in zip(result.runs, bare.runs, strict=True))
        ratio = statistics.median(shares)
        # A run with errors measured error pages, not the page it meant to.
        ok = (share is None or ratio >= share) and result.errors == 0
        failed |= not ok
        target = f"≥ {share:.0%}" if share is not None else "—"
        mark = verdict(ok) if share is not None or result.errors else ""
        spread = f" ({shares[0]:.1%}–{shares[-1]:.1%})" if result is not bare else ""
        print(
            f"| {label} | {result.rate:,.1f} | {result.p50_ms:.2f} | {result.p99_ms:.2f} "
            f"| {ratio:.1%}{spread} | {target} | {mark} "
            f"| {result.errors} | {result.cpu} |"
        )
    posts = sum(r.requests for r in loads["entry"].runs)
    print(
        f"\nEntry posts answered (measured rounds): {posts:,}; entries stored by warm-up and "
        f"rounds together: {stored:,} (posts still in flight as a run ends land too)."
    )

    print(
        f"\n| comparison: p50 time, 1 connection, {args.rounds} rounds of "
        f"{args.timing_seconds} s | small | large | ratio | target | |"
    )
    print("|---|--:|--:|--:|--|--|")

    def timing(label: str, small: str, large: str, ceiling: float | None) -> None:
        nonlocal failed
        a, b = timings[small], timings[large]
        # Paired by round, as the shares of bare are.
        ratio = statistics.median(y.p50_ms / x.p50_ms for x, y in zip(a.runs, b.runs, strict=True))
        ok = (ceiling is None or ratio <= ceiling) and a.errors == b.errors == 0
        failed |= not ok
        target = f"≤ {ceiling:g}×" if ceiling is not None else "— (diagnostic)"
        mark = verdict(ok) if ceiling is not None else ""
        print(
            f"| {label} | {a.p50_ms:.2f} ms | {b.p50_ms:.2f} ms | {ratio:.2f}× | {target} "
            f"| {mark} |"
        )

    def same(label: str, counts: tuple[int, ...]) -> None:
        nonlocal failed
        ok = len(set(counts)) == 1
        failed |= not ok
        middle = f" ({counts[1]} with 20)" if len(counts) == 3 else ""
        print(f"| {label} | {counts[0]} | {counts[-1]}{middle} | | equal | {verdict(ok)} |")

    timing("sheet page: 200 hands vs 10", "sheet 10", "sheet 200", SHEET_GROWTH)
    timing("history: 10,000 matches vs 10", "history 10", "history 10000", HISTORY_GROWTH)
    timing("history: 10,000 matches vs 20 (a full page each)", "history 20", "history 10000", None)
    same("SQL statements per live poll (304): 10 vs 200 hands", queries["poll"])
    same("SQL statements per sheet page (worked out cold): 10 vs 200 hands", queries["sheet"])
    same("SQL statements per entry post (worked out cold): after 10 vs 200 hands", queries["entry"])
    same(
        "SQL statements per entry post, right after one on the same worker: after 10 vs 200 hands",
        queries["entry after one"],
    )
    same("SQL statements per history page (cards cold): 10 vs 10,000 matches", queries["history"])

    busiest = max(r.cpu.other for s in (*loads.values(), *timings.values()) for r in s.runs)
    if busiest > BUSY_MACHINE:
        print(
            f"\nWarning: other processes used up to {busiest:.2f} cores during a run; "
            "the machine was not quiet, so these numbers are skewed (run again when it is)."
        )
    return failed


if __name__ == "__main__":
    sys.exit(main())
