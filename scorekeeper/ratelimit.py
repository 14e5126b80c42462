"""The rate limit on join-code look-ups: a phone guessing codes slows right down.

Counted by the `limits` library (what Flask-Limiter is built on) in the storage
RATELIMIT_STORAGE_URI names: memory:// for one process, redis://host:6379 to share one count
between processes and servers. Only two routes are limited, so they check it themselves:
Flask-Limiter hooks into every request, and cost a seventh of the live poll every phone makes
every two seconds.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import limits
from flask import Flask, abort, current_app, request
from limits.strategies import FixedWindowRateLimiter

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    """Give the app its counter, in the configured storage."""
    storage = limits.storage.storage_from_string(app.config["RATELIMIT_STORAGE_URI"])
    app.extensions["join_limit"] = FixedWindowRateLimiter(storage)


def join_limited(view: Callable[..., Any]) -> Callable[..., Any]:
    """Count this request against its address's JOIN_RATE_LIMIT; 429 once it is used up."""

    @functools.wraps(view)
    def counted(*args: Any, **kwargs: Any) -> Any:
        config = current_app.config
        if config["RATELIMIT_ENABLED"]:
            limit = limits.parse(config["JOIN_RATE_LIMIT"])
            counter: FixedWindowRateLimiter = current_app.extensions["join_limit"]
            try:
                allowed = counter.hit(
                    limit, config["RATELIMIT_KEY_PREFIX"], "join", request.remote_addr or "-"
                )
            except Exception:
                # A storage that is down must not lock the table out: the limit is a brake on
                # guessing, not part of the score.
                log.warning("join rate limit not counted: storage unreachable", exc_info=True)
                allowed = True
            if not allowed:
                abort(429)
        return view(*args, **kwargs)

    return counted
