"""`make run`: print the address phones on the same Wi-Fi should open, then serve under gunicorn."""

from __future__ import annotations

import os
import socket
import sys


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


def main() -> None:
    """Announce the address, then hand the process over to gunicorn."""
    host = os.environ.get("HOST", "0.0.0.0")
    port = os.environ.get("PORT", "5000")
    workers = os.environ.get("WORKERS", "2")
    print(
        f"\n  Scorekeeper is up. On the phones at the table (same Wi-Fi), open:\n\n"
        f"      http://{lan_address()}:{port}/\n",
        flush=True,
    )
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    os.execv(
        gunicorn,
        [
            gunicorn,
            "--bind",
            f"{host}:{port}",
            "--workers",
            workers,
            "--threads",
            os.environ.get("THREADS", "4"),
            "--access-logfile",
            "-",
            "scorekeeper:create_app()",
        ],
    )


if __name__ == "__main__":
    main()
