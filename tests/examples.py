"""How many examples a Hypothesis test draws: its full count in `make test`; in `make test-fast`
(`--hypothesis-profile=fast`), a tenth of it, so the lane one runs while working stays quick
and the whole suite still draws every example."""

from __future__ import annotations

from hypothesis import settings

# Hypothesis' own default count, which the default profile keeps.
DEFAULT = 100

settings.register_profile("fast", max_examples=DEFAULT // 10)


def examples(full: int) -> int:
    """A test's example count: `full` under the default profile, in proportion under another
    (the fast profile: a tenth), never fewer than two."""
    return max(2, full * settings.default.max_examples // DEFAULT)
