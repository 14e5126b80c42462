"""No word is left out: what the code and templates mark for translation is in every catalog,
translated (every plural form), not fuzzy, with the same placeholders, and compiled as it is."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tests.words import TRANSLATED, TRANSLATIONS

ROOT = TRANSLATIONS.parent.parent
# The keywords `make messages` gives pybabel besides its defaults (the Makefile's extract line).
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "lazy_ngettext": (1, 2), "lazy_pgettext": ((1, "c"), 2)}
# The plural forms each language has (CLDR; Spanish and Italian have one for round millions:
# "1.000.000 di punti").
PLURAL_FORMS = {"ar": 6, "ru": 3, "es": 3, "it": 3}


def texts(string: str | Sequence[str]) -> tuple[str, ...]:
    """A message's translation as a tuple of texts: one, or a plural's every form."""
    return (string,) if isinstance(string, str) else tuple(string)


def marked() -> dict[tuple[str, str | None], object]:
    """Every message the code and templates mark, keyed by its id and context."""
    with open(ROOT / "babel.cfg") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[tuple[str, str | None], object] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        found[(msgid, context)] = message
    return found


def test_the_code_marks_words_for_translation() -> None:
    """The extraction finds the app's words (a broken babel.cfg finds none, and every check
    below would pass on nothing)."""
    found = marked()
    assert len(found) > 300
    assert ("Create match", None) in found
    assert ("Scorekeeper", None) in found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_word_is_translated(language: str) -> None:
    path = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as f:
        catalog = read_po(f, locale=language)
    assert catalog.num_plurals == PLURAL_FORMS[language], catalog.plural_forms

    missing = [key for key in marked() if catalog.get(*key) is None]
    assert not missing, f"{language}: not in the catalog (run make messages): {missing}"

    untranslated: list[object] = []
    fuzzy: list[object] = []
    for message in catalog:
        if not message.id:
            continue  # the header
        strings = texts(message.string)
        if isinstance(message.id, tuple) and len(strings) != catalog.num_plurals:
            untranslated.append(message.id)
        elif not all(s.strip() for s in strings):
            untranslated.append(message.id)
        if message.fuzzy:
            fuzzy.append(message.id)
    assert not untranslated, f"{language}: empty translations: {untranslated}"
    assert not fuzzy, f"{language}: fuzzy translations: {fuzzy}"

    # Babel's checks: the same %(placeholders)s as the English, well-formed.
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()]
    assert not problems, f"{language}: {problems}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_the_catalog(language: str) -> None:
    """The .mo the app reads says what the .po says (make compiles it; nothing is committed)."""
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as f:
        source = read_po(f, locale=language)
    compiled_path = Path(folder / "messages.mo")
    assert compiled_path.exists(), f"{compiled_path} is missing: run make"
    with open(compiled_path, "rb") as f:
        compiled = read_mo(f)
    for message in source:
        strings = texts(message.string)
        # What is not translated yet is left out of a compiled catalog (the test above fails).
        if message.id and not message.fuzzy and all(strings):
            built = compiled.get(message.id, message.context)
            assert built is not None, message.id
            # A compiled plural comes back as a list, a source one as a tuple.
            built_strings = built.string if isinstance(built.string, str) else tuple(built.string)
            assert built_strings == message.string, message.id


def test_no_message_builds_a_possessive_on_a_name() -> None:
    """A side's or a player's name takes no English 's ("Reds's hand 3"): the sentence is
    turned so the name stands alone, as the translations already do (no name is declined)."""
    names = "side|sides|person|player|name|phone|winner|taker"
    possessive = re.compile(rf"%\((?:{names})\)s['’]")
    built = [msgid for msgid, _context in marked() if possessive.search(msgid)]
    assert not built, built


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_sentence_starts_with_the_game_s_word_for_a_hand(language: str) -> None:
    """%(noun)s is the game's word for a hand inside a sentence, in lower case ("hand",
    "раздача"): a translation that starts a sentence with it starts it in lower case."""
    path = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as f:
        catalog = read_po(f, locale=language)
    starts = re.compile(r"(?:^|[.!?]\s+)%\(noun\)s")
    lower = []
    for message in catalog:
        msgid = texts(message.id)[0]
        strings = texts(message.string)
        if msgid and not starts.search(msgid) and any(starts.search(s) for s in strings):
            lower.append(msgid)
    assert not lower, f"{language}: {lower}"
