"""Templates only print, one element a line: a line past 120 characters is a template that
works something out (sheet/page.py and the sheet answer it in Python) or crams elements."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
LONGEST = 120


def long_lines(text: str) -> list[int]:
    """The numbers of the lines of a template longer than LONGEST characters."""
    return [number for number, line in enumerate(text.splitlines(), 1) if len(line) > LONGEST]


def test_the_check_finds_a_long_line() -> None:
    assert long_lines("<p>\n" + "x" * (LONGEST + 1) + "\n</p>") == [2]
    assert long_lines("<p>\n" + "x" * LONGEST + "\n</p>") == []


def test_no_template_line_is_longer_than_120_characters() -> None:
    templates = sorted(TEMPLATES.rglob("*.html"))
    assert templates, "no templates found"
    found = {
        str(path.relative_to(TEMPLATES)): numbers
        for path in templates
        if (numbers := long_lines(path.read_text(encoding="utf-8")))
    }
    assert not found, f"template lines over {LONGEST} characters: {found}"


def test_templates_print_the_answers_worked_out_before_them() -> None:
    """A template asks neither the permission rules nor a game: the page's Python works out what
    this phone may do (Page.offers) and what the game says (Sheet, Page) before it runs."""
    asking = {
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in TEMPLATES.rglob("*.html")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "viewer.may(" in line or re.search(r"\bgame\.\w+\(", line)
    }
    assert asking == set()


def test_no_template_turns_escaping_off_or_joins_a_link() -> None:
    """Every value a template prints is escaped, and every link it prints was made in Python
    (url_for, or Page.links for the sheet's thousands of cells): a template that turns escaping
    off, or joins a link to a url_for's, works out what Python should."""
    deciding = {
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in TEMPLATES.rglob("*.html")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"autoescape\s+false", line) or re.search(r"url_for\([^)]*\)\s*~", line)
    }
    assert deciding == set()
