"""The rules' facts in words: what games/ and the score sheet work out is values (a code with
its numbers); this is where they are worded, in the language of the phone that reads them, as
the pages and the spreadsheet show them.

One wording per fact, so every page says it the same way; the templates reach these as
filters (init_app).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from flask import Flask
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from scorekeeper import terms
from scorekeeper.games import Aim, Goal, PlayOn, Tie, WinRule, Won, word_with
from scorekeeper.languages import number

if TYPE_CHECKING:
    from scorekeeper.models import StoredSide
    from scorekeeper.scoresheet.series import Series

# Words for "Higher of two over 101": a result line reads better than "Higher of 2".
_HOW_MANY = {
    # NOTE: Why a match was won: the top of several sides that reached the target (%(target)d).
    2: _l("Higher of two over %(target)d"),
    3: _l("Highest of three over %(target)d"),
    4: _l("Highest of four over %(target)d"),
    5: _l("Highest of five over %(target)d"),
    6: _l("Highest of six over %(target)d"),
    7: _l("Highest of seven over %(target)d"),
    8: _l("Highest of eight over %(target)d"),
}


def why(won: Won | None) -> str:
    """Why a match was won, as its result line says it ("Reached 101 first"); "" for nobody."""
    if won is None:
        return ""
    target = won.target or 0
    if won.rule is WinRule.EARLY_VICTORY:
        # NOTE: Why a match was won: one side scored every card point of a hand (an early victory).
        return _("Early victory")
    if won.rule is WinRule.DECLARED:
        # A win at once that one game declares, in that game's words.
        return terms.say(won.said) if won.said is not None and won.said.code in terms.TERMS else ""
    if won.rule is WinRule.COUNTED_FIRST:
        # NOTE: Why a match was won: several sides passed the target in the last hand, and
        # counting its points line by line, in the order the table agreed, took this one there
        # first.
        return _("First to %(target)d counting the last hand", target=target)
    if won.rule is WinRule.REACHED_FIRST:
        # NOTE: Why a match was won: the one side that reached the target.
        return _("Reached %(target)d first", target=target)
    if won.rule is WinRule.HIGHEST_OVER:
        sides = won.sides or 2
        words = _HOW_MANY.get(sides)
        if words is not None:
            return str(words) % {"target": target}
        return ngettext(
            "Highest of %(num)d over %(target)d",
            "Highest of %(num)d over %(target)d",
            sides,
            target=target,
        )
    if won.rule is WinRule.FIRST_TO_ROUNDS:
        # NOTE: Why a match played for rounds won was won: "First to 3 rounds".
        return ngettext("First to %(num)d round", "First to %(num)d rounds", target)
    if won.rule is WinRule.LOWEST_AT_LIMIT:
        # NOTE: Why a match was won: the lowest total once a side reached the target.
        return _("Lowest when a side reached %(target)d", target=target)
    hands = won.hands or 0
    # NOTE: Why a match was won: the highest total after the hands the table agreed on.
    return ngettext("Highest after %(num)d hand", "Highest after %(num)d hands", hands)


def result(winner: str, won: Won | None) -> str:
    """How an ended match came out: who won and why ("Us won. Reached 101 first")."""
    if won is None:
        return _("%(side)s won.", side=winner)
    # NOTE: how an ended match came out: "Us won. Reached 101 first". %(side)s is the
    # winning side's name; %(why)s the rule that made it win.
    return _("%(side)s won. %(why)s", side=winner, why=why(won))


def abandoned() -> str:
    """How an abandoned match came out, as its result line says it."""
    return _("Abandoned.")


def goal(aim: Goal | None) -> str:
    """What wins, as the foot of the sheet says it ("101 points wins.")."""
    if aim is None:
        return ""
    if aim.aim is Aim.POINTS:
        # NOTE: What wins a match, under the score sheet: "101 points wins."
        return ngettext("%(num)d point wins.", "%(num)d points wins.", aim.target)
    if aim.aim is Aim.ROUNDS:
        # NOTE: What wins a match played for rounds won, under the score sheet: "3 rounds wins."
        return ngettext("%(num)d round wins.", "%(num)d rounds wins.", aim.target)
    if aim.aim is Aim.LOWEST_AT_LIMIT:
        return _("The lowest total when a side reaches %(target)d wins.", target=aim.target)
    # NOTE: What wins, under the score sheet, then how many hands are left: "The highest
    # after 3 hands wins: 1 to go." %(rule)s is "The highest after 3 hands wins",
    # %(left)s is "1 to go" (both translated on their own).
    return _(
        "%(rule)s: %(left)s.",
        rule=ngettext(
            "The highest after %(num)d hand wins",
            "The highest after %(num)d hands wins",
            aim.target,
        ),
        # NOTE: How many hands are left to play before the highest total wins.
        left=ngettext("%(num)d to go", "%(num)d to go", aim.left),
    )


def both(names: Sequence[str]) -> str:
    """Two or more side names as a sentence lists them: "Us and Them" ("A and B and C")."""
    joined = names[0]
    for name in names[1:]:
        # NOTE: Two side names (or a list of them so far, and one more) joined: "Us and Them".
        joined = _("%(first)s and %(second)s", first=joined, second=name)
    return joined


def play_on(tie: PlayOn | None, sides: Sequence[StoredSide]) -> str:
    """Why play goes on though the rule's end was reached, naming the sides level ("" if it
    doesn't)."""
    if tie is None:
        return ""
    names = both([sides[at].name for at in tie.sides])
    if tie.tie is Tie.LEVEL_PAST_TARGET:
        # NOTE: %(names)s is two or more side names ("Us and Them"); the form follows how many.
        return ngettext(
            "%(names)s are level at %(top)d, past %(target)d: play on until the tie breaks.",
            "%(names)s are level at %(top)d, past %(target)d: play on until the tie breaks.",
            len(tie.sides),
            names=names,
            top=tie.total,
            target=tie.target,
        )
    if tie.tie is Tie.LEVEL_AT_LOWEST:
        # NOTE: %(names)s is two or more side names ("Us and Them"); the form follows how
        # many.
        return ngettext(
            "%(names)s are level at the lowest, %(low)d, and a side has reached "
            "%(target)d: play on until the tie breaks.",
            "%(names)s are level at the lowest, %(low)d, and a side has reached "
            "%(target)d: play on until the tie breaks.",
            len(tie.sides),
            names=names,
            low=tie.total,
            target=tie.target,
        )
    # NOTE: %(names)s is two or more side names ("Us and Them"); %(num)d the number of
    # hands played.
    return ngettext(
        "%(names)s are level at the top after %(num)d hand: play another hand until "
        "the tie breaks.",
        "%(names)s are level at the top after %(num)d hands: play another hand until "
        "the tie breaks.",
        tie.hands,
        names=names,
    )


