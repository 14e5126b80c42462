"""History's cards, each worked out once per version of its match and kept by each process.

A card shows what every phone sees alike (game, sides and totals, result, date, chart), so one
card serves every phone at the match. Every write to a match bumps its version
(sheet/actions.py), so the card kept for the version a page has just read is the card that page
would work out: a page works out only the cards of matches new to this process or changed
since, in one batch. Each process keeps its own and trusts nothing but the version, so several
processes on several servers stay correct; each just works its cards out once.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import current_app, get_template_attribute
from markupsafe import Markup

from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.sheet.state import load_sheets
from scorekeeper.versions import NewestByMatch

# Where each app keeps its cards: two apps in one process (the tests) must not share them.
EXTENSION = "history_cards"
# Matches whose card a process keeps, a few KB each; the least recently shown go first.
MAX_CARDS = 2000


class CardCache(NewestByMatch[Markup]):
    """The newest card of each recently shown match, for one app in one process."""

    def __init__(self, max_cards: int = MAX_CARDS) -> None:
        super().__init__(max_cards)


def cards_for(listed: Sequence[tuple[int, int]]) -> list[Markup]:
    """The cards of a page's matches, listed as (id, version): kept ones as they are, the
    others worked out together."""
    cache: CardCache = current_app.extensions[EXTENSION]
    cards = {match_id: cache.get(match_id, version) for match_id, version in listed}
    missing = [match_id for match_id, card in cards.items() if card is None]
    if missing:
        matches = db.session.scalars(
            sa.select(Match).where(Match.id.in_(missing)).options(so.selectinload(Match.sides))
        ).all()
        card_of = get_template_attribute("history/_card.html", "card")
        for sheet in load_sheets(list(matches)):
            card = cards[sheet.match.id] = card_of(sheet)
            # The version read with the match, before its hands: the card shows that version
            # or a later one (on PostgreSQL each statement sees the latest commits), never older.
            cache.keep(sheet.match.id, sheet.match.version, card)
    return [card for card in (cards[match_id] for match_id, _ in listed) if card is not None]
