"""The registry: one place that lists the games, in the order the create form offers them."""

from __future__ import annotations

from .base import (
    Aim,
    CalcField,
    Calculation,
    Conflict,
    CountError,
    EntryFacts,
    Goal,
    HandFacts,
    HandResult,
    Label,
    MatchState,
    PlayOn,
    Problem,
    Said,
    ScoreLine,
    Settling,
    Standing,
    Table,
    TableFormat,
    TableRule,
    Term,
    Tick,
    Tie,
    WinRule,
    Won,
    word_with,
)
from .basra import BASRA_GAME
from .brasta import BRASTA_GAME
from .brisca import BRISCA_GAME
from .escoba import ESCOBA_GAME
from .game import Game
from .other import OTHER_GAME
from .pastura import PASTURA_GAME
from .scopa import SCOPA_GAME
from .tarneeb import TARNEEB_GAME

# The four first games lead, as tables have always found them; the games added later follow in
# the order they joined, and "Other game" stays last, the way out for any game not listed.
GAMES: dict[str, Game] = {
    game.key: game
    for game in (
        BASRA_GAME,
        PASTURA_GAME,
        BRISCA_GAME,
        BRASTA_GAME,
        ESCOBA_GAME,
        SCOPA_GAME,
        TARNEEB_GAME,
        OTHER_GAME,
    )
}


def get_game(key: str) -> Game:
    """The game with this key; KeyError for one the app doesn't know."""
    return GAMES[key]


__all__ = [
    "GAMES",
    "Aim",
    "CalcField",
    "Calculation",
    "Conflict",
    "CountError",
    "EntryFacts",
    "Game",
    "Goal",
    "HandFacts",
    "HandResult",
    "Label",
    "MatchState",
    "PlayOn",
    "Problem",
    "Said",
    "ScoreLine",
    "Settling",
    "Standing",
    "Table",
    "TableFormat",
    "TableRule",
    "Term",
    "Tick",
    "Tie",
    "WinRule",
    "Won",
    "get_game",
    "word_with",
]
