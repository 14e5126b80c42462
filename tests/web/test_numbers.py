"""Numbers below zero as each language writes them (issue 30): in Arabic, read right to left,
a negative cell read "15-" and the record's score "25--225"."""

from __future__ import annotations

import re

import pytest
from babel.numbers import format_decimal
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


# One number, one way of writing it, on every page (issue 42, point 7): the sheet showed
# -1187 and History -1,187, the trail -1,200 beside a cell of -1200, Russian -2693 beside
# -2 693, and Brasta's calculator both "−" and "-".


def written(value: int, language: str) -> str:
    """An oracle of how `language` writes a whole number: Babel's digits for it, after the one
    minus sign (the hyphen-minus), set apart left to right in Arabic."""
    digits = format_decimal(abs(value), locale=language)
    if value >= 0:
        return digits
    return ISOLATED.format(f"-{digits}") if language == "ar" else f"-{digits}"


def unwritten(value: int) -> re.Pattern[str]:
    """The number in any other way than a language writes it: its digits ungrouped, alone."""
    return re.compile(rf"(?<![\w,.\xa0\u202f]){value}(?![\w,.\xa0\u202f])")


@pytest.mark.parametrize("language", ["en", "es", "ru", "ar"])
def test_one_number_is_written_one_way_on_every_page(app, host, guest, language):
    """A match ended at 1507 to -1187 after a correction from -1250 to -1200: the sheet (its
    cells, running totals, totals, chart and print), the TV, the trail, History and the record
    write each number as the language does, and never another way; Brasta's calculator says
    its costs with the same minus sign, no "−" anywhere."""
    code = host.create("other", target="1500", side_0="Ana", side_1="Ben")
    guest.join(code, 1)
    host.enter(code, 1, 0, -1250)
    guest.enter(code, 1, 1, 1450)
    assert host.correct(code, 1, 0, -1200).status_code == 200
    host.enter(code, 2, 0, 13)
    guest.enter(code, 2, 1, 57)
    assert host.post(f"/m/{code}/end").status_code == 200
    brasta = host.create("brasta", side_0="Ana", side_1="Ben")
    for phone in (host, guest):
        phone.post("/language", {"lang": language, "next": "/"})

    pages = {
        "sheet": host.get(f"/m/{code}").shown,
        "tv": host.get(f"/m/{code}/tv").shown,
        "history": host.get("/history").shown,
        # The winner's: its biggest win, 1507 to -1187.
        "record": guest.get("/history/record").shown,
        "calculator": host.get(f"/m/{brasta}/calc").shown,
    }
    sheet = pages["sheet"]
    # The cells, the running totals under them, the totals, the trail and the chart's labels.
    for value in (-1200, 1450, 1507, -1187, -1250, 1500):
        assert written(value, language) in sheet, (value, written(value, language))
    assert f'data-run="{written(-1187, language)}"' in sheet
    for value in (1507, -1187):
        assert written(value, language) in pages["tv"], value
        assert written(value, language) in pages["history"], value
    assert f"{written(1507, language)}–{written(-1187, language)}" in pages["record"]
    assert written(-10, language) in pages["calculator"]
    for name, page in pages.items():
        # What a person reads: the words between the tags, and those drawn from attributes
        # (a running total, a tooltip, a screen reader's label); not the chart's coordinates.
        read = re.sub(r"<[^>]*>", " ", page) + " ".join(
            re.findall(r'(?:data-run|title|aria-label)="([^"]*)"', page)
        )
        for value in (1507, 1500, 1450, 1200, 1187, 1250):
            assert not unwritten(value).search(read), (name, value)
        assert "\u2212" not in read, name
