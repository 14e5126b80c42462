"""How many matches a phone and an address may create: a host makes one for each table, a
rematch goes through its own button, and a café's hosts share one address; a script making
matches by the hundred (each a row, each a place for its streams: stream_caps.py) is no host.

Every New match counts here, Home's and a group's alike (refused_new_match). Past
NEW_MATCHES_PER_PHONE (the phone's cookie; a phone with none yet is counted by its address
alone) or NEW_MATCHES_PER_ADDRESS (an IPv6 address by its /64), the New match form is shown
again with what was typed and a line in the phone's language saying how long to wait,
answered 429 with Retry-After (TooMany). The defaults are far above a host at a café
creating a match a minute (60 an hour) all evening.

Counted as the guessed codes are (guesses.py): by the `limits` library in the storage
RATELIMIT_STORAGE_URI names, shared by every worker and server in Redis; in memory each worker
counts alone and allows its share.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass

import limits
from flask import Flask, Response, current_app, make_response, request
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from scorekeeper import figures
from scorekeeper.stream_caps import network
from scorekeeper.words import setup as words

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    """Give the app its counter of new matches, in the configured storage."""
    storage = limits.storage.storage_from_string(app.config["RATELIMIT_STORAGE_URI"])
    app.extensions["new_matches"] = FixedWindowRateLimiter(storage)


def _counts(phone: str | None) -> list[tuple[limits.RateLimitItem, tuple[str, ...]]]:
    """Each limit a new match of this phone counts against, with where its count is kept."""
    config = current_app.config
    prefix = config["RATELIMIT_KEY_PREFIX"]
    address = network(request.remote_addr)
    where = [(config["NEW_MATCHES_PER_ADDRESS"], (prefix, "new-match", address))]
    if phone:
        # Hashed: the store never holds what a phone's cookie names it by.
        hashed = hashlib.blake2s(phone.encode(), digest_size=12).hexdigest()
        where.append((config["NEW_MATCHES_PER_PHONE"], (prefix, "new-match-phone", hashed)))
    counter: FixedWindowRateLimiter = current_app.extensions["new_matches"]
    workers = int(config.get("SERVER_WORKERS", 1))
    counts: list[tuple[limits.RateLimitItem, tuple[str, ...]]] = []
    for rules, key in where:
        for rule in limits.parse_many(rules):
            if isinstance(counter.storage, MemoryStorage):
                # Each worker counts alone: each allows its share (guesses.py does the same).
                rule = type(rule)(max(1, rule.amount // workers), rule.multiples)
            counts.append((rule, key))
    return counts


def wait_before_creating(phone: str | None) -> int | None:
    """Count a new match of this phone from this address: None if it may be made, else the
    seconds until every limit it used up lets it (and nothing is counted)."""
    if not current_app.config["RATELIMIT_ENABLED"]:
        return None
    counter: FixedWindowRateLimiter = current_app.extensions["new_matches"]
    try:
        counts = _counts(phone)
        used_up = [(rule, key) for rule, key in counts if not counter.test(rule, *key)]
        if not used_up:
            for rule, key in counts:
                counter.hit(rule, *key)
            return None
        resets = [counter.get_window_stats(rule, *key).reset_time for rule, key in used_up]
    except Exception:
        # A storage that is down must not keep a table from starting: the limit is a brake on
        # scripts, not part of the score.
        log.warning("new matches not counted: storage unreachable", exc_info=True)
        return None
    return max(1, math.ceil(max(resets) - time.time()))


@dataclass(frozen=True)
class TooMany:
    """A new match refused by the limits: the seconds to wait, and the words saying so."""

    seconds: int

    @property
    def message(self) -> str:
        """How long to wait, in the phone's language (in whole minutes)."""
        return words.wait_to_make(max(1, math.ceil(self.seconds / 60)))

    def answer(self, page: str) -> Response:
        """The New match form drawn again with the message (`page`): 429, with Retry-After."""
        figures.refused("too_many_requests")
        response = make_response(page, 429)
        response.headers["Retry-After"] = str(self.seconds)
        return response


def refused_new_match(phone: str | None) -> TooMany | None:
    """Count a new match of this phone, from Home or from a group: None if it may be made,
    else the refusal to show on its form."""
    wait = wait_before_creating(phone)
    return None if wait is None else TooMany(wait)
