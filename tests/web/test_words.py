"""Words a new player tripped on (issue 30), in every language: a game's name stands alone in
a title, each sentence starts with a capital, and lists are joined with the language's own
comma."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.phones import Phone
from tests.web.test_languages import speaking


def heading(page: str) -> str:
    """The page's first heading, as a phone shows it."""
    found = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert found, "no heading"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


@pytest.mark.parametrize(
    ("language", "game", "said"),
    [
        ("en", "other", "New match: Other game"),
        ("en", "basra", "New match: Basra"),
        ("es", "other", "Nueva partida: Otro juego"),
        ("ru", "other", "Новая партия: Другая игра"),
        ("ar", "other", "مباراة جديدة: لعبة أخرى"),
        ("it", "other", "Nuova partita: Altro gioco"),
    ],
)
def test_the_new_match_title_names_the_game_on_its_own(
    host: Phone, language: str, game: str, said: str
):
    page = speaking(host, language).get(f"/new/{game}").shown
    assert heading(page) == said
    assert f"<title>{said}" in page


def test_the_join_page_names_the_game_on_its_own(host: Phone):
    code = host.create("other", target="100", side_0="Omar", side_1="Ben")
    assert heading(host.get(f"/m/{code}/qr").shown) == "Join the match: Other game"


def shown_text(page: str, css_class: str) -> str:
    """The words of the page's first paragraph of this class, tags taken out."""
    found = re.search(rf'<p class="{css_class}">(.*?)</p>', page, re.S)
    assert found, f"no {css_class} line"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Omar (Us) deals hand 1."),
        ("es", "Reparte Omar (Us): mano 1."),
        ("ru", "Сдаёт Omar (Us): раздача 1."),
        ("it", "Mazziere della mano 1: Omar (Us)."),
    ],
)
def test_the_dealer_line_starts_with_a_capital(host: Phone, language: str, said: str):
    code = host.create("basra", table_format="2", side_0="Us", side_1="Them", player="Omar")
    host.post(f"/m/{code}/dealer", {"target": 0})
    assert shown_text(speaking(host, language).get(f"/m/{code}").shown, "dealer") == said


# The Arabic comma, with its space: what the catalog's "list separator" says in Arabic.
ARABIC_COMMA = "، "


def line_with(page: str, words: str) -> str:
    """The paragraph of the page that holds these words, tags taken out."""
    for paragraph in re.findall(r"<p(?:\s[^>]*)?>(.*?)</p>", page, re.S):
        text = re.sub(r"<[^>]+>", "", paragraph)
        if words in text:
            return " ".join(text.split())
    raise AssertionError(f"no line with {words!r}")


def test_an_arabic_page_joins_its_lists_with_the_arabic_comma(phones):
    host, ben, cleo = phones(), phones(), phones()
    code = host.create("other", target="100", side_0="Ana", side_1="Ben", side_2="Cleo")
    ben.post(f"/m/{code}/claim", {"target": 1, "player": "Bob"})
    cleo.post(f"/m/{code}/claim", {"target": 2, "player": "Cy"})
    page = speaking(host, "ar").get(f"/m/{code}").shown
    waiting = line_with(page, "Cleo (Cy)")
    assert f"Ana{ARABIC_COMMA}Ben (Bob){ARABIC_COMMA}Cleo (Cy)" in waiting, waiting
    players = shown_text(page, "sheet-players")
    assert f"Bob (Ben){ARABIC_COMMA}Cy (Cleo)" in players, players


def test_a_refusal_names_the_other_sides_with_the_arabic_comma(phones):
    ana, bea, cloe = phones(), phones(), phones()
    code = ana.create(
        "brisca", table_format="3", target="3", side_0="Ana", side_1="Bea", side_2="Cloe"
    )
    bea.join(code, side=1)
    cloe.join(code, side=2)
    ana.enter(code, 1, 0, 50)
    bea.enter(code, 1, 1, 50)
    refused = speaking(cloe, "ar").enter(code, 1, 2, 40)
    assert refused.status_code == 409
    assert f"Ana 50{ARABIC_COMMA}Bea 50" in refused.shown


ROOT = Path(__file__).resolve().parents[2]
# A list joined in code rather than with the language's own separator (listed(), or the
# "list separator" word in a template); the Vary header's list is for machines.
HARD_CODED_COMMA = re.compile(r"""["'], ["']\.join|join\(["'], ["']\)|["'], ["'] if not loop""")


def test_no_list_a_person_reads_is_joined_with_a_hard_coded_comma():
    sources = [
        *ROOT.joinpath("scorekeeper").rglob("*.py"),
        *ROOT.joinpath("templates").rglob("*.html"),
    ]
    joined = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if HARD_CODED_COMMA.search(line) and "VARY" not in line
    ]
    assert not joined, joined
