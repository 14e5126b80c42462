"""Guessing codes is hopeless: every look-up of a match code (or a history's code) that finds
nothing counts against the asking address, and an address that used up its misses is answered
429 (with Retry-After) for any code but those of matches its phone already sits at.

A code is 6 of 31 signs: 887,503,681 codes. With 10,000 matches live, a guess finds one with
odds of 1 in 88,750. At the default limit (20 misses an hour, 40 a day) an address guesses at
most 14,600 codes a year: one hit every 6 years or so. Phones at a real match never miss, so
they are never slowed; a phone new to a match behind an address that used up its misses (a
café's Wi-Fi with a guesser on it) waits with the guesser.

Counted by the `limits` library (what Flask-Limiter is built on) in the storage
RATELIMIT_STORAGE_URI names: redis://host:6379 to share one count between processes and
servers, kept across restarts; memory:// (the default) counts in each worker apart, each
allowing its share of the limit (gunicorn's worker tells the app how many there are), and
forgets on a restart. Flask-Limiter itself would hook into every request, the live
part's fetches and the streams included.
"""

from __future__ import annotations

import logging
import math
import time

import limits
from flask import Flask, current_app, request
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    """Give the app its counter, in the configured storage."""
    storage = limits.storage.storage_from_string(app.config["RATELIMIT_STORAGE_URI"])
    app.extensions["code_misses"] = FixedWindowRateLimiter(storage)


def _counted() -> tuple[FixedWindowRateLimiter, list[limits.RateLimitItem], tuple[str, ...]]:
    """The counter, the limits on misses, and what this address's count is kept under."""
    config = current_app.config
    counter: FixedWindowRateLimiter = current_app.extensions["code_misses"]
    where = (config["RATELIMIT_KEY_PREFIX"], "code-miss", request.remote_addr or "-")
    rules = limits.parse_many(config["CODE_MISS_LIMIT"])
    if isinstance(counter.storage, MemoryStorage):
        # Each worker counts alone in its memory: each allows its share, so that an address
        # guesses no more than the limit on the whole server (docs/operations.md, "Guessing codes").
        workers = int(config.get("SERVER_WORKERS", 1))
        rules = [type(rule)(max(1, rule.amount // workers), rule.multiples) for rule in rules]
    return counter, rules, where


def _wait(
    counter: FixedWindowRateLimiter,
    used_up: list[limits.RateLimitItem],
    where: tuple[str, ...],
) -> int:
    """Seconds until every used-up limit's window has passed."""
    resets = [counter.get_window_stats(limit, *where).reset_time for limit in used_up]
    return max(1, math.ceil(max(resets) - time.time()))


def refuse(seconds: int) -> None:
    """429, saying when to try again."""
    raise TooManyRequests(retry_after=seconds)


def count_miss() -> None:
    """A code that found no match: count it against this address; 429 once its misses are
    used up."""
    if not current_app.config["RATELIMIT_ENABLED"]:
        return
    counter, rules, where = _counted()
    try:
        used_up = [rule for rule in rules if not counter.hit(rule, *where)]
    except Exception:
        # A storage that is down must not lock the table out: the limit is a brake on
        # guessing, not part of the score.
        log.warning("code misses not counted: storage unreachable", exc_info=True)
        return
    if used_up:
        refuse(_wait(counter, used_up, where))


def used_up() -> int | None:
    """Seconds this address must wait if it has used up its misses, else None."""
    if not current_app.config["RATELIMIT_ENABLED"]:
        return None
    counter, rules, where = _counted()
    try:
        spent = [rule for rule in rules if not counter.test(rule, *where)]
    except Exception:
        log.warning("code misses not checked: storage unreachable", exc_info=True)
        return None
    return _wait(counter, spent, where) if spent else None
