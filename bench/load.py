"""The load generator: wrk in its own process, and the CPU every party spent meanwhile."""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.database import BenchError

LUA = Path(__file__).resolve().parent / "load.lua"
# What a phone's browser sends: pages go out compressed, as they do in use.
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Cpu:
    """Cores used on average during a run: the load generator, the server, the rest."""

    client: float
    workers: tuple[float, ...]
    database: float
    # Everything else on the machine: another job running alongside skews every number.
    other: float

    def __str__(self) -> str:
        workers = "+".join(f"{c:.2f}" for c in self.workers)
        return f"{self.client:.2f} / {workers} / {self.database:.2f} / {self.other:.2f}"


@dataclass(frozen=True)
class Load:
    """One measured wrk run."""

    requests: int
    seconds: float
    errors: int
    p50_ms: float
    p99_ms: float
    cpu: Cpu
    # Scripted runs: answers other than the one each request was meant to get (load.lua), and
    # how many of each kind of request were answered.
    unexpected: int = 0
    # The last of them, as "kind status" (load.lua's letters: u, c, e, s).
    unexpected_last: str = ""
    answered: dict[str, int] = field(default_factory=dict)
    # Scripted runs, by kind: (p50 ms, p99 ms, answers) as load.lua timed them.
    timed: dict[str, tuple[float, float, int]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Requests answered per second."""
        return self.requests / self.seconds

    @property
    def server_cores(self) -> float:
        """Cores the server used: its workers and PostgreSQL's backends for the bench."""
        return sum(self.cpu.workers) + self.cpu.database


@dataclass(frozen=True)
class Series:
    """The same measurement repeated in rounds interleaved with the others."""

    runs: tuple[Load, ...]

    @property
    def rate(self) -> float:
        """Requests per second over all rounds."""
        return sum(r.requests for r in self.runs) / sum(r.seconds for r in self.runs)

    @property
    def p50_ms(self) -> float:
        """The median of the rounds' medians."""
        return statistics.median(r.p50_ms for r in self.runs)

    @property
    def p99_ms(self) -> float:
        """The median of the rounds' 99th percentiles."""
        return statistics.median(r.p99_ms for r in self.runs)

    @property
    def errors(self) -> int:
        """Connection errors, timeouts and 4xx/5xx answers, over all rounds."""
        return sum(r.errors for r in self.runs)

    @property
    def unexpected(self) -> int:
        """Answers other than the one meant, over all rounds."""
        return sum(r.unexpected for r in self.runs)

    @property
    def answered(self) -> dict[str, int]:
        """Requests answered by kind, over all rounds (scripted runs)."""
        total: dict[str, int] = {}
        for run in self.runs:
            for kind, n in run.answered.items():
                total[kind] = total.get(kind, 0) + n
        return total

    def timed(self, kind: str) -> tuple[float, float]:
        """A kind's p50 and p99 in ms as load.lua timed them: the median of the rounds'."""
        rounds = [r.timed[kind] for r in self.runs if kind in r.timed]
        if not rounds:
            return (float("nan"), float("nan"))
        return (
            statistics.median(p50 for p50, _, _ in rounds),
            statistics.median(p99 for _, p99, _ in rounds),
        )

    @property
    def server_cores(self) -> float:
        """Cores the server used, averaged over the rounds."""
        return statistics.fmean(r.server_cores for r in self.runs)

    @property
    def cpu(self) -> Cpu:
        """CPU use averaged over the rounds."""
        return Cpu(
            client=statistics.fmean(r.cpu.client for r in self.runs),
            workers=tuple(
                map(statistics.fmean, zip(*(r.cpu.workers for r in self.runs), strict=True))
            ),
            database=statistics.fmean(r.cpu.database for r in self.runs),
            other=statistics.fmean(r.cpu.other for r in self.runs),
        )


def ensure_wrk() -> str:
    """wrk's path; installed from Debian (as root) when missing, else how to install it."""
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("wrk is missing: apt-get install -y wrk", flush=True)
        for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "wrk"]):
            subprocess.run(step, check=True, stdout=subprocess.DEVNULL)
        found = shutil.which("wrk")
    if not found:
        raise BenchError("wrk is needed: sudo apt-get install -y wrk")
    return found


