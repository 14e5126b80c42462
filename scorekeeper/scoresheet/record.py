"""A phone's record: the matches it played on a side, added up per game and in all, with the
series it won and the phones it met most.

A phone is the identity here (there are no accounts): its record is every ended match where
it held a side and that it kept on its list. Unfinished and abandoned matches, watched ones,
and those the phone took off its list are left out. Each side's result is worked out through
its game's rules once, when End match is pressed (store_results), and the record is read
from those rows in three statements whatever the history's size: this phone's results with
their matches, every phone seated on a side at them, and the series they belong to
(series.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import db
from scorekeeper.games import GAMES, Game
from scorekeeper.models import Match, Seat, Side, SideResult, StoredMatch, picked, tuple_of
from scorekeeper.scoresheet.series import Played as Link
from scorekeeper.scoresheet.series import Series, judge, walk_back
from scorekeeper.scoresheet.sheet import Sheet
from scorekeeper.scoresheet.tallies import Run, Wins, better_hand


class Feat(NamedTuple):
    """A best of the record, with the match it happened in: its code (the link), the day it
    ended and the sides it was against (as people know a match: "against Ben, Dec 7"), and
    the hand's number where it is a hand."""

    value: int
    code: str
    hand: int | None = None
    # The match's final totals, this side's first, where the page shows them ("104–31": the
    # template words them, words.score).
    score: tuple[int, ...] = ()
    day: datetime | None = None
    against: tuple[str, ...] = ()


@dataclass
class Tally(Run):
    """A record's figures over some matches (one game's, or all of them): matches played and
    won, with the streaks (Run), and the rest."""

    series: int = 0
    series_won: int = 0
    hands: int = 0
    points: int = 0
    best_hand: Feat | None = None
    biggest_win: Feat | None = None
    comeback: Feat | None = None
    # The game's feats (Game.feats) added up, by their keys.
    feats: dict[str, int] = field(default_factory=dict)
    # -1 when the best hand is best for being the lowest (its table played for the lowest).
    best_sign: int = 1

    @property
    def average(self) -> float | None:
        """Points per complete hand (card points, where the hands are rounds)."""
        return self.points / self.hands if self.hands else None


@dataclass
class Met:
    """Another phone this one met at the table: as a partner (on its side: the matches played
    together, and won), and as an opponent (the matches against it, those this phone won, and
    those it won against this phone)."""

    name: str
    together: Wins = field(default_factory=Wins)
    against: Wins = field(default_factory=Wins)
    beaten: int = 0


@dataclass
class Record:
    """A phone's record: in all, per game (in the registry's order), the phones it met most,
    and its results match by match for the chart (wins and losses so far)."""

    name: str
    overall: Tally
    games: list[tuple[Game, Tally]]
    partners: list[Met]
    opponents: list[Met]
    results: list[tuple[int, int]]


# How many partners and opponents the page lists.
MOST_MET = 5


# What End match stores: each side's result, worked out once through the game's rules.


def results_of(sheet: Sheet, winner_side_id: int) -> list[SideResult]:
    """Each side's result at an ended match, from its sheet as the rules read it.

    The hands are all counted (points, best hand, feats: a hand played after the winner was
    decided was still played); the winner's margin and comeback are measured up to the hand
    that decided the match (docs/at-the-table.md, "Your record"): a hand corrected after it
    changes the totals, not who won or by how much.
    """
    game, table, state = sheet.game, sheet.table, sheet.state
    # Where the lowest total wins (Hearts), being behind is being higher, and the best hand
    # the lowest.
    sign = -1 if game.lowest_wins(table) else 1
    position = {side.id: side.position for side in sheet.sides}.get(winner_side_id)
    results = []
    for side in sheet.sides:
        at = side.position
        hands = points = 0
        best: tuple[int, int] | None = None
        feats: dict[str, int] = {}
        for hand, result, cells in zip(sheet.hands, state.hands, sheet.grid, strict=True):
            scored = result.points[at]
            if not result.complete or scored is None:
                continue
            hands += 1
            points += scored
            if best is None or sign * scored > sign * best[0]:
                best = (scored, hand.number)
            entry = cells[at]
            for key, took in game.feats_of(
                table, result, entry.facts if entry else None, at
            ).items():
                feats[key] = feats.get(key, 0) + took
        won = at == position
        score = margin = comeback = None
        if won and len(sheet.sides) >= 2:
            score, margin, comeback = _how_it_won(_up_to_the_decision(sheet, at), at, sign)
        results.append(
            SideResult(
                side_id=side.id,
                match_id=sheet.match.id,
                won=won,
                hands=hands,
                points=points,
                best_hand=best[0] if best else None,
                best_hand_number=best[1] if best else None,
                lowest_wins=sign < 0,
                feats=feats,
                score=score,
                margin=margin,
                comeback=comeback,
            )
        )
    return results


