"""Creating matches is limited per phone and per address (scorekeeper/new_matches.py): a script
making them by the dozen is refused in the phone's language, with what it typed kept and how
long to wait, while a host at a café creating a match a minute all evening never meets it."""

from __future__ import annotations

import types
from collections.abc import Iterator

import limits.storage.memory
import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import new_matches
from scorekeeper.extensions import db
from scorekeeper.models import Match
from tests.groups import add_players, roster_ids, start_group
from tests.phones import Phone

STRANGER = "198.51.100.23"


class Clock:
    """The time the counts see, moved on by the test."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        """Now, as time.time() says it."""
        return self.now


@pytest.fixture
def limited(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """The limits on, as in production, counted in memory on a clock the test moves."""
    clock = Clock(1_900_000_000.0)
    fake = types.SimpleNamespace(time=clock.time, monotonic=clock.time)
    monkeypatch.setattr(limits.storage.memory, "time", fake)
    monkeypatch.setattr(new_matches, "time", fake)
    monkeypatch.setitem(app.config, "RATELIMIT_ENABLED", True)
    new_matches.init_app(app)
    yield clock
    new_matches.init_app(app)


def made(app: Flask) -> int:
    """How many matches the database holds."""
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Match)) or 0


def new_match(phone: Phone, address: str = "127.0.0.1", language: str = "en"):
    """The phone posts the New match form for a head-to-head Basra, from this address."""
    phone.client.environ_base["REMOTE_ADDR"] = address
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return phone.post(
        "/new/basra",
        {"table_format": "2", "target": "101", "host_side": "0", "side_0": "Ana", "side_1": "Omar"},
        follow=False,
    )


def test_a_host_creating_a_match_a_minute_all_evening_never_meets_the_limit(app, limited):
    host = Phone(app)
    # Six hours at a café, a match a minute, each created a few seconds into its minute.
    for minute in range(6 * 60):
        limited.now = 1_900_000_000.0 + 60 * minute + 7
        assert new_match(host).status_code == 302, minute


def test_a_script_making_matches_from_one_address_is_refused_in_the_phone_s_language(app, limited):
    before = made(app)
    # Each with a phone of its own (no cookie kept), as a script's requests come.
    answers = [new_match(Phone(app), STRANGER).status_code for _ in range(40)]
    # Per address: 30 a minute.
    assert answers == [302] * 30 + [429] * 10
    assert made(app) == before + 30
    refused = new_match(Phone(app), STRANGER, "es")
    assert refused.status_code == 429
    # Until the minute is over.
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "Espera 1 minuto" in refused.shown
    # What was typed is kept on the form shown again.
    assert 'value="Ana"' in refused.get_data(as_text=True)
    # Another address is counted apart; and a minute on, this one may again.
    assert new_match(Phone(app), "198.51.100.24").status_code == 302
    limited.now += 61
    assert new_match(Phone(app), STRANGER).status_code == 302


def test_one_phone_is_limited_before_its_address(app, limited):
    phone = Phone(app)
    answers = [new_match(phone, STRANGER).status_code for _ in range(12)]
    # Per phone: 10 a minute; the café's other phones at the same address go on.
    assert answers == [302] * 10 + [429] * 2
    assert new_match(Phone(app), STRANGER).status_code == 302
    refused = new_match(phone, STRANGER, "ar")
    assert refused.status_code == 429
    assert "انتظر دقيقة واحدة" in refused.shown
    # The hour's limit: 120, reached after 12 minutes of 10.
    for _ in range(11):
        limited.now += 60
        assert [new_match(phone, STRANGER).status_code for _ in range(10)] == [302] * 10
    limited.now += 60
    assert new_match(phone, STRANGER).status_code == 429
    assert "минут" in new_match(phone, STRANGER, "ru").shown


def test_a_group_s_new_match_counts_against_the_same_limits(app, limited):
    """The group's New match is limited as Home's is, counted together: the phone's tenth
    match in a minute, from Home or from its group, is its last; the next is refused in the
    phone's language, what was chosen kept."""
    phone = Phone(app)
    phone.client.environ_base["REMOTE_ADDR"] = STRANGER
    code = start_group(phone, "Fridays")
    add_players(phone, code, "Ana", "Omar")
    ids = roster_ids(phone, code)
    seats = {"seat_0_0": str(ids["Ana"]), "seat_1_0": str(ids["Omar"])}
    for _ in range(5):
        assert new_match(phone, STRANGER).status_code == 302
    url = f"/g/{code}/new/basra"
    made_before = made(app)
    answers = [
        phone.post(url, {"target": "101", **seats}, follow=False).status_code for _ in range(6)
    ]
    assert answers == [302] * 5 + [429]
    assert made(app) == made_before + 5
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    refused = phone.post(url, {"target": "101", **seats}, follow=False)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "Espera 1 minuto" in refused.shown
    # The group's New match shown again, the players chosen kept.
    assert "En Fridays" in refused.shown
    assert f'<option selected value="{ids["Omar"]}">' in refused.get_data(as_text=True)
    limited.now += 61
    assert phone.post(url, {"target": "101", **seats}, follow=False).status_code == 302