def unnamed_partner(side: str, number: int) -> str:
    """A player of a partnership who gave no name, as the dealing order names them: "Us,
    player 2"."""
    # NOTE: a player of a partnership who gave no name: "Us, player 2". %(side)s is
    # the side's name, %(number)s the player's place on it.
    return _("%(side)s, player %(number)s", side=side, number=number)


def series_standing(series: Series, sides: Sequence[StoredSide]) -> str:
    """A series' standing: "Series: Ana & Omar ahead, 2–1", or level; each number as the
    reader's language writes it."""
    shown = "–".join(number(series.wins[at]) for at in series.order)
    leaders = series.leaders
    if len(leaders) == 1:
        # NOTE: a match's series (the match and its rematches): %(side)s is the side (team)
        # that won more of them, %(score)s the matches won ("2–1").
        return _("Series: %(side)s ahead, %(score)s", side=sides[leaders[0]].name, score=shown)
    # NOTE: a match's series (the match and its rematches), no side ahead; %(score)s the
    # matches won by each side ("1–1").
    return _("Series: level, %(score)s", score=shown)


def score(totals: Sequence[int]) -> str:
    """A match's final totals as a score ("104–31"), each as the reader's language writes it:
    a score below zero reads "25–-225" in Arabic too, its sign at its digits (str() put it
    beside the dash, "25--225")."""
    return "–".join(number(total) for total in totals)


def init_app(app: Flask) -> None:
    """The wordings as the templates use them: `state.reason|why`,
    `state.play_on|play_on(sheet.sides)`, `series|series_standing(sheet.sides)`,
    `feat.score|score`, `standing.goal|goal`; and the games' terms and problems
    (scorekeeper/terms.py) as str() and the pages word them."""
    word_with(terms.say)
    app.add_template_filter(why, "why")
    app.add_template_filter(series_standing, "series_standing")
    app.add_template_filter(score, "score")
    app.add_template_filter(play_on, "play_on")
    app.add_template_filter(goal, "goal")