def _how_it_won(
    running: Sequence[tuple[int, ...]], at: int, sign: int
) -> tuple[list[int] | None, int | None, int | None]:
    """The winner's totals at the deciding hand (its own first), its margin there over the best
    other side, and the most it trailed by up to then; `sign` -1 where the lowest wins."""
    if not running:
        return None, None, None

    def behind(totals: Sequence[int]) -> int:
        best_other = max(sign * t for place, t in enumerate(totals) if place != at)
        return best_other - sign * totals[at]

    decided = running[-1]
    score = [decided[at], *(t for place, t in enumerate(decided) if place != at)]
    return score, -behind(decided), max(0, *(behind(totals) for totals in running))


def _up_to_the_decision(sheet: Sheet, at: int) -> Sequence[tuple[int, ...]]:
    """The running totals after each complete hand up to the one that decided the match for
    the side at `at` (all of them, should the rules now name another side: a match ended
    before a rule changed)."""
    state = sheet.state
    if state.winner != at or state.won_at_hand is None:
        return state.running
    complete = sum(result.complete for result in state.hands[: state.won_at_hand + 1])
    return state.running[:complete]


def store_results(sheet: Sheet, winner_side_id: int) -> None:
    """Store each side's result as the match ends (End match, again after a reopen)."""
    clear_results(sheet.match)
    db.session.add_all(results_of(sheet, winner_side_id))


def clear_results(match: StoredMatch) -> None:
    """The match is open again (reopened): it has no result until it ends again."""
    db.session.execute(sa.delete(SideResult).where(SideResult.match_id == match.id))


# The record, read from the stored results.


# What the record reads of each result's match, beside its side's stored result: Played's
# fields after SideResult's, each selected under its name (_results_of).
OF_ITS_MATCH = (
    "code",
    "game",
    "winner_side_id",
    "rematch_code",
    "position",
    "sides",
    "follows",
    "ended_at",
)

if TYPE_CHECKING:
    _PlayedColumns = SideResult
else:
    _PlayedColumns = tuple_of(SideResult, *OF_ITS_MATCH)


class Played(_PlayedColumns):
    """One of this phone's ended matches as the record reads it: its side's stored result
    (SideResult's columns, made from the model as tuple_of makes them: a record reads
    hundreds) and what it needs of the match."""

    __slots__ = ()

    if TYPE_CHECKING:
        code: str
        game: str
        winner_side_id: int | None
        rematch_code: str | None
        position: int
        sides: int
        # Whether it is the rematch of another match: only those can end a series.
        follows: bool
        ended_at: datetime | None

        def __init__(self, *values: Any) -> None: ...


def _played(phone: str, shared_with: str | None = None) -> sa.Select[int]:
    """The matches a phone's record counts: ended, the phone on a side, still on its list;
    shown to another phone (`shared_with`), only those that phone was at too."""
    played = (
        sa.select(Seat.match_id)
        .join(Match, Match.id == Seat.match_id)
        .where(
            Seat.phone == phone,
            Seat.listed.is_(True),
            Seat.side_id.is_not(None),
            Match.status == Match.ENDED,
        )
    )
    if shared_with is not None:
        played = played.where(_shared(shared_with))
    return played


def _shared(shared_with: str) -> sa.ColumnElement[bool]:
    """The matches another phone was at (seated, watching or hosting)."""
    # docs/at-the-table.md, "Your record": another phone sees no match it was not at, nor its code.
    theirs = so.aliased(Seat)
    return sa.or_(
        Match.id.in_(sa.select(theirs.match_id).where(theirs.phone == shared_with)),
        Match.host_phone == shared_with,
    )


