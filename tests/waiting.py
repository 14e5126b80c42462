"""Waiting in tests: on a condition, checked every moment until it holds or time is up, never
for a fixed time."""

from __future__ import annotations

import time
from collections.abc import Callable

# How often a condition is checked again while it does not hold.
EVERY = 0.05


def wait_until(condition: Callable[[], object], seconds: float) -> bool:
    """Whether the condition came true within the time given (checked once more at the end)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(EVERY)
    return bool(condition())
