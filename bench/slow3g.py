"""The sheet on a slow 3G: its first visit, a warm visit and a reload, timed by Chromium itself.

A player's phone in a café: 400 ms round trip, 400 kbit/s each way, emulated by Chromium's
DevTools Protocol (Network.emulateNetworkConditions) on every page and service worker the
browser runs, so the worker's own fetches wait as the page's do. The app is production's
gunicorn on a fresh SQLite file, serving one four-side match in mid-match (30 hands) to the
phone holding its first side. Each figure is the navigation's own timing (its load event, from
the moment the visit began), the median of --runs fresh phones:

- first: a phone that never opened the app (empty caches, no service worker yet);
- warm: the same phone opening the sheet again (its caches and service worker warm);
- reload: that page reloaded.

Each is measured with the service worker and with it blocked (what the page costs without
one). Targets (issue 45): first ≤ 1.2 s, warm with the service worker ≤ 0.3 s.

    .venv/bin/python -m bench.slow3g [--runs 5]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import secrets
import shutil
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, CDPSession, Page, sync_playwright

from bench import database, fill
from bench.database import BenchError
from bench.phones import signed_phone
from bench.server import APP_SPEC, Gunicorn
from scorekeeper import create_app
from scorekeeper.extensions import db

CHROMIUM = Path("/usr/bin/chromium-headless-shell")
# Slow 3G as issue 45 measures it: a 400-ms round trip, 400 kbit/s each way (bytes a second).
LATENCY_MS = 400
THROUGHPUT = 400_000 // 8
TARGET_FIRST, TARGET_WARM = 1.2, 0.3
PHONE = {"width": 360, "height": 740}
SLOW_3G = {
    "offline": False,
    "latency": LATENCY_MS,
    "downloadThroughput": THROUGHPUT,
    "uploadThroughput": THROUGHPUT,
}


@dataclass(frozen=True)
class Timed:
    """One visit: when the sheet was first painted (its styles in) and when it was ready (the
    load event: every module the page imports run; awake.js and share.js are asked for after
    it), in seconds from the visit's start."""

    shown: float
    ready: float


@dataclass(frozen=True)
class Visits:
    """One phone's three visits, and what the server answered it meanwhile (ASKED's kinds
    and statuses, counted from its access log)."""

    first: Timed
    warm: Timed
    reload: Timed
    asked: Counter[str]


# What a phone asks the server, by the path's kind.
ASKED = (
    ("page", re.compile(r"^/m/[^/]+$")),
    ("live part", re.compile(r"^/m/[^/]+/live$")),
    ("stream", re.compile(r"^/m/[^/]+/events")),
    ("static file", re.compile(r"^/(static|js)/")),
    ("service worker", re.compile(r"^/sw\.js$")),
)
LOGGED = re.compile(r'"GET (\S+) HTTP/[\d.]+" (\d{3}) ')


def asked_in(log: str) -> Counter[str]:
    """The requests an access log's lines record, by kind and status ("page 304")."""
    counted: Counter[str] = Counter()
    for path, status in LOGGED.findall(log):
        kind = next((k for k, pattern in ASKED if pattern.match(path.split("?")[0])), "other")
        counted[f"{kind} {status}"] += 1
    return counted


def throttle(session: CDPSession) -> None:
    """Slow 3G on whatever the session drives (a page, a service worker)."""
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", SLOW_3G)


def throttle_workers(session: CDPSession) -> None:
    """Slow 3G on every service worker the page's session starts: a page's throttling does not
    reach the worker that fetches for it, which would then fetch at full speed. Each waits as
    it starts until throttled; every other target the page starts is let run at once."""

    def attached(event: dict[str, Any]) -> None:
        steps: list[tuple[str, dict[str, Any]]] = []
        if event["targetInfo"]["type"] == "service_worker":
            steps = [("Network.enable", {}), ("Network.emulateNetworkConditions", SLOW_3G)]
        for method, params in [*steps, ("Runtime.runIfWaitingForDebugger", {})]:
            message = json.dumps({"id": next(_ids), "method": method, "params": params})
            session.send(
                "Target.sendMessageToTarget", {"sessionId": event["sessionId"], "message": message}
            )

    session.on("Target.attachedToTarget", attached)
    session.send(
        "Target.setAutoAttach",
        {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False},
    )


# The ids of the messages sent to targets through the browser's session.
_ids = itertools.count(1)


def loaded_in(page: Page) -> Timed:
    """The last navigation's first paint and load event, by Chromium's own clock."""
    page.wait_for_load_state("load")
    shown, ready = page.evaluate(
        """() => {
          const n = performance.getEntriesByType("navigation")[0];
          const paint = performance.getEntriesByName("first-contentful-paint")[0];
          return [paint ? paint.startTime : NaN, n.loadEventEnd - n.startTime];
        }"""
    )
    return Timed(float(shown) / 1000, float(ready) / 1000)


