"""Words live with words: what the players read is worded in scorekeeper/words/ (one function
or lazy constant a fact, with its note for the translators), and the core that works out the
facts only names them (`words.groups.roster_full(most)`). The core here is the score sheet and
its actions, the phones' rules, the games, the models, matches.py and new_matches.py: none of
their modules imports Flask-Babel or calls gettext. The blueprints' forms and exports keep
their labels beside them. Read from the source: every import counted, a function's too."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"
CORE = [
    *sorted((PACKAGE / "scoresheet").rglob("*.py")),
    *sorted((PACKAGE / "phones").rglob("*.py")),
    *sorted((PACKAGE / "games").rglob("*.py")),
    PACKAGE / "models.py",
    PACKAGE / "matches.py",
    PACKAGE / "new_matches.py",
]
# What words a message for a reader: Flask-Babel's and gettext's calls, eager or lazy. (The
# games' `says` only marks a game's words for the catalogs; terms.py words them.)
GETTEXT = {
    "_",
    "_l",
    "gettext",
    "ngettext",
    "pgettext",
    "npgettext",
    "lazy_gettext",
    "lazy_ngettext",
    "lazy_pgettext",
}


def wording_in(source: str) -> list[str]:
    """Where a module's source words for itself: each import of Flask-Babel, and each call of
    gettext, by line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                f"{node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.split(".")[0] == "flask_babel"
            ]
        elif (
            isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "flask_babel"
        ):
            found.append(f"{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Call):
            called = node.func
            name = (
                called.id
                if isinstance(called, ast.Name)
                else called.attr
                if isinstance(called, ast.Attribute)
                else ""
            )
            if name in GETTEXT:
                found.append(f"{node.lineno}: {name}(...)")
    return found


def test_the_check_sees_every_way_of_wording() -> None:
    # The check below can fail: each way a module could word a message itself is seen.
    for source in (
        "from flask_babel import gettext as _",
        "import flask_babel",
        "import flask_babel.speaklater",
        "from flask_babel.speaklater import LazyString",
        "def done():\n    from flask_babel import ngettext\n    return ngettext('a', 'b', 2)",
        "x = _('Group renamed.')",
        "x = _l('Join the group first.')",
        "x = ngettext('%(num)d side', '%(num)d sides', 2)",
        "x = flask_babel.lazy_gettext('Group renamed.')",
        "x = babel.pgettext('button', 'Join')",
    ):
        assert wording_in(source), source
    # Naming the facts, and the games' words marked for the catalogs, are not wording.
    for source in (
        "from scorekeeper.words import groups as words\nx = words.roster_full(60)",
        "from scorekeeper.games.base import says\nWORDS = {'game.x': says('X')}",
        "for _ in range(3):\n    pass",
    ):
        assert not wording_in(source), source


def test_the_core_is_found() -> None:
    names = {path.relative_to(PACKAGE).as_posix() for path in CORE}
    assert {
        "scoresheet/groups.py",
        "scoresheet/corrections.py",
        "scoresheet/moving.py",
        "scoresheet/setup.py",
        "phones/rules.py",
        "games/base.py",
        "models.py",
        "matches.py",
        "new_matches.py",
    } <= names
    assert all(path.is_file() for path in CORE)


def test_no_core_module_words_for_itself() -> None:
    wording = [
        f"{path.relative_to(PACKAGE)}:{where}"
        for path in CORE
        for where in wording_in(path.read_text(encoding="utf-8"))
    ]
    assert wording == []
