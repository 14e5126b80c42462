"""`make run` and `make serve`: gunicorn serving the app, and the address the phones on the same
Wi-Fi should open, printed once the server answers there (and nothing per request unless asked:
a table's fetches would scroll the address away)."""

from __future__ import annotations

import errno
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from types import FrameType

# How long the workers may take to start (migrations ran before): then it is a failure to report.
STARTUP_SECONDS = 60
# gunicorn's settings for the app (gevent workers, streams ended on shutdown): read by path.
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gunicorn.conf.py")


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent to find it)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def port_taken(host: str, port: int) -> bool:
    """Whether another program listens on this port already (gunicorn would retry, then fail
    with a traceback a host at a table can't read)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            return error.errno == errno.EADDRINUSE
    return False


def answers(host: str, port: int) -> bool:
    """Whether the app answers a request on this address now."""
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/", timeout=2) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def gunicorn_command(host: str, port: int) -> list[str]:
    """The gunicorn command line, from the environment (docs/operations.md, "Every setting")."""
    command = [
        os.path.join(os.path.dirname(sys.executable), "gunicorn"),
        "--config",
        CONFIG,
        "--bind",
        f"{host}:{port}",
        "--workers",
        os.environ.get("WORKERS", "2"),
    ]
    if os.environ.get("ACCESS_LOG", "").lower() in ("1", "true", "yes", "on"):
        command += ["--access-logfile", "-"]
    return [*command, "scorekeeper:create_app()"]


def allow_open_streams() -> None:
    """Let the workers hold as many connections as the system allows: each phone's stream is
    one, and the usual limit of 1,024 open files would refuse phones long before a worker is
    busy."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = 65536 if hard == resource.RLIM_INFINITY else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))


def main() -> int:
    """Serve until stopped; say where once it answers, or plainly why it can't."""
    allow_open_streams()
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "5000"))
    if port_taken(host, port):
        print(
            f"\n  Port {port} is taken: another Scorekeeper, or another program, is using it.\n"
            f"  Stop that one, or choose another port:  PORT={port + 1} make run\n",
            file=sys.stderr,
            flush=True,
        )
        return 1
    server = subprocess.Popen(gunicorn_command(host, port))

    def stop(signum: int, frame: FrameType | None) -> None:
        server.send_signal(signum)

    # Ctrl-C reaches gunicorn from the terminal too; a service manager's TERM only reaches us.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    deadline = time.monotonic() + STARTUP_SECONDS
    local = "127.0.0.1" if host in ("0.0.0.0", "") else host
    while not answers(local, port):
        if server.poll() is not None:
            print("\n  Scorekeeper did not start (see above).\n", file=sys.stderr, flush=True)
            return server.returncode or 1
        if time.monotonic() > deadline:
            print(
                f"\n  Scorekeeper did not answer within {STARTUP_SECONDS} s (see above).\n",
                file=sys.stderr,
                flush=True,
            )
            server.terminate()
            return server.wait() or 1
        time.sleep(0.2)
    address = lan_address() if host in ("0.0.0.0", "") else host
    print(
        f"\n  Scorekeeper is up. On the phones at the table (same Wi-Fi), open:\n\n"
        f"      http://{address}:{port}/\n\n"
        f"  Ctrl-C stops it. Every request is logged with ACCESS_LOG=1.\n",
        flush=True,
    )
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
