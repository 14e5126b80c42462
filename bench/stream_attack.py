"""What one address's streams cost another table (issue 31): gunicorn with two gevent workers,
the default stream caps, on the suite's database (PostgreSQL with TEST_DATABASE_URL, else
SQLite) with Redis counting the streams. A table at 127.0.0.1 loads its sheet and posts entries,
measured (the sheet's median, the entries' median and maximum):

- quiet: nothing else;
- held: 127.0.0.2 asks for `streams` streams (no cookie) spread over its own matches, and holds
  the ones it is let in;
- busy: 127.0.0.2 asks for `streams` streams of one match of its own and holds the ones let in,
  while it posts 4.8 entries a second there (every one rings each of its streams).

Prints, for each, how many streams were let in and refused, and the table's figures.

    python -m bench.stream_attack [streams]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from scorekeeper.live.stream import HEARTBEAT
from tests.conftest import REDIS
from tests.servers import HttpPhone, gunicorn, migrate, new_database
from tests.web.test_stream_attack import ATTACKER, knock, let_go, new_match, table

# The red-team run's pace of entries on the attacker's match.
ENTRIES_PER_SECOND = 4.8


def measured(host: HttpPhone, guest: HttpPhone, code: str, first_hand: int) -> str:
    """The table's sheet loaded 30 times and 10 hands entered: the figures, in words."""
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
    return (
        f"sheet p50 {statistics.median(loads) * 1000:.0f} ms, entry p50 "
        f"{statistics.median(posts) * 1000:.0f} ms (max {max(posts) * 1000:.0f} ms)"
    )


def held(base: str, paths: list[str]) -> tuple[list, int]:
    """Streams asked for one after another and held: the held sockets, how many refused."""
    sockets, refused = [], 0
    for path in paths:
        answer = knock(base, path)
        if isinstance(answer, int):
            refused += 1
        else:
            sockets.append(answer)
    return sockets, refused


def busy(base: str, stop: threading.Event, address: str = ATTACKER) -> str:
    """The attacker's own match, where it posts ENTRIES_PER_SECOND entries a second from
    `address` until `stop`: its code."""
    alice, ben = HttpPhone(base, address), HttpPhone(base, address)
    code = new_match(alice)
    assert ben.post(f"/m/{code}/claim", {"target": 1})[0] == 200

    def post() -> None:
        hand = 1
        while not stop.is_set():
            for side, phone in ((0, alice), (1, ben)):
                try:
                    phone.post(f"/m/{code}/enter", {"hand": hand, "side": side, "points": 1})
                except OSError:
                    return  # the server is gone: the run is over
                stop.wait(1 / ENTRIES_PER_SECOND)
            hand += 1

    threading.Thread(target=post, daemon=True).start()
    return code


def main(streams: int = 1000) -> None:
    """Run the three cases and print what the table saw."""
    with tempfile.TemporaryDirectory() as folder, new_database(Path(folder)) as url:
        migrate(url)
        prefix = f"bench-{uuid.uuid4().hex[:8]}"
        # Production's heartbeat, not the test servers' half second (bench/strangers.py).
        settings: dict[str, Any] = {
            "RATELIMIT_STORAGE_URI": REDIS,
            "RATELIMIT_KEY_PREFIX": prefix,
            "STREAM_HEARTBEAT": str(HEARTBEAT),
        }
        with gunicorn(url, workers=2, **settings) as (base, _):
            host, guest, code = table(base)
            print(f"quiet: {measured(host, guest, code, 1)}")
            attacker = HttpPhone(base, ATTACKER)
            own = [new_match(attacker) for _ in range(5)]
            sockets, refused = held(base, [f"/m/{own[n % 5]}/events" for n in range(streams)])
            print(
                f"held: {len(sockets)} let in, {refused} refused; {measured(host, guest, code, 11)}"
            )
            let_go(sockets)
            stop = threading.Event()
            hot = busy(base, stop)
            sockets, refused = held(base, [f"/m/{hot}/events"] * streams)
            try:
                print(
                    f"busy: {len(sockets)} let in, {refused} refused; "
                    f"{measured(host, guest, code, 21)}"
                )
            finally:
                stop.set()
                let_go(sockets)


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
