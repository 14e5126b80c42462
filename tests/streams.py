"""A phone's open stream of server-sent events, read in a thread of its own, whether it comes
from the test client or over HTTP from a real server."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable

# Long enough for a ring through the database on a busy machine; a missing ring waits it out.
RINGS_WITHIN = 5.0


class Stream:
    """The events a stream sent (dicts of their fields), in order; comments (the heartbeat)
    are counted apart. `stop` is asked after each chunk: true ends the reading."""

    def __init__(
        self, chunks: Iterable[bytes] | Iterable[str], close: Callable[[], object]
    ) -> None:
        self.events: queue.Queue[dict[str, str]] = queue.Queue()
        self.comments = 0
        # Told whenever a heartbeat (a comment) arrives.
        self._heartbeat = threading.Condition()
        self.ended = threading.Event()
        self._chunks = chunks
        self._close = close
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Split what the stream sends into events, until it ends or the test is done."""
        buffer = b""
        try:
            for chunk in self._chunks:
                # Bytes, from a server or the test client (whose typing allows text too).
                buffer += chunk.encode() if isinstance(chunk, str) else chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    lines = block.decode().split("\n")
                    if all(line.startswith(":") for line in lines):
                        with self._heartbeat:
                            self.comments += 1
                            self._heartbeat.notify_all()
                        continue
                    self.events.put(dict(line.split(": ", 1) for line in lines if ": " in line))
                if self._stop.is_set():
                    break
        except (OSError, ValueError):
            pass  # closed under the reader (an HTTP stream closed by the test)
        finally:
            self._close()
            self.ended.set()

    def next(self, within: float = RINGS_WITHIN) -> dict[str, str]:
        """The next event; fails if none comes within `within` seconds."""
        event = self._next(within)
        assert event is not None, f"no event within {within} s"
        return event

    def _next(self, within: float) -> dict[str, str] | None:
        """The next event, if one comes within `within` seconds."""
        try:
            return self.events.get(timeout=within)
        except queue.Empty:
            return None

    def ring(self, within: float = RINGS_WITHIN) -> int | None:
        """The version the next ring says, if one comes in time (the release is no ring)."""
        event = self._next(within)
        while event is not None and event.get("event") == "release":
            event = self._next(within)
        return int(event["id"]) if event is not None else None

    def quiet(self, heartbeats: int = 1, within: float = RINGS_WITHIN) -> bool:
        """Whether the stream's next `heartbeats` heartbeats come with no event before them
        (and none waiting unread): a stream with something to say says it before it says it is
        still there. Fails if the heartbeats don't come `within` seconds."""
        with self._heartbeat:
            due = self.comments + heartbeats
            came = self._heartbeat.wait_for(lambda: self.comments >= due, within)
        assert came, f"no heartbeat within {within} s"
        return self.events.empty()

    def close(self) -> None:
        """The phone closes the page: reading stops at the stream's next chunk."""
        close_all([self])


def close_all(streams: Iterable[Stream]) -> None:
    """Every phone closes its page at once: each stream's reading stops at its next chunk (a
    heartbeat at the latest), all in the same moment rather than one after another."""
    streams = list(streams)
    for stream in streams:
        stream._stop.set()
    for stream in streams:
        stream._reader.join(timeout=5)