def _process_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are stat's fields 14 and 15, the 12th and 13th after the ")".
    return (int(fields[11]) + int(fields[12])) / TICKS


def _machine_seconds() -> float:
    """CPU time the whole machine has spent busy (not idle, not waiting on disk)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle, iowait = fields[3], fields[4]
    # guest time is already counted in user time.
    return (sum(fields[:8]) - idle - iowait) / TICKS


def database_backends(name: str) -> list[int]:
    """The PostgreSQL backends serving database `name` (their titles carry it)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(b"postgres:") and f" {name} ".encode() in title:
                pids.append(int(entry.name))
    return pids


def _children_seconds() -> float:
    """CPU time of this process's finished children (wrk, once it has been waited for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_seconds() -> float:
    """CPU time of this process so far (the bench's own client, bench/tables.py)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_meter(
    workers: list[int], database: str | None, client: Callable[[], float]
) -> Callable[[], Cpu]:
    """Start measuring the cores each party uses; the function returned ends it. `client` is
    the load generator's CPU time so far (wrk's as a finished child, or this process's own)."""
    backends = database_backends(database) if database else []
    watched = [*workers, *backends]
    before = [_process_seconds(pid) for pid in watched]
    client_before, machine_before = client(), _machine_seconds()
    started = time.monotonic()

    def finish() -> Cpu:
        wall = time.monotonic() - started
        # A process gone meanwhile (a pooled connection's backend closed) counts for nothing
        # rather than less than nothing; a backend started meanwhile counts whole.
        used = [
            max(0.0, _process_seconds(pid) - b) / wall
            for pid, b in zip(watched, before, strict=True)
        ]
        born = set(database_backends(database) if database else []) - set(backends)
        used += [_process_seconds(pid) / wall for pid in born]
        client_cores = (client() - client_before) / wall
        machine = (_machine_seconds() - machine_before) / wall
        worker_cores = tuple(used[: len(workers)])
        database_cores = sum(used[len(workers) :])
        return Cpu(
            client=client_cores,
            workers=worker_cores,
            database=database_cores,
            other=max(0.0, machine - client_cores - sum(worker_cores) - database_cores),
        )

    return finish


def run_wrk(
    url: str,
    *,
    connections: int,
    seconds: int,
    headers: dict[str, str],
    workers: list[int],
    database: str | None,
    script_args: tuple[str, ...] = (),
) -> Load:
    """Load `url` with `connections` keep-alive connections for `seconds`; measure it."""
    # One wrk thread per connection: posts and the pages they lead to need each connection's
    # order kept.
    argv = [
        ensure_wrk(),
        f"--threads={connections}",
        f"--connections={connections}",
        f"--duration={seconds}s",
        "--timeout=10s",
        f"--script={LUA}",
    ]
    for name, value in {"Accept-Encoding": ACCEPT_ENCODING, **headers}.items():
        argv += ["--header", f"{name}: {value}"]
    argv.append(url)
    if script_args:
        argv += ["--", *script_args]
    finish = cpu_meter(workers, database, client=_children_seconds)
    done = subprocess.run(argv, capture_output=True, text=True)
    cpu = finish()
    report = next((line for line in done.stdout.splitlines() if line.startswith("BENCH ")), None)
    if done.returncode != 0 or report is None:
        raise BenchError(f"wrk failed on {url}:\n{done.stdout}{done.stderr}")
    found = json.loads(report.removeprefix("BENCH "))
    timed = found["timed"]
    # A scripted run's own timing where there is one (load.lua says why), else wrk's.
    p50_us, p99_us = timed["all"][:2] if timed else (found["p50_us"], found["p99_us"])
    return Load(
        requests=found["requests"],
        seconds=found["duration_us"] / 1e6,
        errors=found["errors"] + found["status_errors"],
        p50_ms=p50_us / 1000,
        p99_ms=p99_us / 1000,
        unexpected=found["unexpected"],
        unexpected_last=found["unexpected_last"],
        answered={kind: n for kind, n in found["answered"].items() if n},
        timed={kind: (p50 / 1000, p99 / 1000, n) for kind, (p50, p99, n) in timed.items()},
        cpu=cpu,
    )
