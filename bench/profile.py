"""`make profile`: where a request's CPU goes, in-process, by component.

The bench's own data (bench/fill.py) in a database of its own (PostgreSQL, or SQLite with
--sqlite), then about a thousand requests of each kind a table makes most (the cold 30-hand
sheet page, the live part, the entry post) and the 200-hand sheet, each made on the app's
WSGI callable in this process, as the bench's phones make them (their cookie, no
Accept-Encoding). Meanwhile a CPU-time sampler (signal.setitimer(ITIMER_PROF): a SIGPROF each
time the process has used `--interval` ms of CPU, or at most one a scheduler tick, often 4 ms)
notes the Python stack of the request running, and `component` says whose each sample is.
cProfile is not used: its hook on every call and return costs most where calls are many and
small, Jinja's and the ORM's, and shifted their shares by more than twice.

Prints, for each kind, the CPU milliseconds a request takes (this thread's CPU time, the
database server's not included) and each component's share of the samples, then the
functions the most samples fell in. docs/benchmark.md says how to read it.
"""

from __future__ import annotations

import argparse
import itertools
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from flask import Flask
from werkzeug.test import EnvironBuilder

from bench import database, fill
from bench.database import BenchError
from bench.phones import SignedPhone, signed_phone
from tests.statements import counting

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
# Not the bench's: a profile and a bench may run on one machine at once.
PROFILE_DATABASE = "scorekeeper_profile"

# Whose a sample is: the innermost frame of its stack whose module (or template) is one of
# these; a frame of any other module (the standard library, a helper every component calls) is
# charged to its caller. A prefix names a package and everything in it; the longest prefix
# that fits decides ("sqlalchemy.orm" before "sqlalchemy").
COMPONENTS: dict[str, tuple[str, ...]] = {
    "Jinja (templates, filters' callers)": ("jinja2",),
    "SQLAlchemy execution + compile, the driver": ("sqlalchemy", "psycopg", "psycopg_pool"),
    "ORM hydration, unit of work": ("sqlalchemy.orm", "sqlalchemy.ext", "flask_sqlalchemy"),
    "sheet building (scoresheet/, chart)": ("scorekeeper.scoresheet", "scorekeeper.chart"),
    "game rules (games/)": ("scorekeeper.games",),
    "Werkzeug/Flask dispatch, session": (
        "werkzeug",
        "flask",
        "itsdangerous",
        "flask_compress",
        "blinker",
    ),
    "forms, CSRF (WTForms, Flask-WTF)": ("wtforms", "flask_wtf"),
    "Flask-Babel (words, dates)": ("flask_babel", "babel", "gettext"),
    "the app's other code (routes, permissions, live…)": ("scorekeeper",),
}
# Helpers every component calls, charged to the caller: the context-local lookups (Flask's
# `g`, `request`, `current_app`), SQLAlchemy's utilities and events, Markup.
PASS_THROUGH = (
    "werkzeug.local",
    "flask.globals",
    "sqlalchemy.util",
    "sqlalchemy.event",
    "sqlalchemy.log",
    "markupsafe",
)
OTHER = "other (no frame of the above)"
JINJA = next(iter(COMPONENTS))
# A template's compiled code runs with no module name: its file says it is one.
TEMPLATE_SUFFIXES = (".html", ".txt", ".xml", ".svg", ".js", ".css", ".webmanifest")

_BY_PREFIX = sorted(
    ((prefix, name) for name, prefixes in COMPONENTS.items() for prefix in prefixes),
    key=lambda pair: -len(pair[0]),
)


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def component_of(frame: FrameType) -> str | None:
    """The component one frame's code belongs to; None if it is charged to its caller."""
    module = frame.f_globals.get("__name__")
    if not isinstance(module, str):
        return JINJA if frame.f_code.co_filename.endswith(TEMPLATE_SUFFIXES) else None
    if any(_within(module, prefix) for prefix in PASS_THROUGH):
        return None
    for prefix, name in _BY_PREFIX:
        if _within(module, prefix):
            return name
    return None


def component(frame: FrameType | None) -> tuple[str, str]:
    """Whose a sample is (its innermost frame that is a component's), and where: that frame's
    module or template and function."""
    while frame is not None:
        name = component_of(frame)
        if name is not None:
            code = frame.f_code
            module = frame.f_globals.get("__name__") or _template(code.co_filename)
            return name, f"{module}:{code.co_name}"
        frame = frame.f_back
    return OTHER, "-"


def _template(filename: str) -> str:
    """A template's path from its templates folder: sheet/_status.html."""
    parts = Path(filename).parts
    return "/".join(parts[parts.index("templates") + 1 :]) if "templates" in parts else filename


