"""A match's stream of server-sent events: the versions of the match, rung by its worker.

Each phone holds one stream open (version_events), which carries the match's versions and
nothing else. On a ring the page fetches its live part with its ETag (etags.py), as its safety
fetch does once a minute.

A stream holds a connection of its worker, which holds a few thousand: so a phone, an address
and a match may each hold only so many (stream_caps.py), a stream ends after a few minutes
(STREAM_LIFETIME; its phone's EventSource reconnects by itself, with Last-Event-ID), and a
stream whose phone went away is let go within a second or two: it asks the phone's socket,
without waiting, whether it was closed (an EventSource sends nothing after its request, so
anything to read there is its end) each time it wakes, which under gevent is the moment the
socket has anything to read (door), and elsewhere at least every GONE_CHECK_EVERY seconds.
Writing a heartbeat would only fail a while after the phone left, and the first may not.
"""

from __future__ import annotations

import math
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.live.fanout import MatchVersions

# A stream's comment this often (seconds): proxies and phones drop a connection silent for
# long (nginx after 60 s by default).
HEARTBEAT = 20.0
# How soon a phone's EventSource reconnects after its stream ended (a deploy, a restart).
RETRY_MS = 3000
# How long a stream lives at most (seconds; STREAM_LIFETIME): then it ends and its phone
# reconnects, so no connection is held for days by a phone long gone.
LIFETIME = 300.0
# How often a stream asks whether its phone closed the connection (seconds).
GONE_CHECK_EVERY = 1.0


def version_events(
    versions: MatchVersions,
    code: str,
    told: int,
    release: str,
    heartbeat: float = HEARTBEAT,
    lifetime: float | None = None,
    phone: socket.socket | None = None,
) -> Iterator[bytes]:
    """A match's stream of server-sent events: which release serves it (a page of another
    release reloads), then the match's version each time it moves past `told` (the event's
    id, so a reconnect's Last-Event-ID says where its phone stood), and a comment every
    `heartbeat` seconds to keep proxies and phones from taking the stream for dead. Versions
    only: each phone fetches its own live part, so nothing is drawn for a phone twice.

    It ends after `lifetime` seconds (between 80 and 100 % of it, at random, so phones don't
    come back in a herd), and as soon as its phone is gone: the phone's socket (`phone`,
    where the server gives it) is asked whether it was closed each time the stream wakes,
    which under gevent is the moment it has anything to read (door), and elsewhere at least
    every GONE_CHECK_EVERY seconds.

    Runs after the request has ended: it holds no database connection and no request, only its
    watch, which its worker's MatchVersions rings (fanout.py)."""
    start = time.monotonic()
    ends = start + lifetime * random.uniform(0.8, 1.0) if lifetime else math.inf
    watch = versions.watch(code, told)
    shut = door(phone, watch.bell)
    try:
        yield f"retry: {RETRY_MS}\nevent: release\ndata: {release}\n\n".encode()
        # Read after the watch is in place: a write committed before is seen here, one after
        # rings the watch.
        now = versions.current(code)
        if now is not None:
            versions.tell(watch, now)
        beat = start + heartbeat
        while not versions.closing:
            moment = time.monotonic()
            if moment >= ends or (phone is not None and gone(phone)):
                return
            if moment >= beat:
                beat = moment + heartbeat
                yield b": still here\n\n"
                continue
            asking = phone is not None and shut is None
            wake = min(beat, ends, moment + GONE_CHECK_EVERY) if asking else min(beat, ends)
            if not watch.bell.wait(wake - moment):
                continue
            watch.bell.clear()
            newest = watch.newest
            if newest > watch.told and not versions.closing:
                watch.told = newest
                yield f"id: {newest}\ndata: {newest}\n\n".encode()
    finally:
        if shut is not None:
            shut()
        versions.unwatch(watch)


def gone(phone: socket.socket) -> bool:
    """Whether the phone closed its end of the stream's connection: an EventSource sends
    nothing after its request, so a socket with something to read has only its end to say.
    Anything else there is junk, read and dropped, so that it neither hides the end behind
    it nor wakes the stream again (door). Asked without waiting, and the socket's timeout
    left as it was."""
    timeout = phone.gettimeout()
    try:
        phone.settimeout(0)
        return phone.recv(4096) == b""
    except BlockingIOError:
        return False  # nothing to read: the phone is still there
    except ValueError:
        return False  # a socket that can't be read so (TLS): its end shows when a write fails
    except OSError:
        return True  # reset by the phone
    finally:
        with suppress(OSError):
            phone.settimeout(timeout)


def door(phone: socket.socket | None, bell: threading.Event) -> Callable[[], None] | None:
    """Where gevent serves (its workers: gunicorn.conf.py), have its loop ring the stream's
    bell the moment the phone's socket has anything to read, which for an EventSource is its
    end: a held stream then costs nothing while it waits, where asking each socket every
    second cost thousands of held streams a tenth of a core. The watcher's stop; None where
    no gevent loop serves (a threaded server's streams ask every GONE_CHECK_EVERY seconds)."""
    if phone is None:
        return None
    try:
        from gevent import get_hub
        from gevent.monkey import is_module_patched
    except ImportError:
        return None
    if not is_module_patched("socket"):
        return None
    try:
        watcher = get_hub().loop.io(phone.fileno(), 1)  # 1: readable
    except (OSError, ValueError):
        return None
    watcher.start(bell.set)
    stop: Callable[[], None] = watcher.close
    return stop


def last_seen(last_event_id: str | None, since: str | None, version: int) -> int:
    """The version a connecting phone holds: its reconnect's Last-Event-ID, else the version
    its page was drawn at (`since`), else the match's version now; never past that (a junk or
    foreign number must not silence the stream)."""
    for given in (last_event_id, since):
        given = (given or "").strip()
        # ASCII digits only, and few: "²" is a digit to str.isdigit, not to int().
        if given.isascii() and given.isdigit() and len(given) <= 18:
            return min(int(given), version)
    return version
