"""The app's words in a language, as its compiled catalog has them: tests assert that a page
shows the catalog's translation, so a catalog edit does not break them (tests/unit/
test_catalogs.py sees that every word is translated)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from babel.support import Translations

TRANSLATIONS = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"
# Every language the app speaks besides English (its source language).
TRANSLATED = ("ar", "ru", "es", "it")


@cache
def _catalog(language: str) -> Translations:
    found = Translations.load(str(TRANSLATIONS), [language])
    assert isinstance(found, Translations), f"no compiled catalog for {language}: run make"
    return found


def words(language: str) -> Callable[..., str]:
    """gettext in `language`, filled as the app fills it: words("ar")("Join") ->"انضم"."""
    catalog = _catalog(language) if language != "en" else None

    def say(message: str, context: str | None = None, **fill: Any) -> str:
        if catalog is None:
            said = message
        else:
            said = str(catalog.pgettext(context, message) if context else catalog.gettext(message))
        return said % fill if fill else said

    return say


def plural(language: str, singular: str, plural_: str, count: int, **fill: Any) -> str:
    """ngettext in `language` for `count`, filled as the app fills it (num is the count)."""
    if language == "en":
        said = singular if count == 1 else plural_
    else:
        said = _catalog(language).ngettext(singular, plural_, count)
    return said % {"num": count, **fill}