def _results_of() -> sa.Select[*tuple[Any, ...]]:
    """A phone's stored results (`phone`), each with what the record needs of its match, in
    the order the matches ended: streaks and the chart run in it (docs/at-the-table.md, "Your
    record")."""
    every_side, before = so.aliased(Side), so.aliased(Match)
    sides = (
        sa.select(sa.func.count())
        .where(every_side.match_id == Match.id)
        .correlate(Match)
        .scalar_subquery()
    )
    follows = sa.exists().where(before.rematch_code == Match.code).correlate(Match)
    of_its_match = {
        "code": Match.code,
        "game": Match.game,
        "winner_side_id": Match.winner_side_id,
        "rematch_code": Match.rematch_code,
        "position": Side.position,
        "sides": sides,
        "follows": follows,
        "ended_at": Match.ended_at,
    }
    return (
        sa.select(
            # Columns, not model objects: a thousand of them cost more than the rest.
            *SideResult.__table__.c,
            *(of_its_match[name].label(name) for name in OF_ITS_MATCH),
        )
        .join(Seat, Seat.side_id == SideResult.side_id)
        .join(Match, Match.id == SideResult.match_id)
        .join(Side, Side.id == SideResult.side_id)
        .where(
            Seat.phone == sa.bindparam("phone"),
            Seat.listed.is_(True),
            Match.status == Match.ENDED,
        )
        .order_by(Match.ended_at, Match.id)
    )


# Built once, as series.WALKED_BACK is: building it cost a tenth of the page (8 ms).
RESULTS_OF = _results_of()
# A row of it as Played's values, in Played's order.
_played_of = picked(
    RESULTS_OF,
    [*SideResult.__table__.c, *(RESULTS_OF.selected_columns[name] for name in OF_ITS_MATCH)],
)


def read_played(phone: str, shared_with: str | None = None) -> list[Played]:
    """This phone's results with what the record needs of their matches, in the order the
    matches ended (as another phone, `shared_with`, sees them): one statement."""
    results = RESULTS_OF if shared_with is None else RESULTS_OF.where(_shared(shared_with))
    return [Played(*_played_of(row)) for row in db.session.execute(results, {"phone": phone})]


def read_record(phone: str, shared_with: str | None = None) -> Record:
    """This phone's record, in three statements however many matches it played; as another
    phone (`shared_with`) sees it, over the matches both were at."""
    played = read_played(phone, shared_with)
    # Every side of those matches with the phones seated on it (none: a side kept on the
    # host's phone), the seats oldest first.
    seats = db.session.execute(
        sa.select(Side.match_id, Seat.phone, Side.id, Seat.player, Side.name, Side.position)
        .select_from(Side)
        .outerjoin(Seat, Seat.side_id == Side.id)
        .where(Side.match_id.in_(_played(phone, shared_with)))
        .order_by(Seat.match_created_at, Seat.id)
    ).all()
    # A series is judged where this phone last played in it: at a match whose rematch it did
    # not play (the series may have gone on without it). Only those are walked back, so a
    # long series is read once, not once per match of it.
    # A phone's series needs two of its matches: one that follows no other ends none.
    counted = {one.code for one in played}
    last_played = [one for one in played if one.follows and one.rematch_code not in counted]
    chains = walk_back([one.match_id for one in last_played])
    return add_up(phone, played, seats, chains)


