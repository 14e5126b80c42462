"""A calculator's scoring as data: each breakdown line a few ways to score, each way a test
on the counts and points per count, so a page can work a hand out with no connection.

A game declares its table (Game.scoring) beside its `calculate`, which stays the rule text in
Python: tests/unit/test_scoring_tables.py holds the two equal on every count, table rule and
held-over number, and static/js/calculator.js works the declared table out as worked_out does
here, for every game alike (it names none).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .base import Calculation, Label, ScoreLine
from .calculator import MOST_ALONE


@dataclass(frozen=True)
class Within:
    """A count between two bounds, both included (a choice's answer: the same bound twice)."""

    key: str
    low: int
    high: int


@dataclass(frozen=True)
class Way:
    """One way a breakdown line scores: when every test in `when` holds, `points`, and `each`
    for every one of the count `per`; the line shows the count `shows` (a count's key), or
    `shows_value` (a number of its own), or the sum of `tally`'s values for each count's
    answer (a primiera: the values of the best card in each suit)."""

    key: str
    label: Label
    shows: str = ""
    points: int = 0
    each: int = 0
    per: str = ""
    when: tuple[Within, ...] = ()
    shows_value: int = 0
    tally: tuple[tuple[str, Mapping[int, int]], ...] = ()


@dataclass(frozen=True)
class Scoring:
    """A calculator's table: its lines in breakdown order, each the ways it can score, the
    first way whose tests hold giving the line (none: no line). Lines scoring nothing are
    left out, as a player reads out a hand, unless `keeps_zero` (Tarneeb: the bid is the hand
    whatever it scored)."""

    lines: tuple[tuple[Way, ...], ...] = ()
    keeps_zero: bool = False


def each(key: str, label: Label, points: int, per: str | None = None) -> tuple[Way, ...]:
    """A line worth `points` for each one of a count (its key by default)."""
    count = per or key
    return (Way(key, label, shows=count, each=points, per=count),)


def at_least(key: str, label: Label, count: str, least: int, points: int) -> Way:
    """A way worth `points` once a count reaches `least` (the most cards: 27 of 52)."""
    return Way(key, label, shows=count, points=points, when=(Within(count, least, 10**9),))


def reached(key: str, label: Label, count: str, least: int, points: int) -> tuple[Way, ...]:
    """A line worth `points` once a count reaches `least`, and nothing below it."""
    return (at_least(key, label, count, least, points),)


def answered(key: str, label: Label, answer: str, value: int, points: int, shows: str) -> Way:
    """A way worth `points` when a question was answered `value` (most cards, alone)."""
    return Way(key, label, shows=shows, points=points, when=(Within(answer, value, value),))


def contested(
    sides: int, key: str, label: Label, count: str, least: int, points: int, question: str
) -> Way:
    """A contest's way (the most cards): head to head, worth `points` once its count reaches
    `least`; with three sides or more, once the side answered its question "Yes, alone"."""
    if sides >= 3:
        return answered(key, label, question, MOST_ALONE, points, count)
    return at_least(key, label, count, least, points)


def _holds(way: Way, values: Mapping[str, int]) -> bool:
    return all(test.low <= values.get(test.key, 0) <= test.high for test in way.when)


def _shown(way: Way, values: Mapping[str, int]) -> int:
    if way.tally:
        return sum(points.get(values.get(key, 0), 0) for key, points in way.tally)
    return values.get(way.shows, 0) if way.shows else way.shows_value


def worked_out(scoring: Scoring, values: Mapping[str, int]) -> Calculation:
    """Counts already read (calculator.read_counts) worked out by a declared table."""
    rows: list[ScoreLine] = []
    for ways in scoring.lines:
        way = next((way for way in ways if _holds(way, values)), None)
        if way is None:
            continue
        points = way.points + (way.each * values.get(way.per, 0) if way.per else 0)
        if points or scoring.keeps_zero:
            rows.append(ScoreLine(way.key, way.label, _shown(way, values), points))
    return Calculation(lines=tuple(rows), total=sum(row.points for row in rows))


def as_data(scoring: Scoring, said: Callable[[Label], str]) -> dict[str, object]:
    """The table as a page's script reads it (JSON), each label said in the reader's words."""

    def way_data(way: Way) -> dict[str, object]:
        return {
            "label": said(way.label),
            "shows": way.shows,
            "shows_value": way.shows_value,
            "points": way.points,
            "each": way.each,
            "per": way.per,
            "when": [[test.key, test.low, test.high] for test in way.when],
            "tally": [[key, {str(k): v for k, v in points.items()}] for key, points in way.tally],
        }

    lines: Sequence[list[dict[str, object]]] = [
        [way_data(way) for way in ways] for ways in scoring.lines
    ]
    return {"lines": lines, "keeps_zero": scoring.keeps_zero}
