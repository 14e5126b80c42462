"""Numbers below zero as each language writes them (issue 30): in Arabic, read right to left,
a negative cell read "15-" and the record's score "25--225"."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.languages import number, tenths

# Unicode's left-to-right isolate and its end: the number inside reads left to right, its sign
# at its digits' left, and the words around it keep their own order.
ISOLATED = "\u2066{}\u2069"


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "-1,234"),
        ("es", "-1.234"),
        ("it", "-1.234"),
        ("ru", "-1\xa0234"),
        ("ar", ISOLATED.format("-1,234")),
    ],
)
def test_a_number_below_zero_keeps_its_sign_at_its_digits(app: Flask, language, shown):
    """-1234 as each language writes it; in Arabic set apart left to right."""
    with app.test_request_context(headers={"Accept-Language": language}):
        assert number(-1234) == shown
        assert number(1234) == shown.strip("\u2066\u2069").lstrip("-")


def test_tenths_below_zero_in_arabic(app: Flask):
    """An average below zero ("-225.0" on the record) is set apart as a whole number is."""
    with app.test_request_context(headers={"Accept-Language": "ar"}):
        assert tenths(-225) == ISOLATED.format("-225.0")
        assert tenths(23.5) == "23.5"


def test_the_record_s_score_below_zero_reads_its_way_round_in_arabic(app, host, guest):
    """The biggest win, 25 to -225, on the record: each total written as Arabic writes it
    ("25–-225" read "25--225", the minus beside the dash)."""
    code = host.create("other", target="20", side_0="Cats", side_1="Dogs")
    guest.join(code, 1)
    host.enter(code, 1, 0, 25)
    guest.enter(code, 1, 1, -225)
    host.post(f"/m/{code}/end")
    host.post("/language", {"lang": "ar", "next": "/history/record"})
    page = host.get("/history/record").shown
    assert f"25–{ISOLATED.format('-225')} " in page