def add_up(
    phone: str,
    played: Sequence[Played],
    seats: Sequence[tuple[int, str | None, int, str | None, str, int]],
    chains: dict[int, list[Link]],
) -> Record:
    """A phone's record from its results (in the order they ended), every side at those
    matches in column order with each seat on it (None: no phone), and the series walked
    back from where it last played in each (series.walk_back, by match id)."""
    name = ""
    names: dict[str, str] = {}
    at: dict[int, list[tuple[str, int, str]]] = {}
    sides_of: dict[int, dict[int, tuple[int, str]]] = {}
    for match_id, seated, side_id, player, side_name, position in seats:
        sides_of.setdefault(match_id, {})[side_id] = (position, side_name)
        if seated is None:
            continue
        if seated == phone:
            name = player or name
        else:
            at.setdefault(match_id, []).append((seated, side_id, side_name))
            # The name it gave last (seats come oldest first), else the side it held.
            names[seated] = player or names.get(seated, "")
    overall = Tally()
    per_game: dict[str, Tally] = {}
    met: dict[str, Met] = {}
    results: list[tuple[int, int]] = []
    for one in played:
        mine = one
        tally = per_game.setdefault(one.game, Tally())
        overall.add(mine.won)
        tally.add(mine.won)
        _hands(one, tally)
        if mine.won:
            _margins(one, tally)
        results.append((overall.won, overall.played - overall.won))
        against = tuple(
            side_name
            for side_id, (_position, side_name) in sorted(
                sides_of.get(one.match_id, {}).items(), key=lambda side: side[1][0]
            )
            if side_id != one.side_id
        )
        _name_the_match(tally, one, against)
        for other, other_side, side_name in at.get(mine.match_id, []):
            someone = met.setdefault(other, Met(names.get(other, "")))
            someone.name = someone.name or side_name
            if other_side == mine.side_id:
                someone.together.add(mine.won)
            else:
                someone.against.add(mine.won)
                someone.beaten += one.winner_side_id == other_side
    _series(phone, played, chains, overall, per_game)
    games = [(game, per_game[key]) for key, game in GAMES.items() if key in per_game]
    partners = sorted(
        (m for m in met.values() if m.together.played), key=lambda m: -m.together.played
    )
    opponents = sorted(
        (m for m in met.values() if m.against.played), key=lambda m: -m.against.played
    )
    return Record(
        name=name,
        overall=overall,
        games=games,
        partners=partners[:MOST_MET],
        opponents=opponents[:MOST_MET],
        results=results,
    )


def _hands(one: Played, tally: Tally) -> None:
    """Add one match's hands to its game's tally: points, the best hand, the feats."""
    mine = one
    tally.hands += mine.hands
    tally.points += mine.points
    best = tally.best_hand.value if tally.best_hand else None
    if mine.best_hand is not None and better_hand(
        mine.best_hand, mine.lowest_wins, best, tally.best_sign
    ):
        tally.best_hand = Feat(mine.best_hand, one.code, mine.best_hand_number)
        tally.best_sign = -1 if mine.lowest_wins else 1
    for key, took in (mine.feats or {}).items():
        tally.feats[key] = tally.feats.get(key, 0) + took


def _margins(one: Played, tally: Tally) -> None:
    """A won match's margin and the deficit it came back from (both at the hand that decided
    it), toward the best of each. A win from behind (an early victory) is a comeback,
    never a biggest win: its score reads as a loss."""
    mine = one
    if mine.margin is not None and mine.score and mine.margin > 0:
        if tally.biggest_win is None or mine.margin > tally.biggest_win.value:
            tally.biggest_win = Feat(mine.margin, one.code, score=tuple(mine.score))
    deficit = mine.comeback or 0
    if deficit > 0 and (tally.comeback is None or deficit > tally.comeback.value):
        tally.comeback = Feat(deficit, one.code)


def _name_the_match(tally: Tally, one: Played, against: tuple[str, ...]) -> None:
    """Name the match of each best this match just set as people know it: its day and the
    sides it was against, not only its code."""
    for feat in ("best_hand", "biggest_win", "comeback"):
        best = getattr(tally, feat)
        if best is not None and best.code == one.code and best.day is None:
            setattr(tally, feat, best._replace(day=one.ended_at, against=against))


def _series(
    phone: str,
    played: Sequence[Played],
    chains: dict[int, list[Link]],
    overall: Tally,
    per_game: dict[str, Tally],
) -> None:
    """Count the series this phone played (two of their matches or more, by the last it
    played) and those it won: its side there ahead alone, the series judged by who played
    (series.py). A series it left and came back to is judged once, where it played last;
    matches it took off its list are left out of it, as from the rest of the record."""
    judged: dict[int, tuple[Played, Series]] = {}
    for one in played:  # in the order they ended: the last kept for each is where it played last
        chain = chains.get(one.match_id)
        if chain is None:
            continue
        kept = [link for link in chain if phone not in link.removed_by]
        mine = sum(
            link.ended and any(phone in held for held in link.phones.values()) for link in kept
        )
        if mine >= 2:
            judged[chain[0].id] = (one, judge(kept, one.sides))
    for one, series in judged.values():
        won = series.leaders == (one.position,)
        for tally in (overall, per_game[one.game]):
            tally.series += 1
            tally.series_won += won
