"""A phone's record: the matches it played on a side, each worked out through its game's rules
(sheet.py), added up per game and in all, with the series it won and the phones it met most.

A phone is the identity here (there are no accounts): its record is every ended match where
it held a side and that it kept on its list. Unfinished and abandoned matches, watched ones,
and those the phone took off its list are left out. It is read in four statements whatever
the history's size: the matches with their sides, every phone seated on a side at them (this
one's seats among them), their hands, and the series they belong to (series.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import db
from scorekeeper.games import GAMES, Game
from scorekeeper.languages import number
from scorekeeper.models import Match, Seat
from scorekeeper.scoresheet.series import Series, read_series
from scorekeeper.scoresheet.sheet import Sheet, read_hands, work_out


class Feat(NamedTuple):
    """A best of the record, with the match it happened in: its code (the link), and the
    hand's number where it is a hand."""

    value: int
    code: str
    hand: int | None = None
    # What the page shows for it, where that is not the value alone ("104–31").
    shown: str = ""


@dataclass
class Tally:
    """A record's figures over some matches (one game's, or all of them)."""

    matches: int = 0
    wins: int = 0
    streak: int = 0
    best_streak: int = 0
    series: int = 0
    series_won: int = 0
    hands: int = 0
    points: int = 0
    best_hand: Feat | None = None
    biggest_win: Feat | None = None
    comeback: Feat | None = None
    # The game's feats (Game.feats) added up: basras, pasturas, rounds won...
    feats: dict[str, int] = field(default_factory=dict)

    @property
    def win_share(self) -> float | None:
        """Wins over matches (None before any)."""
        return self.wins / self.matches if self.matches else None

    @property
    def average(self) -> float | None:
        """Points per complete hand (Brisca: card points per round)."""
        return self.points / self.hands if self.hands else None

    def played(self, won: bool) -> None:
        """One more match, won or not, in the order they were played."""
        self.matches += 1
        self.wins += won
        self.streak = self.streak + 1 if won else 0
        self.best_streak = max(self.best_streak, self.streak)


@dataclass
class Met:
    """Another phone this one met at the table: as a partner (on its side) and as an opponent."""

    name: str
    together: int = 0
    won_together: int = 0
    against: int = 0
    # Matches this phone won against it, and that it won against this phone.
    beat: int = 0
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
        # README, "At the table", 9: another phone sees no match it was not at, nor its code.
        theirs = so.aliased(Seat)
        played = played.where(
            sa.or_(
                Seat.match_id.in_(sa.select(theirs.match_id).where(theirs.phone == shared_with)),
                Match.host_phone == shared_with,
            )
        )
    return played


def read_record(phone: str, shared_with: str | None = None) -> Record:
    """This phone's record, in four statements however many matches it played; as another
    phone (`shared_with`) sees it, over the matches both were at."""
    played = _played(phone, shared_with)
    # Sides joined, not selected in: a select-in load sends one statement per 500 matches.
    matches = list(
        db.session.scalars(
            sa.select(Match)
            .where(Match.id.in_(played))
            .options(so.joinedload(Match.sides))
            .order_by(Match.created_at, Match.id)
        ).unique()
    )
    seats = db.session.execute(
        sa.select(Seat.match_id, Seat.phone, Seat.side_id, Seat.player)
        .where(Seat.match_id.in_(played), Seat.side_id.is_not(None))
        .order_by(Seat.match_created_at, Seat.id)
    ).all()
    hands = read_hands([match.id for match in matches])
    sheets = [work_out(match, hands[match.id]) for match in matches]
    # A series is judged where this phone last played in it: at a match whose rematch it did
    # not play (the series may have gone on without it). Only those are walked back, so a
    # long series is read once, not once per match of it.
    counted = {match.code for match in matches}
    last_played = [match for match in matches if match.rematch_code not in counted]
    return add_up(phone, sheets, seats, read_series(last_played))


