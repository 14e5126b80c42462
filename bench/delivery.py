"""How soon an entry reaches the other phone's stream on `make run` (issue 30): gunicorn with two
workers on a SQLite file, one phone's stream held by each worker, 20 entries posted in turn by
the two phones; for each, the delay from the post to the event on each stream. Prints the
delays to the stream on the worker that did not take the post (the slower of the two: the
other takes it at once), their median and maximum. Linux only (it asks /proc which worker
holds a stream).

    python -m bench.delivery [entries]
"""

from __future__ import annotations

import os
import queue
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.servers import BASRA_FORM, HttpPhone, gunicorn, migrate, new_database


class TimedStream:
    """A match's stream read in a thread, each event's version kept with when it came."""

    def __init__(self, phone: HttpPhone, code: str) -> None:
        self.response = phone.opener.open(f"{phone.base}/m/{code}/events", timeout=60)
        self.port = self.response.fp.raw._sock.getsockname()[1]
        self.events: queue.Queue[tuple[int, float]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Note each event's id as it arrives."""
        try:
            for line in iter(self.response.readline, b""):
                if line.startswith(b"id: "):
                    self.events.put((int(line[4:]), time.perf_counter()))
        except (OSError, ValueError, AttributeError):
            pass  # closed under the reader

    def seen(self, version: int, within: float = 10.0) -> float:
        """When the event of this version (or a later one) came."""
        while True:
            got, when = self.events.get(timeout=within)
            if got >= version:
                return when

    def close(self) -> None:
        """The phone leaves."""
        self.response.close()


def worker_holding(port: int, workers: list[int]) -> int | None:
    """The worker whose socket serves the connection from this local port (via /proc)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if int(fields[2].split(":")[1], 16) == port:
                    inodes.add(fields[9])
    for pid in workers:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                return pid
    return None


def children(pid: int) -> list[int]:
    """gunicorn's workers: the master's child processes."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if parent == pid:
                found.append(int(entry))
    return found


def one_stream_per_worker(code: str, base: str, workers: list[int]) -> dict[int, TimedStream]:
    """Open streams until each worker holds one; close the rest."""
    held: dict[int, TimedStream] = {}
    spare = []
    while len(held) < len(workers):
        stream = TimedStream(HttpPhone(base), code)
        time.sleep(0.05)
        pid = worker_holding(stream.port, workers)
        if pid is None or pid in held:
            spare.append(stream)
        else:
            held[pid] = stream
    for stream in spare:
        stream.close()
    return held


def main(entries: int = 20) -> None:
    """Serve, seat two phones, post `entries` entries and print how soon each was heard."""
    with tempfile.TemporaryDirectory() as folder, new_database(Path(folder)) as url:
        migrate(url)
        with gunicorn(url, workers=2) as (base, server):
            alice, ben = HttpPhone(base), HttpPhone(base)
            status, page = alice.post("/new/basra", BASRA_FORM)
            assert status == 200
            created = re.search(r"/m/([A-Z2-9]{6})/live", page)
            assert created is not None
            code = created.group(1)
            assert ben.post(f"/m/{code}/claim", {"target": 1})[0] == 200
            shown = re.search(r'data-version="(\d+)"', ben.get(f"/m/{code}")[1])
            assert shown is not None
            version = int(shown.group(1))
            streams = one_stream_per_worker(code, base, children(server.pid))
            time.sleep(1.5)  # every worker's reader running, and the streams quiet
            slower, faster = [], []
            for number in range(entries):
                hand, side = number // 2 + 1, number % 2
                phone = (alice, ben)[side]
                version += 1
                posted = time.perf_counter()
                status, _ = phone.post(
                    f"/m/{code}/enter", {"hand": hand, "side": side, "points": 5}
                )
                assert status == 200
                heard = [stream.seen(version) - posted for stream in streams.values()]
                slower.append(max(heard) * 1000)
                faster.append(min(heard) * 1000)
                time.sleep(0.3)
            for stream in streams.values():
                stream.close()
    print("delays to the other worker's stream (ms):", " ".join(f"{d:.0f}" for d in slower))
    print(f"to the stream on the post's own worker: median {statistics.median(faster):.0f} ms")
    late = sum(1 for d in slower if d > 500)
    print(
        f"median {statistics.median(slower):.0f} ms, max {max(slower):.0f} ms, "
        f"{late} of {entries} over 500 ms"
    )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
