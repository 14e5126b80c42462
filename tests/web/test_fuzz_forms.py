"""Random and malformed values posted to every form: never a 500, and a refusal changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.phones import Phone, snapshot

# What a tired thumb, a broken keyboard or a hostile script might send.
junk = st.one_of(
    st.text(max_size=40),
    st.integers().map(str),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(
        [
            "",
            " ",
            "-",
            "−3",
            "1e9",
            "NaN",
            "inf",
            "0x10",
            " 5 ",
            "٣",
            "\x00",
            "y",
            "on",
            "<b>",
            "9" * 40,
            "2v2",
            "free",
            "stack",
            "lapse",
            "-1",
            "0",
            "7",
            "120",
            "121",
            "101",
        ]
    ),
)

FIELDS = {
    "new": [
        "table_format",
        "target",
        "host_side",
        "side_0",
        "side_1",
        "side_2",
        "players_0",
        "rule_carry_over",
        "rule_three_tie",
        "rule_double_basra",
        "rule_basra_value",
    ],
    "enter": ["hand", "side", "points", "even_split", "black_hand", "key"],
    "correct": ["hand", "side", "points", "revision", "reason", "even_split", "last_trick", "key"],
    "calc": [
        "hand",
        "intent",
        "n_cards",
        "n_aces",
        "n_jacks",
        "n_two_clubs",
        "n_ten_diamonds",
        "n_basras",
        "revision",
        "key",
    ],
    "hand": [
        "points_0",
        "points_1",
        "revision_0",
        "revision_1",
        "even_split_0",
        "even_split_1",
        "key",
    ],
    "action": ["target", "key"],
    "join": ["code"],
}


def forms_of(code: str) -> list[tuple[str, str]]:
    """Every form of a Basra match, by the fields it takes and where it posts."""
    actions = ["claim", "watch", "end", "reopen", "abandon", "release", "host", "last-trick"]
    actions += ["close", "open"]
    return [
        ("new", "/new/basra"),
        ("new", "/new/other"),
        ("join", "/join"),
        ("enter", f"/m/{code}/enter"),
        ("correct", f"/m/{code}/hand/1/side/1/correct"),
        ("calc", f"/m/{code}/calc"),
        ("calc", f"/m/{code}/hand/1/side/0/calc"),
        ("hand", f"/m/{code}/hand/1/enter"),
        ("hand", f"/m/{code}/hand/2/enter"),
        *[("action", f"/m/{code}/{name}") for name in actions],
    ]


@pytest.fixture
def table(app, host, guest):
    """A Basra match with a hand half entered, so every form has something to act on."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 40)
    return code


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_values_never_break_a_form(app, table, host, data):
    kind, url = data.draw(st.sampled_from(forms_of(table)), label="form")
    values = {
        name: data.draw(junk, label=name)
        for name in FIELDS[kind]
        if data.draw(st.booleans(), label=f"send {name}")
    }
    before = snapshot(app)
    response = host.client.post(url, data={"csrf_token": host.token(), **values})
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if response.status_code >= 400:
        assert snapshot(app) == before


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(code=st.text(max_size=30), hand=st.integers(), side=st.integers())
def test_random_addresses_are_pages_not_errors(app, table, phones, code, hand, side):
    stranger: Phone = phones()
    for url in (
        f"/m/{code}",
        f"/j/{code}",
        f"/m/{table}/hand/{hand}/side/{side}",
        f"/m/{table}/hand/{hand}/side/{side}/correct",
        f"/m/{code}/live",
    ):
        assert stranger.get(url).status_code < 500
