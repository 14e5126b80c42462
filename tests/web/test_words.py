"""Words a new player tripped on (issue 30), in every language: a game's name stands alone in
a title, each sentence starts with a capital, and lists are joined with the language's own
comma."""

from __future__ import annotations

import re

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
    ],
)
def test_the_dealer_line_starts_with_a_capital(host: Phone, language: str, said: str):
    code = host.create("basra", table_format="2", side_0="Us", side_1="Them", player="Omar")
    host.post(f"/m/{code}/dealer", {"target": 0})
    assert shown_text(speaking(host, language).get(f"/m/{code}").shown, "dealer") == said
