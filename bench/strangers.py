"""What many strangers at once cost another table (issue 46): gunicorn with two gevent workers
and production's defaults (the stream budget, the caps, the connection cap per address, the
request deadline), on the suite's database (PostgreSQL with TEST_DATABASE_URL, else SQLite)
with Redis counting the streams. A table at 127.0.0.1 loads its sheet, posts entries and opens
its stream, measured (p50 and p95 of each) three times:

- quiet: nothing else;
- spread: `streams` streams asked for (no cookie) from `addresses` loopback addresses taking
  turns, over three matches each address made, one of which its phones ring with 4.8 entries
  a second; the ones let in are held;
- trickled: `bodies` posts from one address whose bodies never arrive whole, held open.

Then, after the strangers sent requests no phone sends (made-up methods and paths on every
route), the size of /metrics. Prints each figure and the ratio to the quiet one.

    python -m bench.strangers [streams] [addresses] [bodies]
"""

from __future__ import annotations

import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from bench.stream_attack import busy
from scorekeeper.live.stream import HEARTBEAT
from scorekeeper.serve import allow_open_streams
from tests.conftest import REDIS
from tests.servers import HttpPhone, gunicorn, migrate, new_database
from tests.web.test_stream_attack import knock, let_go, new_match, table

TOKEN = "bench-strangers"


def p95(times: list[float]) -> float:
    """The 95th percentile, in ms."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] * 1000


def opened(base: str, path: str) -> float:
    """The time a stream takes to open (its first event), from the table's address."""
    start = time.perf_counter()
    answer = knock(base, path, "127.0.0.1")
    took = time.perf_counter() - start
    assert isinstance(answer, socket.socket), f"the table's stream was answered {answer}"
    answer.close()
    return took


def measured(host: HttpPhone, guest: HttpPhone, code: str, first_hand: int) -> dict[str, float]:
    """The table's sheet loaded 30 times, 10 hands entered, its stream opened 15 times: the
    p50 and p95 of each, in ms."""
    base = host.base
    loads = []
    for _ in range(30):
        start = time.perf_counter()
        assert guest.get(f"/m/{code}")[0] == 200
        loads.append(time.perf_counter() - start)
    posts = []
    for hand in range(first_hand, first_hand + 10):
        assert host.post(f"/m/{code}/enter", {"hand": hand, "side": 0, "points": 1})[0] == 200
        start = time.perf_counter()
        assert guest.post(f"/m/{code}/enter", {"hand": hand, "side": 1, "points": 1})[0] == 200
        posts.append(time.perf_counter() - start)
    streams = [opened(base, f"/m/{code}/events") for _ in range(15)]
    figures = {}
    for name, times in (("sheet", loads), ("entry", posts), ("stream", streams)):
        figures[f"{name} p50"] = statistics.median(times) * 1000
        figures[f"{name} p95"] = p95(times)
    return figures


def said(figures: dict[str, float], quiet: dict[str, float] | None = None) -> str:
    """The figures in words, each with its ratio to the quiet one."""
    parts = []
    for name, value in figures.items():
        ratio = f" ({value / quiet[name]:.2f}×)" if quiet else ""
        parts.append(f"{name} {value:.1f} ms{ratio}")
    return ", ".join(parts)


def spread(base: str, streams: int, addresses: list[str]) -> tuple[list[socket.socket], int, Any]:
    """Streams asked for from every address in turn, over three matches each made (no cookie
    kept), the first ringing: the held sockets, how many were refused, and the ringing's stop."""
    theirs = {}
    for address in addresses:
        maker = HttpPhone(base, address)
        theirs[address] = [new_match(maker) for _ in range(2)]
    stop = threading.Event()
    hot = busy(base, stop, addresses[0])
    for address in addresses:
        theirs[address].append(hot)
    held, refused = [], 0
    for n in range(streams):
        address = addresses[n % len(addresses)]
        path = f"/m/{theirs[address][(n // len(addresses)) % 3]}/events"
        answer = knock(base, path, address)
        if isinstance(answer, socket.socket):
            held.append(answer)
        else:
            refused += 1
    return held, refused, stop


