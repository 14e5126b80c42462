"""Random and malformed values posted to every form: never a 500, and a refusal changes nothing."""

from __future__ import annotations

import itertools
import json
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.examples import examples
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
    actions = ["claim", "watch", "end", "reopen", "abandon", "release", "host", "settle"]
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
    max_examples=examples(150),
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
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
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


# Whatever JSON may hold, nested: what a script posts where a form is expected.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
EVERY_FIELD = sorted({name for names in FIELDS.values() for name in names})
# Types a browser's form is never sent as (edges.FORM_TYPES are the two it is).
NOT_FORM_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "application/vnd.api+json",
    "text/json",
    "text/plain",
    "text/html",
    "application/xml",
    "application/octet-stream",
    "multipart/mixed; boundary=x",
    "application/x-www-form-urlencodedx",
    "",
]
# Headers a browser does not send this app, or not like this.
ODD_HEADERS = st.dictionaries(
    st.sampled_from(
        [
            "X-HTTP-Method-Override",
            "Content-Encoding",
            "X-Forwarded-Host",
            "X-Forwarded-For",
            "X-Forwarded-Proto",
            "Origin",
            "Accept-Language",
            "Range",
            "Expect",
        ]
    ),
    st.sampled_from(
        ["DELETE", "gzip", "a..b", "1.2.3.4, ::1", "https", "null", "*", "100-continue"]
    )
    | st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
    max_size=3,
)
# The values each part of a POST route's address takes (a hand played and one open, both
# sides, every tap, every kind of new match).
ADDRESS_VALUES: dict[str, list[object]] = {
    "number": [1, 2, 3],
    "position": [0, 1, 5],
    "tap": ["end", "reopen", "rematch", "close", "open"],
    "game_key": ["basra", "other", "brisca", "escoba", "scopa", "tarneeb"],
    # A group's host's taps and its roster's forms (its address takes a match's code: 404).
    "deed": ["remove", "host", "close", "open", "season", "rating", "unrated", "out", "back"],
    "how": ["add", "rename"],
}


def post_routes(app, code: str) -> list[str]:
    """Every address the app takes a post at, for this match: read from its routes, so a route
    added later is fuzzed too."""
    urls = app.url_map.bind("localhost")
    routes = []
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()):
            continue
        choices = [ADDRESS_VALUES.get(name, [code]) for name in sorted(rule.arguments)]
        for values in itertools.product(*choices):
            routes.append(
                urls.build(rule.endpoint, dict(zip(sorted(rule.arguments), values, strict=True)))
            )
    return sorted(set(routes))


@pytest.fixture
def played(app, host, guest):
    """A Basra match with one hand played, a cell corrected and the next hand half entered."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 40)
    guest.enter(code, 1, 1, 10)
    host.correct(code, 1, 1, 12, revision=1)
    host.enter(code, 2, 0, 30)
    return code


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_bodies_of_every_kind_are_refused_unread(app, played, host, data):
    # The red-team's posts in the suite's words: to every POST route of a played match, JSON
    # with nested values, other types, a field past the limit, a broken multipart, each with
    # odd headers. Never a server error, never a change; a body that is no form is refused
    # before anything reads it (415), whatever its token.
    url = data.draw(st.sampled_from(post_routes(app, played)), label="route")
    kind = data.draw(st.sampled_from(["json", "not a form", "past the limit", "bad multipart"]))
    token = host.token()
    headers = data.draw(ODD_HEADERS, label="headers")
    fields = {
        name: data.draw(junk, label=name)
        for name in data.draw(st.lists(st.sampled_from(EVERY_FIELD), max_size=6), label="fields")
    }
    if kind == "json":
        values = data.draw(st.dictionaries(st.sampled_from(EVERY_FIELD), json_values), label="json")
        body = json.dumps({"csrf_token": token, **values}).encode()
        content_type = data.draw(st.sampled_from(NOT_FORM_TYPES[:4]), label="type")
        headers["X-CSRFToken"] = token
    elif kind == "not a form":
        body = urllib.parse.urlencode({"csrf_token": token, **fields}).encode()
        content_type = data.draw(st.sampled_from(NOT_FORM_TYPES), label="type")
        headers["X-CSRFToken"] = token
    elif kind == "past the limit":
        size = data.draw(st.integers(32 * 1024, 200 * 1024), label="size")
        body = urllib.parse.urlencode({"csrf_token": token, **fields, "pad": "9" * size}).encode()
        content_type = "application/x-www-form-urlencoded"
    else:
        body = b'--nope\r\nContent-Disposition: form-data; name="points"\r\n\r\n5\r\n--nope--'
        content_type = data.draw(
            st.sampled_from(["multipart/form-data", "multipart/form-data; boundary=other"])
        )
    before = snapshot(app)
    response = host.client.post(url, data=body, content_type=content_type, headers=headers)
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    assert response.status_code in (400, 413, 415), response.status_code
    if kind in ("json", "not a form"):
        assert response.status_code == 415
    assert snapshot(app) == before
