"""The games' words in every language the app speaks: every label and problem the rules give
(tests/unit/test_terms.py gathers them) worded in ar, ru and es with its placeholders filled, a
term as the catalog translates its English, and str() of a term or a problem as say() words it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask_babel import force_locale

from scorekeeper.games import Term
from scorekeeper.terms import say
from tests.unit.test_terms import SAID, _every_label, _refused
from tests.words import TRANSLATED, words


@pytest.fixture
def in_language(app: Flask) -> Callable[[str, object], str]:
    """say() in a language, as a request in it reads the catalogs."""

    def said(language: str, value: object) -> str:
        with app.test_request_context(), force_locale(language):
            return say(value)  # type: ignore[arg-type]

    return said


def _every_value() -> list[object]:
    """Every label the games show and every value in SAID: what a page may word."""
    return [*_every_label(), *(given() for given, _english in SAID)]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_value_is_worded_in_every_language(in_language, language: str) -> None:
    # The translations fill the same placeholders: none is left, none is missing (KeyError).
    catalog = words(language)
    for value in _every_value():
        said = in_language(language, value)
        assert "%(" not in said and (said or not value), value
        # A term without numbers reads as the catalog translates its English (Brisca's
        # jacks and the Spanish and Italian packs' jack, the terms with a context, are the
        # catalog's "the Spanish deck" ones).
        if isinstance(value, Term) and not value.args:
            english = in_language("en", value)
            context = "the Spanish deck" if value.code in {"jacks.spanish", "card.jack"} else None
            assert said == catalog(english, context), value


def test_str_and_a_page_word_a_term_as_say_does(app: Flask, in_language) -> None:
    # The app made (words.init_app gives say to the rules), str() of a term or a problem is
    # its words in the request's language, and a page's __html__ of a term too.
    refused = _refused("basra", {"cards": 10, "aces": 5})
    with app.test_request_context(), force_locale("ru"):
        assert str(Term("game.basra")) == in_language("ru", Term("game.basra")) != "Basra"
        assert str(refused) == in_language("ru", refused) != "5 aces? There can be at most 4."
        assert Term("aces").__html__() == in_language("ru", Term("aces"))
