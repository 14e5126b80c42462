"""The match page and every action on it: its blueprint (sheet/blueprint.py) with its routes
in one module a job: reading the match (reading.py), keeping it (downloads.py), entries and
corrections (entering.py), and the other buttons and host tools (actions.py)."""

from __future__ import annotations

# Imported for their routes, which they add to the blueprint.
from scorekeeper.sheet import actions, downloads, entering, reading
from scorekeeper.sheet.blueprint import bp

__all__ = ["actions", "bp", "downloads", "entering", "reading"]
