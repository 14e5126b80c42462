"""The body of the sheet's table, one row per hand, as HTML built in Python.

A long match has hundreds of cells, and a template spends several microseconds on each
expression of each cell (a lookup, an escape), ten times what a string costs: at 200 hands
the rows were most of the page's time. Everything else on the page stays in the templates;
this is only the part that repeats. Numbers need no escaping; every word a player typed is
escaped on its way in.
"""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import pgettext
from markupsafe import Markup, escape

from scorekeeper.sheet.state import Sheet


def sheet_rows(sheet: Sheet, hand_url: str, correcting: bool) -> Markup:
    """Every hand's row: each side's points (and, small, its running total) linking to its
    cell (the correction form when `correcting`), an empty cell "…" (or "fill" for the host),
    and a row under any hand that doesn't add up. `hand_url` is the match's URL up to the
    hand number: /m/<code>/hand/."""
    end = "/correct" if correcting else ""
    hand_url = escape(hand_url)
    hand_word = sheet.game.hand_word
    # The words of the rows, in this phone's language, once for every row.
    # NOTE: a tooltip on a mark in a cell of the sheet: the cell was entered with the calculator.
    calculator_title = escape(_("from the calculator"))
    # NOTE: a tooltip on a mark in a cell of the sheet: the host changed the cell.
    corrected_title = escape(_("corrected by the host"))
    from_calculator = f'<span class="mark" title="{calculator_title}">≡</span>'
    corrected_mark = f'<span class="mark" title="{corrected_title}">✎</span>'
    # NOTE: a tooltip on a hand's number, for the host; %(noun)s is the game's word for a
    # hand inside a sentence ("hand", Brisca's "round").
    correct_whole = escape(_("Correct the whole %(noun)s", noun=sheet.game.hand_noun))
    # NOTE: the link in an empty cell of the sheet that lets the host fill it in.
    fill_word = escape(_("fill"))
    # NOTE: what separates the problems of a hand that doesn't add up, with its space.
    problems_separator = pgettext("problems separator", "; ")
    colspan = len(sheet.sides) + 1
    corrected = sheet.corrected
    parts: list[str] = []
    add = parts.append
    # The running totals after each complete hand, shown small under its points, as on paper.
    running = iter(sheet.state.running)
    for hand, entries, result in zip(sheet.hands, sheet.grid, sheet.state.hands, strict=True):
        number = hand.number
        after = next(running) if result.complete else None
        classes = "complete" if result.complete else "current"
        if result.problems:
            classes += " flagged"
        if correcting:
            # The host opens a whole hand by its number: every side's cell in one form.
            add(
                f'<tr class="{classes}"><th scope="row">'
                f'<a href="{hand_url}{number}/correct" title="{correct_whole}">'
                f"{number}</a></th>"
            )
        else:
            add(f'<tr class="{classes}"><th scope="row">{number}</th>')
        for at, entry in enumerate(entries):
            won = "won" if result.round_winner == at else ""
            link = f"{hand_url}{number}/side/{at}"
            if entry is None:
                fill = (
                    f'<a class="fill" href="{link}/correct">{fill_word}</a>' if correcting else "…"
                )
                add(f'<td class="{won} empty">{fill}</td>')
                continue
            marks = from_calculator if result.breakdowns[at] is not None else ""
            if corrected.get((number, entry.side_id)):
                marks += corrected_mark
            # The running total is drawn by CSS from data-run: shown, but not read as part
            # of the cell's number.
            run = f' data-run="{after[at]}"' if after is not None else ""
            add(f'<td class="{won}"><a href="{link}{end}"{run}>{result.points[at]}{marks}</a></td>')
        add("</tr>")
        if result.problems:
            # NOTE: a row under a hand whose entries don't add up. %(hand)s is the game's word
            # for a hand ("Hand", Brisca's "Round"); %(problems)s what is wrong, "; " between.
            problems = _(
                "%(hand)s %(number)s doesn't add up: %(problems)s",
                hand=hand_word,
                number=number,
                problems=problems_separator.join(str(p) for p in result.problems),
            )
            add(f'<tr class="problems"><td colspan="{colspan}">{escape(problems)}</td></tr>')
    return Markup("".join(parts))
