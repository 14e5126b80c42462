"""A group's standings at size (issue 43): a group of 40 players with 10,000 ended matches (one
and two players a side, partners, rematch series, a few taken out, a rating kept), its
standings read in-process as its page reads them, timed and counted in statements.

    python -m bench.standings                 # SQLite, a file of its own
    python -m bench.standings --database postgresql+psycopg://postgres@127.0.0.1:5432/NAME

On PostgreSQL it fills a schema of its own in that database and drops it afterwards. Prints
one markdown line, the diagnostic `make bench` prints too (bench/run.py); exits 1 if the p50
misses STANDINGS_MS.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import (
    Group,
    GroupMatch,
    Match,
    RosterPlayer,
    Side,
    SidePlayer,
    SideResult,
)
from scorekeeper.scoresheet import ratings
from scorekeeper.scoresheet.groups import read_group
from scorekeeper.scoresheet.standings import read_standings
from tests.statements import counting

# Issue 43: the standings of a group with 10,000 matches and 40 players, p50, milliseconds.
STANDINGS_MS = 50.0
MATCHES, PLAYERS = 10_000, 40
TIMES = 101


def fill(matches: int = MATCHES, players: int = PLAYERS, seed: int = 43) -> str:
    """One rated group of `players` with `matches` ended ones, in bulk; its code."""
    draw = random.Random(seed)
    group = Group(code="BENCHG", name="Bench", host_phone="bench-host", rated=True)
    db.session.add(group)
    db.session.flush()
    roster = [RosterPlayer(group_id=group.id, name=f"Player {n:02d}") for n in range(players)]
    db.session.add_all(roster)
    db.session.flush()
    ids = [player.id for player in roster]
    start = datetime(2026, 1, 1)
    match_rows, side_rows, result_rows, placed, kept = [], [], [], [], []
    side_id = 0
    for n in range(matches):
        per_side = 2 if n % 3 == 0 else 1
        at_table = draw.sample(ids, 2 * per_side)
        winner = draw.randrange(2)
        # Every fourth match is a rematch of the one before it: series of two.
        rematch = f"BM{n + 1:06d}" if n % 4 == 0 and n + 1 < matches else None
        match_rows.append(
            {
                "id": n + 1,
                "code": f"BM{n:06d}",
                "game": "basra" if n % 2 else "brasta",
                "table_format": "2v2" if per_side == 2 else "2",
                "target": 101,
                "table_rules": {},
                "status": "ended",
                "host_phone": "bench-host",
                "created_at": start + timedelta(minutes=30 * n),
                "ended_at": start + timedelta(minutes=30 * n + 25),
                "version": 1,
                "closed": False,
                "rematch_code": rematch,
                "note": "",
            }
        )
        kept.append({"match_id": n + 1, "group_id": group.id, "season": 1, "counted": n % 97 != 0})
        for position in range(2):
            side_id += 1
            players_here = at_table[position * per_side : (position + 1) * per_side]
            side_rows.append(
                {"id": side_id, "match_id": n + 1, "position": position, "name": "", "players": ""}
            )
            hands = draw.randint(4, 12)
            result_rows.append(
                {
                    "side_id": side_id,
                    "match_id": n + 1,
                    "won": position == winner,
                    "hands": hands,
                    "points": hands * draw.randint(5, 15),
                    "best_hand": draw.randint(10, 40),
                    "best_hand_number": draw.randint(1, hands),
                    "lowest_wins": False,
                    "feats": {},
                }
            )
            placed += [
                {"side_id": side_id, "player_id": p, "match_id": n + 1} for p in players_here
            ]
    for model, rows in (
        (Match, match_rows),
        (Side, side_rows),
        (SideResult, result_rows),
        (GroupMatch, kept),
        (SidePlayer, placed),
    ):
        db.session.execute(sa.insert(model), rows)
    ratings.results_changed(group.id, 1, True, None)
    db.session.commit()
    return group.code


def matches_in(group_id: int) -> int:
    """The group's matches, counted."""
    return db.session.scalar(sa.select(sa.func.count()).where(GroupMatch.group_id == group_id)) or 0


def measure(times: int = TIMES) -> tuple[float, float, int, int]:
    """The standings read `times` times: p50 and fastest in ms (on a shared machine the p50
    follows its load; the fastest, the work itself), statements per read, matches counted."""
    group = read_group("BENCHG")
    assert group is not None
    for _ in range(5):  # warm: the statements built and prepared, the caches full
        read_standings(group)
    spent = []
    with counting(db.engine) as sent:
        standings = read_standings(group)
    statements = len(sent)
    for _ in range(times):
        began = time.perf_counter()
        standings = read_standings(group)
        spent.append((time.perf_counter() - began) * 1000)
    # The standings read are the filled season's: every player ranked in it.
    assert len(standings.scopes[0].lines) == PLAYERS
    return statistics.median(spent), min(spent), statements, matches_in(group.id)


def run(database: str | None) -> tuple[float, float, int, int]:
    """Fill a fresh database (a SQLite file, or a schema of `database`), measure, clean up."""
    config: dict[str, Any] = {"TESTING": True, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False}
    schema = None
    with tempfile.TemporaryDirectory() as directory:
        if database is None:
            config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{Path(directory) / 'groups.sqlite'}"
        else:
            schema = f"bench_groups_{uuid.uuid4().hex[:10]}"
            config["SQLALCHEMY_DATABASE_URI"] = database
            config["SQLALCHEMY_ENGINE_OPTIONS"] = {
                "connect_args": {"options": f"-csearch_path={schema}"}
            }
        app = create_app(config)
        with app.app_context():
            if schema is not None:
                with db.engine.begin() as connection:
                    connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
            try:
                db.create_all()
                fill()
                if schema is not None:
                    # The fill's rows settled, as a group's of years would be: no vacuum or
                    # analysis of 100,000 fresh rows running beside the reads.
                    with db.engine.connect().execution_options(
                        isolation_level="AUTOCOMMIT"
                    ) as connection:
                        connection.execute(sa.text("VACUUM ANALYZE"))
                return measure()
            finally:
                db.session.rollback()
                if schema is not None:
                    with db.engine.begin() as connection:
                        connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
                db.engine.dispose()


def line(p50: float, fastest: float, statements: int, matches: int) -> str:
    """The diagnostic's markdown line."""
    ok = "met" if p50 <= STANDINGS_MS else "MISSED"
    return (
        f"| group standings, {matches:,} matches, {PLAYERS} players (diagnostic) | "
        f"{statements} statements | p50 {p50:.1f} ms (fastest {fastest:.1f} ms) | "
        f"p50 ≤ {STANDINGS_MS:g} ms | {ok} |"
    )


def main(argv: list[str] | None = None) -> int:
    """Measure and print the line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args(argv)
    p50, fastest, statements, matches = run(args.database)
    print(line(p50, fastest, statements, matches))
    return 0 if p50 <= STANDINGS_MS else 1


if __name__ == "__main__":
    sys.exit(main())
