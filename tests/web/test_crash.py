"""kill -9 of the app in the middle of a burst of entries: nothing acknowledged is lost."""

from __future__ import annotations

import http.client
import re
import threading

import sqlalchemy as sa

from tests.servers import HttpPhone, gunicorn, kill_hard
from tests.waiting import wait_until

TABLES = 4
# Entries acknowledged before the kill: enough that losing any would show.
BURST = 20


def test_acknowledged_entries_survive_a_kill_9(migrated_database):
    acknowledged: list[tuple[str, int, int, int]] = []
    lock = threading.Lock()
    stop = threading.Event()

    with gunicorn(migrated_database, workers=2) as (url, server):
        tables = []
        for _ in range(TABLES):
            host, guest = HttpPhone(url), HttpPhone(url)
            status, page = host.post(
                "/new/other",
                {
                    "table_format": "free",
                    "target": "100000",
                    "host_side": "0",
                    "side_0": "Home",
                    "side_1": "Away",
                },
            )
            assert status == 200
            code = re.search(r"/m/([A-Z2-9]{6})/live", page).group(1)
            assert guest.post(f"/m/{code}/claim", {"target": 1})[0] == 200
            tables.append((code, host, guest))

        def play(code: str, host: HttpPhone, guest: HttpPhone) -> None:
            """Enter hand after hand until the server dies; note every entry it confirmed."""
            hand = 1
            while not stop.is_set():
                for side, phone in ((0, host), (1, guest)):
                    points = hand * 10 + side
                    try:
                        status, page = phone.post(
                            f"/m/{code}/enter", {"hand": hand, "side": side, "points": points}
                        )
                    except (OSError, http.client.HTTPException):
                        # The server is gone, before or while answering (a page cut off
                        # halfway): this entry was never acknowledged.
                        return
                    if status != 200 or "recorded" not in page:
                        return
                    with lock:
                        acknowledged.append((code, hand, side, points))
                hand += 1

        players = [threading.Thread(target=play, args=table) for table in tables]
        for player in players:
            player.start()
        # Killed in the middle of the burst: once it has acknowledged enough to prove something,
        # while every table is still entering.
        assert wait_until(lambda: len(acknowledged) >= BURST, 30), "the burst never got going"
        assert all(player.is_alive() for player in players), "a table stopped before the kill"
        kill_hard(server)
        stop.set()
        for player in players:
            player.join(timeout=30)

    assert len(acknowledged) >= BURST, "the burst was too short to prove anything"
    engine = sa.create_engine(migrated_database)
    try:
        with engine.connect() as conn:
            stored = set(
                conn.execute(
                    sa.text(
                        "SELECT m.code, h.number, s.position, e.points FROM entry e "
                        "JOIN hand h ON h.id = e.hand_id JOIN side s ON s.id = e.side_id "
                        "JOIN match m ON m.id = h.match_id"
                    )
                ).all()
            )
    finally:
        engine.dispose()
    missing = [row for row in acknowledged if tuple(row) not in stored]
    assert missing == []
    # And the server comes back on the same database with every one of them.
    with gunicorn(migrated_database) as (url, _):
        code, host, _guest = tables[0]
        revived = HttpPhone(url)
        status, page = revived.get(f"/m/{code}")[:2]
        assert status == 200
        last = max(hand for c, hand, _s, _p in acknowledged if c == code)
        assert f">{last}<" in page.replace(" ", "").replace("\n", "")
