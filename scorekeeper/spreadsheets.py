"""What a spreadsheet file takes of a player's words (a match's sheet, a group's standings):
never a formula."""

from __future__ import annotations

# What a spreadsheet takes for a formula (or a field separator) at the start of a cell.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A player's words as a spreadsheet shows them, never run: a name like "=HYPERLINK(…)" or
    "-Bob" gets a leading apostrophe. Numbers are written as numbers, negative ones too."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
