"""gunicorn started with production's own command line, on a free port, and stopped for sure."""

from __future__ import annotations

import contextlib
import ctypes
import http.client
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType
from unittest import mock

from bench.database import REPO, BenchError
from scorekeeper import serve

APP_SPEC = "scorekeeper:create_app()"


def production_argv(app_spec: str, port: int, workers: int) -> list[str]:
    """The exact gunicorn command `make serve` runs (scorekeeper/serve.py), for any WSGI app.

    Taken from serve.py itself rather than copied, so a flag added there is benchmarked too.
    """
    settings = {"WORKERS": str(workers), "ACCESS_LOG": ""}
    with mock.patch.dict(os.environ, settings):
        argv = serve.gunicorn_command("127.0.0.1", port)
    if argv[-1] != APP_SPEC:
        raise BenchError(f"serve.py no longer ends its command line with {APP_SPEC}: {argv}")
    return [*argv[:-1], app_spec]


def free_port() -> int:
    """A port nothing listens on now (the kernel's pick)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:
    """In the child: get SIGTERM if the bench dies, so a killed run leaves no server behind."""
    pr_set_pdeathsig = 1
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class Gunicorn:
    """One gunicorn master and its workers, serving until the `with` block ends."""

    def __init__(self, app_spec: str, workers: int, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.argv = production_argv(app_spec, self.port, workers)
        self.env = env
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Gunicorn:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                self.argv,
                cwd=REPO,
                env={**os.environ, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def _wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the home page answers, or fail with the server's log."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"gunicorn exited at start:\n{self.log.read_text()[-3000:]}")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/")
                if connection.getresponse().status == 200:
                    # Every worker must be up before measuring, not only the first to answer.
                    if len(self.workers()) == int(self.argv[self.argv.index("--workers") + 1]):
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise BenchError(f"gunicorn did not answer in {timeout:.0f} s:\n{self.log.read_text()}")

    def log_tail(self, lines: int = 30) -> str:
        """The end of the server's log (production's command line logs no requests): what went
        wrong, for a run that stops on it (the log goes with the bench's files)."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def workers(self) -> list[int]:
        """The worker processes' ids (the master's children)."""
        assert self.process is not None
        pid = self.process.pid
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            return []
        return [int(child) for child in children]

    def stop(self) -> None:
        """Quick shutdown (SIGINT, as Ctrl-C), then kill if it lingers."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
