"""Instructions a request takes, counted by callgrind: the same count run after run, whatever
else the machine is doing, where CPU time on a shared machine moves by a fifth between runs.

    .venv/bin/python -m bench.instructions fill        # once: the bench's data, in a SQLite file
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \\
        --callgrind-out-file=/tmp/sheet200.out .venv/bin/python -m bench.instructions sheet200
    callgrind_annotate /tmp/sheet200.out | grep "PROGRAM TOTALS"

The total over the requests sent (5 unless --requests says) is the count. They run inside
functools.reduce, which callgrind names functools_reduce, so it counts them and not the
start-up or the warm-up. The warm-up checks that a request never calls reduce itself (inside
it the count would stop); a Python without its symbols (stripped) counts nothing, and
PROGRAM TOTALS then says 0. The data is the bench's (bench/fill.py), filled once without valgrind
(it would take ten times as long under it) and kept, so two versions of the code are counted
against the same rows: run each from its own checkout, one after the other or both at once.
Counts follow the Python build and the libraries: compare two runs on one machine, never a
count with a figure from elsewhere.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from bench import database, fill
from bench.phones import signed_phone
from bench.profile import made, send

KINDS = {
    "sheet": "the sheet page, 30 hands × 4 sides, cold",
    "live": "the live part of that sheet (200)",
    "sheet10": "the sheet page, 10 hands",
    "sheet200": "the sheet page, 200 hands",
}


def reduces(work: Callable[[], None]) -> int:
    """How many times `work` calls functools.reduce."""
    calls = 0

    def seen(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "c_call" and arg is functools.reduce:
            calls += 1

    sys.setprofile(seen)
    try:
        work()
    finally:
        sys.setprofile(None)
    return calls


def main(argv: list[str] | None = None) -> int:
    """Fill (once), warm up, then send the requests inside functools.reduce."""
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__)
    parser.add_argument("kind", choices=["fill", *KINDS], help="fill the data, or which request")
    parser.add_argument("--requests", type=int, default=5, help="requests counted (5)")
    parser.add_argument(
        "--database",
        type=Path,
        default=Path("/tmp/scorekeeper-instructions.sqlite"),
        help="the SQLite file `fill` fills (/tmp/scorekeeper-instructions.sqlite)",
    )
    args = parser.parse_args(argv)
    codes = args.database.with_suffix(".json")
    url = f"sqlite:///{args.database}"
    # A fixed key: the phone's cookie is signed alike in every run.
    os.environ.update({"DATABASE_URL": url, "SCOREKEEPER_SECRET_KEY": "instructions" * 4})
    if args.kind == "fill":
        args.database.unlink(missing_ok=True)
        database.migrate(url)
    elif not codes.exists():
        raise SystemExit("no data yet: python -m bench.instructions fill")
    from scorekeeper import create_app, live

    app = create_app()
    if args.kind == "fill":
        fixture = fill.fill(app, 2)
        codes.write_text(
            json.dumps(
                {"sheet": fixture.sheets[-1], "sheet10": fixture.small, "sheet200": fixture.large}
            )
        )
        live.stop(app)
        print(f"filled {args.database}")
        return 0
    code = json.loads(codes.read_text())
    path = {
        "sheet": f"/m/{code['sheet']}",
        "live": f"/m/{code['sheet']}/live",
        "sheet10": f"/m/{code['sheet10']}",
        "sheet200": f"/m/{code['sheet200']}",
    }[args.kind]
    phone = signed_phone(app, fill.MAIN_PHONE)
    requests = [made(app, path, phone, 200) for _ in range(args.requests + 5)]
    try:
        for request in requests[:4]:
            send(app, request)
        if reduces(lambda: send(app, requests[4])):
            raise SystemExit("a request calls functools.reduce: callgrind would count short")
        functools.reduce(lambda _, request: send(app, request), requests[5:], None)
    finally:
        live.stop(app)
    print(f"{args.requests} × {KINDS[args.kind]} ({path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