def trickled(base: str, bodies: int, address: str) -> tuple[list[socket.socket], int]:
    """Posts from one address whose bodies stop after their first bytes, held open: the
    sockets, and how many the server answered at once (turned away)."""
    url = urllib.parse.urlsplit(base)
    head = (
        f"POST /join HTTP/1.1\r\nHost: {url.netloc}\r\nContent-Length: 500\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n\r\ncode=AB"
    ).encode()
    socks = []
    for _ in range(bodies):
        sock = socket.create_connection((url.hostname, url.port), 10, (address, 0))
        sock.sendall(head)
        socks.append(sock)
    # Those past the address's share are answered at once: whatever answers within a few
    # seconds, while none of the held ones can be answered before the deadline (20 s).
    turned_away = 0
    with selectors.DefaultSelector() as answering:
        for sock in socks:
            answering.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and answering.get_map():
            for key, _ in answering.select(timeout=max(0.0, deadline - time.monotonic())):
                answered = key.fileobj
                assert isinstance(answered, socket.socket)
                try:
                    turned_away += answered.recv(64).startswith(b"HTTP/1.1 429")
                except OSError:
                    pass
                answering.unregister(answered)
    return socks, turned_away


def junk(base: str) -> None:
    """Requests no phone sends: made-up methods and paths, on made-up paths and every route."""
    paths = ["/", "/join", "/new/basra", "/m/ZZZZZZ", "/m/ZZZZZZ/enter", "/m/ZZZZZZ/events"]
    paths += ["/m/ZZZZZZ/hand/1/side/0/correct", "/history", "/static/x.css", "/js/x/y.js"]
    for n in range(200):
        method = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", f"X{n}"][n % 8]
        for path in (*paths, f"/{uuid.uuid4().hex}/{n}.php"):
            request = urllib.request.Request(base + path, method=method, data=b"x=1")
            try:
                urllib.request.urlopen(request, timeout=10).close()
            except OSError:
                pass


def metrics_size(base: str) -> tuple[int, int]:
    """/metrics as Prometheus reads it: bytes and lines."""
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    request = urllib.request.Request(base + "/metrics", headers=bearer)
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
    return len(text), text.count(b"\n")


def main(streams: int = 12000, addresses: int = 49, bodies: int = 10500) -> None:
    """Run the three cases and print what the table saw, and /metrics' size."""
    allow_open_streams()
    strangers = [f"127.0.0.{n}" for n in range(2, 2 + addresses)]
    with tempfile.TemporaryDirectory() as folder, new_database(Path(folder)) as url:
        migrate(url)
        prefix = f"bench-{uuid.uuid4().hex[:8]}"
        settings: dict[str, Any] = {
            "RATELIMIT_STORAGE_URI": REDIS,
            "RATELIMIT_KEY_PREFIX": prefix,
            "METRICS_TOKEN": TOKEN,
            # Production's heartbeat, not the test servers' half second: thousands of held
            # streams would otherwise each write and renew its lease twice a second.
            "STREAM_HEARTBEAT": str(HEARTBEAT),
        }
        with gunicorn(url, workers=2, **settings) as (base, _):
            host, guest, code = table(base)
            measured(host, guest, code, 1)  # warm
            quiet = measured(host, guest, code, 11)
            print(f"quiet: {said(quiet)}", flush=True)
            size, lines = metrics_size(base)
            print(f"/metrics after the quiet table: {size / 1024:.1f} KB, {lines:,} lines")
            began = time.monotonic()
            held, refused, stop = spread(base, streams, strangers)
            took = time.monotonic() - began
            try:
                during = measured(host, guest, code, 21)
                print(
                    f"spread: {streams:,} streams from {addresses} addresses, asked in "
                    f"{took:.0f} s: "
                    f"{len(held):,} let in, {refused:,} refused; {said(during, quiet)}",
                    flush=True,
                )
            finally:
                stop.set()
                let_go(held)
            socks, turned_away = trickled(base, bodies, "127.0.0.60")
            try:
                during = measured(host, guest, code, 31)
                print(
                    f"trickled: {bodies:,} bodies from one address, {turned_away:,} turned away "
                    f"at once; {said(during, quiet)}",
                    flush=True,
                )
            finally:
                let_go(socks)
            junk(base)
            size, lines = metrics_size(base)
            print(f"/metrics after all of it: {size / 1024:.1f} KB, {lines:,} lines", flush=True)


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
