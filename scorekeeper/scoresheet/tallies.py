"""What a phone's record (record.py) and a group's standings (standings.py) both count, counted
one way: matches played and won, in the order they ended with the wins in a row; the matches
two players played together or against each other; and which hand is a best hand."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Wins:
    """Matches played and those won: a pair of partners', or a player's against another."""

    played: int = 0
    won: int = 0

    def add(self, won: bool) -> None:
        """One more match, won or not."""
        self.played += 1
        self.won += won

    @property
    def win_share(self) -> float | None:
        """Wins over matches played (None before any)."""
        return self.won / self.played if self.played else None


@dataclass
class Run(Wins):
    """Matches played and won in the order they ended, with the wins in a row to the last
    (0 after a loss), the most in a row, and the losses in a row to the last (0 after a win)."""

    streak: int = 0
    best_streak: int = 0
    losing: int = 0

    def add(self, won: bool) -> None:
        """One more match, won or not, after those before it."""
        super().add(won)
        self.streak = self.streak + 1 if won else 0
        self.losing = 0 if won else self.losing + 1
        self.best_streak = max(self.best_streak, self.streak)


def better_hand(value: int, lowest_wins: bool, best: int | None, best_sign: int) -> bool:
    """Whether a hand of `value` points beats the best so far (`best`, or None; `best_sign` -1
    where it was best for being the lowest). Each hand is as good as its own table counts it:
    the lowest is best where the lowest total wins. A table played for the highest ranks above
    one played for the lowest: the Other game may hold both, whose hands don't compare."""
    sign = -1 if lowest_wins else 1
    return best is None or (sign > 0, sign * value) > (best_sign > 0, best_sign * best)