def one_phone(context: BrowserContext, url: str, worker: bool, log: Path) -> Visits:
    """A fresh phone's first visit, warm visit and reload of the sheet at `url`; what the
    server's access `log` gained meanwhile."""
    before = log.stat().st_size
    page = context.new_page()
    session = context.new_cdp_session(page)
    throttle(session)
    throttle_workers(session)
    page.goto(url)
    first = loaded_in(page)
    if worker and page.evaluate("() => navigator.serviceWorker.getRegistration().then(Boolean)"):
        # Installed and in charge before the next visit, its files fetched and this page
        # kept, as on a phone a minute later.
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        page.wait_for_function(
            "url => caches.open('scorekeeper-pages').then(c => c.match(url)).then(Boolean)",
            arg=url,
        )
    page.goto(url)
    warm = loaded_in(page)
    page.reload()
    reload = loaded_in(page)
    page.close()
    with open(log, encoding="utf-8", errors="replace") as f:
        f.seek(before)
        asked = asked_in(f.read())
    return Visits(first, warm, reload, asked)


def main(argv: list[str] | None = None) -> int:
    """Serve, time --runs phones with and without the service worker, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="phones timed each way (median)")
    args = parser.parse_args(argv)
    try:
        return report(measure(args.runs))
    except BenchError as error:
        print(f"bench.slow3g: {error}", file=sys.stderr)
        return 2


def measure(runs: int) -> dict[bool, list[Visits]]:
    """`runs` phones' three visits each, with the service worker (True) and without."""
    if not CHROMIUM.exists():
        raise BenchError(f"{CHROMIUM} is missing (apt-get install chromium-headless-shell)")
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-slow3g-"))
    try:
        database_url = f"sqlite:///{workdir / 'slow3g.sqlite'}"
        database.migrate(database_url)
        env = {"DATABASE_URL": database_url, "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32)}
        secret = env["SCOREKEEPER_SECRET_KEY"]
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": secret})
        code = fill.one_table(app)
        phone = signed_phone(app, fill.ENTRY_PHONES[0])
        with app.app_context():
            db.engine.dispose()
        server = Gunicorn(APP_SPEC, 2, env, workdir / "app.log")
        # Every request logged (production's command line logs none), to count them.
        server.argv[-1:-1] = ["--access-logfile", "-"]
        with server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            name, value = phone.cookie.split("=", 1)
            cookies = [
                {"name": name, "value": value, "url": server.url},
                {"name": "tz", "value": "Europe/Madrid", "url": server.url},
            ]
            results: dict[bool, list[Visits]] = {True: [], False: []}
            for _ in range(runs):
                for worker in (False, True):
                    context = browser.new_context(
                        viewport=PHONE,  # type: ignore[arg-type]
                        is_mobile=True,
                        has_touch=True,
                        service_workers="allow" if worker else "block",
                        timezone_id="Europe/Madrid",
                    )
                    context.add_cookies(cookies)  # type: ignore[arg-type]
                    visits = one_phone(context, f"{server.url}/m/{code}", worker, server.log)
                    results[worker].append(visits)
                    context.close()
            browser.close()
        return results
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def report(results: dict[bool, list[Visits]]) -> int:
    """The medians, against the targets (on the load event); 0 when both are met."""
    runs = len(results[True])
    print(
        f"The sheet on a slow 3G ({LATENCY_MS} ms, {THROUGHPUT * 8 // 1000} kbit/s), "
        f"median of {runs} phones, shown (first paint) / ready (load event):"
    )
    print(f"{'':26}{'first':>14}{'warm':>14}{'reload':>14}")
    ready: dict[bool, dict[str, float]] = {}
    for worker, label in ((False, "without a service worker"), (True, "with the service worker")):
        cells = []
        ready[worker] = {}
        for visit in ("first", "warm", "reload"):
            timed = [getattr(v, visit) for v in results[worker]]
            # The headless shell now and then reports no first paint for a visit (NaN): the
            # median of those it reported, as one NaN among them would make the median one.
            painted = [t.shown for t in timed if not math.isnan(t.shown)]
            shown = statistics.median(painted) if painted else math.nan
            ready[worker][visit] = statistics.median(t.ready for t in timed)
            cells.append(f"{shown:.2f} / {ready[worker][visit]:.2f}")
        print(f"{label:26}" + "".join(f"{cell:>14}" for cell in cells))
    print("What the server answered a phone over its three visits (median):")
    kinds = sorted(set().union(*(v.asked for visits in results.values() for v in visits)))
    width = max(map(len, kinds), default=0) + 2
    print(f"{'':26}" + "".join(f"{kind:>{width}}" for kind in kinds))
    for worker, label in ((False, "without a service worker"), (True, "with the service worker")):
        counts = [statistics.median(v.asked[kind] for v in results[worker]) for kind in kinds]
        print(f"{label:26}" + "".join(f"{count:>{width}g}" for count in counts))
    first, warm = ready[True]["first"], ready[True]["warm"]
    first_ok, warm_ok = first <= TARGET_FIRST, warm <= TARGET_WARM
    print(
        f"targets (ready): first ≤ {TARGET_FIRST} s: {'met' if first_ok else 'MISSED'};"
        f" warm with the service worker ≤ {TARGET_WARM} s: {'met' if warm_ok else 'MISSED'}"
    )
    return 0 if first_ok and warm_ok else 1


if __name__ == "__main__":
    sys.exit(main())
