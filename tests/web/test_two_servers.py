"""Two app servers (separate gunicorn processes, two ports) over one database: live across both."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.servers import HttpPhone, gunicorn, migrate, shared_database

__all__ = ["shared_database"]

BASRA_FORM = {
    "table_format": "2",
    "target": "101",
    "host_side": "0",
    "side_0": "Alice",
    "side_1": "Ben",
    "rule_carry_over": "stack",
    "rule_double_basra": "off",
    "rule_basra_value": "flat",
    "rule_seven_diamonds": "standard",
}


@pytest.fixture
def two_servers(shared_database) -> Iterator[tuple[str, str]]:
    """Two gunicorns, two ports, one database: as two servers behind a balancer would run."""
    migrate(shared_database)
    with gunicorn(shared_database) as (first, _), gunicorn(shared_database) as (second, _):
        yield first, second


def test_an_entry_through_one_server_appears_live_through_the_other(two_servers):
    first, second = two_servers
    host, guest = HttpPhone(first), HttpPhone(second)
    status, page = host.post("/new/basra", BASRA_FORM)
    assert status == 200
    code = re.search(r"/m/([A-Z2-9]{6})/live", page).group(1)
    status, _ = guest.post(f"/m/{code}/claim", {"target": 1})
    assert status == 200

    status, _, headers = guest.get(f"/m/{code}/live")
    assert status == 200
    etag = headers["ETag"]
    status, _, _ = guest.get(f"/m/{code}/live", {"If-None-Match": etag})
    assert status == 304

    status, _ = host.post(f"/m/{code}/enter", {"hand": 1, "side": 0, "points": 48})
    assert status == 200
    status, live, _ = guest.get(f"/m/{code}/live", {"If-None-Match": etag})
    assert status == 200
    assert "waiting for" in live and ">48<" in live.replace("\n", "").replace(" ", "")
