"""Other game: any game scored in points, 2 to 8 sides named freely, no calculator."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Calculation, Table, TableFormat
from .game import PointsGame


class Other(PointsGame):
    """Plain totals toward a free target, won as Basra is."""

    key = "other"
    name = "Other game"
    # The host adds sides freely, so the format's two sides are only where the form starts;
    # min_sides and max_sides are the real bounds.
    formats = (TableFormat("free", "2 to 8 sides, named freely", sides=2),)
    min_sides = 2
    max_sides = 8
    # Empty: any positive target (accepts_target says which).
    targets = ()
    default_target = 100
    target_unit = "points"
    min_points = -9999
    max_points = 9999
    table_rules = ()

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """No calculator: nothing to count, so nothing scores (entries are plain totals)."""
        return Calculation(lines=(), total=0)


OTHER_GAME = Other()