def add_up(
    phone: str,
    sheets: Sequence[Sheet],
    seats: Sequence[tuple[int, str, int | None, str]],
    series: dict[int, Series],
) -> Record:
    """A phone's record from its matches' sheets (oldest first), every seat at them, and the
    series of those where it last played in a series (by match id)."""
    mine: dict[int, int] = {}
    name = ""
    names: dict[str, str] = {}
    at: dict[int, list[tuple[str, int]]] = {}
    for match_id, seated, side_id, player in seats:
        if side_id is None:
            continue
        if seated == phone:
            mine[match_id] = side_id
            name = player or name
        else:
            at.setdefault(match_id, []).append((seated, side_id))
            # The name it gave last (seats come oldest first), else the side it held.
            names[seated] = player or names.get(seated, "")
    overall = Tally()
    per_game: dict[str, Tally] = {}
    met: dict[str, Met] = {}
    results: list[tuple[int, int]] = []
    side_names: dict[int, str] = {}
    # The place this phone played in at each match counted, for its series.
    places: dict[int, int] = {}
    for sheet in sheets:
        match = sheet.match
        side_id = mine.get(match.id)
        position = next((s.position for s in sheet.sides if s.id == side_id), None)
        if position is None:
            continue
        places[match.id] = position
        side_names.update({s.id: s.name for s in sheet.sides})
        won = match.winner_side_id == side_id
        tally = per_game.setdefault(match.game, Tally())
        overall.played(won)
        tally.played(won)
        _hands(sheet, position, tally)
        if won:
            _margins(sheet, position, tally)
        results.append((overall.wins, overall.matches - overall.wins))
        for other, other_side in at.get(match.id, []):
            someone = met.setdefault(other, Met(names.get(other, "")))
            if not someone.name:
                someone.name = side_names.get(other_side, "")
            if other_side == side_id:
                someone.together += 1
                someone.won_together += won
            else:
                someone.against += 1
                someone.beat += won
                someone.beaten += match.winner_side_id == other_side
    _series(sheets, places, series, overall, per_game)
    games = [(game, per_game[key]) for key, game in GAMES.items() if key in per_game]
    partners = sorted((m for m in met.values() if m.together), key=lambda m: -m.together)
    opponents = sorted((m for m in met.values() if m.against), key=lambda m: -m.against)
    return Record(
        name=name,
        overall=overall,
        games=games,
        partners=partners[:MOST_MET],
        opponents=opponents[:MOST_MET],
        results=results,
    )


def _hands(sheet: Sheet, position: int, tally: Tally) -> None:
    """Add one match's complete hands to a game's tally: points, the best hand, the feats."""
    game, table, code = sheet.game, sheet.table, sheet.match.code
    for hand, result, cells in zip(sheet.hands, sheet.state.hands, sheet.grid, strict=True):
        points = result.points[position]
        if not result.complete or points is None:
            continue
        tally.hands += 1
        tally.points += points
        if tally.best_hand is None or points > tally.best_hand.value:
            tally.best_hand = Feat(points, code, hand.number)
        entry = cells[position]
        for key, count in game.feats_of(
            table, result, entry.facts if entry else None, position
        ).items():
            tally.feats[key] = tally.feats.get(key, 0) + count


def _margins(sheet: Sheet, position: int, tally: Tally) -> None:
    """A won match's margin at the end, and the deficit it came back from (the most it
    trailed the best other side by, after any hand), toward the best of each."""
    # Where the lowest total wins (Hearts), being behind is being higher.
    sign = -1 if sheet.game.lowest_wins(sheet.table) else 1
    code = sheet.match.code

    def behind(totals: Sequence[int]) -> int:
        best = max(sign * t for at, t in enumerate(totals) if at != position)
        return best - sign * totals[position]

    totals = sheet.state.totals
    if len(totals) < 2:
        return
    margin = -behind(totals)
    if tally.biggest_win is None or margin > tally.biggest_win.value:
        others = [t for at, t in enumerate(totals) if at != position]
        # Each total as the language writes it: a score below zero reads "25–-225" in Arabic
        # too, its sign at its digits (it read "25--225", the sign beside the dash).
        shown = "–".join(number(t) for t in [totals[position], *others])
        tally.biggest_win = Feat(margin, code, shown=shown)
    deficit = max((behind(running) for running in sheet.state.running), default=0)
    if deficit > 0 and (tally.comeback is None or deficit > tally.comeback.value):
        tally.comeback = Feat(deficit, code)


def _series(
    sheets: Sequence[Sheet],
    places: dict[int, int],
    series: dict[int, Series],
    overall: Tally,
    per_game: dict[str, Tally],
) -> None:
    """Count the series this phone played in (two matches or more by the last it played) and
    those its side won: more of their matches than any other side's. A series it left and came
    back to is judged once, where it played last."""
    judged: dict[int, tuple[Sheet, Series]] = {}
    for sheet in sheets:  # oldest first: the last kept for each series is where it played last
        one = series.get(sheet.match.id)
        if one is not None and one.matches >= 2 and sheet.match.id in places:
            judged[one.first] = (sheet, one)
    for sheet, one in judged.values():
        won = one.leaders == (places[sheet.match.id],)
        for tally in (overall, per_game[sheet.match.game]):
            tally.series += 1
            tally.series_won += won