@dataclass
class Tally:
    """One kind's requests: their CPU time, and the samples taken while they ran."""

    requests: int = 0
    cpu_seconds: float = 0.0
    by_component: Counter[str] = field(default_factory=Counter)
    by_place: Counter[tuple[str, str]] = field(default_factory=Counter)
    statements: int = 0

    @property
    def samples(self) -> int:
        return sum(self.by_component.values())

    def share(self, name: str) -> float:
        return self.by_component[name] / max(self.samples, 1)


class Sampler:
    """SIGPROF every `interval` seconds of the process's CPU time; each one, while a tally is
    on, charges the stack it interrupts to its component. The handler runs in the main
    thread, where the requests run."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.on: Tally | None = None

    def _sample(self, signum: int, frame: FrameType | None) -> None:
        tally = self.on
        if tally is None:
            return
        name, place = component(frame)
        tally.by_component[name] += 1
        tally.by_place[name, place] += 1

    @contextmanager
    def running(self) -> Iterator[Sampler]:
        before = signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)
        try:
            yield self
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0, 0)
            signal.signal(signal.SIGPROF, before)


@dataclass(frozen=True)
class Made:
    """One request, ready to send: its WSGI environ, made before the clock starts."""

    environ: dict[str, Any]
    expect: int


def made(
    app: Flask,
    path: str,
    phone: SignedPhone,
    expect: int,
    data: dict[str, Any] | None = None,
) -> Made:
    """A request as the bench's phones send it: their cookie, no compression asked."""
    builder = EnvironBuilder(
        path=path,
        method="POST" if data is not None else "GET",
        headers=[("Cookie", phone.cookie)],
        data=data,
        base_url="http://localhost/",
    )
    try:
        return Made(builder.get_environ(), expect)
    finally:
        builder.close()


def send(app: Flask, request: Made) -> None:
    """Run one request through the app's WSGI callable, its body read to the end."""
    status: list[str] = []

    def start_response(given: str, headers: Any, exc_info: Any = None) -> Callable[..., Any]:
        status.append(given)
        return lambda data: None

    body = app(request.environ, start_response)
    try:
        for _chunk in body:
            pass
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()
    code = int(status[0].split()[0])
    if code != request.expect:
        raise BenchError(
            f"{request.environ['PATH_INFO']} answered {status[0]}, not {request.expect}"
        )


def measure(
    app: Flask, sampler: Sampler, requests: list[Made], warm: list[Made], tally: Tally
) -> None:
    """Warm up (and count one request's statements), then send each request, timed and
    sampled."""
    for request in warm[:-1]:
        send(app, request)
    with counting(_engine(app)) as sent:
        send(app, warm[-1])
    tally.statements = len(sent)
    for request in requests:
        began = time.thread_time()
        sampler.on = tally
        send(app, request)
        sampler.on = None
        tally.cpu_seconds += time.thread_time() - began
        tally.requests += 1


def _engine(app: Flask) -> Any:
    from scorekeeper.extensions import db

    with app.app_context():
        return db.engine


def posts(app: Flask, codes: list[str], phones: list[SignedPhone]) -> Iterator[Made]:
    """Entry posts to these empty matches, as their sides' phones make them: hand by hand,
    each side in turn, a new key each, up to the bench's sheet of 30 hands."""
    for code in codes:
        for hand in range(1, fill.SHEET_HANDS + 1):
            for side, phone in enumerate(phones):
                form = {"csrf_token": phone.csrf, "key": secrets.token_hex(8), "hand": hand}
                form |= {"side": side, "revision": 0, "points": 7 + side + hand % 5}
                yield made(app, f"/m/{code}/enter", phone, 302, form)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.profile", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--requests", type=int, default=1200, help="requests of each kind (1200)")
    parser.add_argument("--warmup", type=int, default=60, help="warm-up requests per kind (60)")
    parser.add_argument(
        "--interval", type=float, default=0.5, help="ms of CPU between samples (0.5)"
    )
    parser.add_argument("--top", type=int, default=8, help="functions listed per kind (8)")
    parser.add_argument(
        "--kinds",
        default="sheet,live,entry,sheet200",
        help="which to profile, in order (sheet,live,entry,sheet200)",
    )
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file, not PostgreSQL")
    parser.add_argument("--postgres", default=ADMIN_URL, help=f"the server to use ({ADMIN_URL})")
    return parser.parse_args(argv)


KINDS = {
    "sheet": f"sheet page, {fill.SHEET_HANDS} hands × {fill.SIDES} sides, cold",
    "live": "live part of that sheet (200)",
    "entry": "entry post, a new entry each (hands 1–30)",
    "sheet200": f"sheet page, {fill.LARGE_SHEET} hands",
}


def main(argv: list[str] | None = None) -> int:
    """Set up, profile, print, clean up."""
    args = parse(argv)
    kinds = args.kinds.split(",")
    if unknown := set(kinds) - set(KINDS):
        raise SystemExit(f"unknown kinds: {', '.join(sorted(unknown))}")
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-profile-"))
    app: Flask | None = None
    try:
        if args.sqlite:
            database_url = f"sqlite:///{workdir / 'profile.sqlite'}"
        else:
            database_url = database.postgres_url(args.postgres, PROFILE_DATABASE)
            database.create_postgres(args.postgres, PROFILE_DATABASE)
        database.migrate(database_url)
        os.environ.update(
            {"DATABASE_URL": database_url, "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32)}
        )
        from scorekeeper import create_app

        app = create_app()
        per_match = fill.SHEET_HANDS * fill.SIDES
        wanted = -(-args.requests // per_match) + -(-max(args.warmup, 1) // per_match)
        print("filling…", end=" ", flush=True)
        began = time.monotonic()
        fixture = fill.fill(app, wanted)
        print(f"{time.monotonic() - began:.1f} s", flush=True)
        main_phone = signed_phone(app, fill.MAIN_PHONE)
        entry_phones = [signed_phone(app, token) for token in fill.ENTRY_PHONES]
        sheet = fixture.sheets[-1]

        measured_matches = -(-args.requests // per_match)

        def requests(kind: str, count: int, warming: bool = False) -> list[Made]:
            if kind == "entry":
                # The warm-up's posts go to matches of their own, after the measured ones'.
                codes = fixture.entry[measured_matches:] if warming else fixture.entry
                return list(itertools.islice(posts(app, codes, entry_phones), count))
            path = {
                "sheet": f"/m/{sheet}",
                "live": f"/m/{sheet}/live",
                "sheet200": f"/m/{fixture.large}",
            }[kind]
            return [made(app, path, main_phone, 200) for _ in range(count)]

        sampler = Sampler(args.interval / 1000)
        tallies: dict[str, Tally] = {}
        with sampler.running():
            for kind in kinds:
                tally = tallies[kind] = Tally()
                print(f"{KINDS[kind]}…", end=" ", flush=True)
                began = time.monotonic()
                warm = requests(kind, max(args.warmup, 1), warming=True)
                measure(app, sampler, requests(kind, args.requests), warm, tally)
                print(f"{time.monotonic() - began:.1f} s", flush=True)
        report(args, tallies, "SQLite" if args.sqlite else "PostgreSQL")
        return 0
    except BenchError as error:
        print(f"\nprofile: {error}", file=sys.stderr)
        return 2
    finally:
        if app is not None:
            from scorekeeper import live
            from scorekeeper.extensions import db

            live.stop(app)
            with app.app_context():
                db.engine.dispose()
        if not args.sqlite:
            database.drop_postgres(args.postgres, PROFILE_DATABASE)
        shutil.rmtree(workdir, ignore_errors=True)


def report(args: argparse.Namespace, tallies: dict[str, Tally], kind: str) -> None:
    """The markdown tables: each component's share per kind, then where the samples fell."""
    cpu = sum(t.cpu_seconds for t in tallies.values())
    samples = sum(t.samples for t in tallies.values())
    print(
        f"\n### Where a request's CPU goes: in-process, {kind}, Python "
        f"{sys.version.split()[0]}, {args.requests:,} requests each, a sample every "
        f"{1000 * cpu / max(samples, 1):.1f} ms of CPU (asked {args.interval:g}: the kernel "
        f"sends at most one a scheduler tick)\n"
    )
    names = list(tallies)
    print("| | " + " | ".join(KINDS[name] for name in names) + " |")
    print("|---|" + "--:|" * len(names))
    cells = [f"{1000 * t.cpu_seconds / max(t.requests, 1):.2f}" for t in tallies.values()]
    print("| **CPU ms per request** (this process) | " + " | ".join(cells) + " |")
    cells = [str(t.statements) for t in tallies.values()]
    print("| SQL statements per request | " + " | ".join(cells) + " |")
    cells = [f"{t.samples:,}" for t in tallies.values()]
    print("| samples | " + " | ".join(cells) + " |")
    for name in [*COMPONENTS, OTHER]:
        cells = []
        for tally in tallies.values():
            share = tally.share(name)
            ms = share * 1000 * tally.cpu_seconds / max(tally.requests, 1)
            cells.append(f"{share:.0%} ({ms:.2f})" if tally.by_component[name] else "–")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nShares of the samples, and in brackets the CPU ms per request they stand for.")
    for name, tally in tallies.items():
        print(f"\n| {KINDS[name]}: where the samples fell | component | share |")
        print("|---|---|--:|")
        for (part, place), count in tally.by_place.most_common(args.top):
            print(f"| `{place}` | {part} | {count / max(tally.samples, 1):.1%} |")


if __name__ == "__main__":
    sys.exit(main())
