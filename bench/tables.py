"""Tables played against the server as js/live.js plays them, and idle streams held to weigh them.

wrk cannot hold a stream of server-sent events open, so this is a small asyncio client of the
bench's own. Each phone of a table holds its match's stream (`/m/<code>/events`) open and, on
each ring, fetches its live part with its ETag; it fetches it once a minute anyway (the safety
fetch); each side posts its entry in turn and loads the sheet page the post redirects to, its
stream staying open and a ring while the post is on its way held until that page is in hand
(then fetched against it), as static/js/live.js does. The table's clock runs
`speed` times fast (a hand of 180 s in 18 s at 10×; the server's heartbeat is set to match), so
a few hundred tables on the wire make the load of ten times as many: the requests, rings and
heartbeats per second are those of `speed` × the tables played, only the streams held are
fewer (they are weighed on their own: idle_streams).

Every request opens a connection of its own, as a phone's fetches seconds apart do (gunicorn
keeps an idle connection 2 s): a post and the page it leads to share one. HTTP/1.1 is read by
hand (a body by Content-Length or chunked, which is all gunicorn sends). Times are from before
the connection is opened to the answer read; a stream's is to its first event.
"""

from __future__ import annotations

import asyncio
import bisect
import gzip
import html
import random
import re
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar
from urllib.parse import urlencode, urlsplit

import brotli
from flask_compress.compat import compression

from bench import fill, mix
from bench.phones import SignedPhone

# The kinds of request timed, as mix.py names them, and the stream's opening.
OPENED = "o"
KINDS = {**mix.NAMES, OPENED: "stream opened (to its first event)"}
# Streams and setup requests in flight at once: more would only queue in the listen backlog.
CONNECTING = 64
# After the last window, how long the tables play on for its posts to be delivered.
GRACE_SECONDS = 2.0
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
# Reading what Flask-Compress wrote (zstd as it has it: backports.zstd before Python 3.14).
DECODE: dict[str, Callable[[bytes], bytes]] = {
    "identity": bytes,
    "gzip": gzip.decompress,
    "deflate": zlib.decompress,
    "br": brotli.decompress,
    "zstd": compression.zstd.decompress,
}

T = TypeVar("T")


class Refused(Exception):
    """An answer other than the one the phone expected."""


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: status, headers (lower-case names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes


def page_etag(answer: Answer) -> str:
    """The ETag a match page gives its live part (data-etag), as static/js/live.js reads it: a page
    that says what a post did has no ETag header of its own."""
    encoding = answer.headers.get("content-encoding", "identity")
    if encoding not in DECODE:
        raise Refused(f"a page in {encoding}, which the bench cannot read")
    found = re.search(rb'id="live"[^>]*\bdata-etag="([^"]+)"', DECODE[encoding](answer.body))
    if found is None:
        raise Refused("a match page without its live part's ETag")
    return html.unescape(found[1].decode())


def version_of(etag: str) -> int:
    """The match version an ETag names (live.etag_for: W/"<version>-<tag>")."""
    return int(etag.split('"')[1].split("-", 1)[0])


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """A status line and headers."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    return int(head[0].split(" ", 2)[1]), headers


async def read_chunk(reader: asyncio.StreamReader) -> bytes:
    """One chunk of a chunked body; b"" for the last."""
    size = int((await reader.readline()).split(b";", 1)[0], 16)
    data = await reader.readexactly(size + 2)
    return data[:-2]


async def read_answer(reader: asyncio.StreamReader) -> Answer:
    """A whole answer."""
    status, headers = await read_head(reader)
    if status in (204, 304):
        body = b""
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        chunks = []
        while chunk := await read_chunk(reader):
            chunks.append(chunk)
        await reader.readline()
        body = b"".join(chunks)
    else:
        body = await reader.read()
    return Answer(status, headers, body)


def request_bytes(
    method: str, path: str, host: str, headers: dict[str, str], body: bytes = b""
) -> bytes:
    """One HTTP/1.1 request on the wire."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


@dataclass
class Tally:
    """Everything the phones saw: each request's kind, start and time; errors; heartbeats."""

    timed: list[tuple[str, float, float, int]] = field(default_factory=list)
    errors: int = 0
    last_error: str = ""
    heartbeats: int = 0
    rings: int = 0

    def failed(self, what: str) -> None:
        """A request or stream that went wrong: the run then measured something else."""
        self.errors += 1
        self.last_error = what


class Server:
    """Where the phones connect."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.netloc = parts.netloc

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A fresh connection."""
        return await asyncio.open_connection(self.host, self.port, limit=1 << 20)


class Phone:
    """One phone at a table: its cookie, its ETag, its stream, what versions it has shown."""

    def __init__(self, table: Table, side: int, signed: SignedPhone) -> None:
        self.table, self.side, self.signed = table, side, signed
        self.etag = ""
        # The versions of its live part it has had in hand, and since when (both ascending).
        self.versions: list[int] = []
        self.since: list[float] = []
        self.stream: asyncio.Task[None] | None = None
        self.fetching = False
        self.again = False
        # Its post on the way: a ring meanwhile waits for the page the post leads to.
        self.posting = False
        self.held = False

    def has(self, etag: str) -> None:
        """A page or live part drawn at this ETag's version is in hand now."""
        self.etag = etag
        version = version_of(etag)
        if not self.versions or version > self.versions[-1]:
            self.versions.append(version)
            self.since.append(time.monotonic())

    def had_at(self, version: int) -> float | None:
        """When it first had a live part of this version or later; None if never."""
        at = bisect.bisect_left(self.versions, version)
        return self.since[at] if at < len(self.versions) else None

    async def fetch(self, kind: str) -> None:
        """Its live part, with its ETag: 200 with the part, or 304."""
        code = self.table.code
        headers = {"Cookie": self.signed.cookie, "Accept-Encoding": ACCEPT_ENCODING}
        if self.etag:
            headers["If-None-Match"] = self.etag
        answer = await self.table.ask(kind, "GET", f"/m/{code}/live", headers, (200, 304))
        if answer is not None and answer.status == 200:
            self.has(answer.headers["etag"])

    def rung(self) -> None:
        """Its stream rang: fetch, or fetch again once the fetch in flight is done, or once
        its post is answered."""
        if self.posting:
            self.held = True
            return
        if self.fetching:
            self.again = True
            return
        self.fetching = True
        self.table.spawn(self._fetch_rung())

    async def _fetch_rung(self) -> None:
        try:
            self.again = True
            while self.again:
                self.again = False
                await self.fetch(mix.RUNG)
        finally:
            self.fetching = False

    def open_stream(self) -> None:
        """(Re)open its stream from the version it shows, as a page drawn at it does."""
        if self.stream is not None:
            self.stream.cancel()
        self.stream = self.table.spawn(self._hold(self.versions[-1]))

    async def _hold(self, since: int) -> None:
        """Hold the stream: a ring for each version past what it was told."""
        table, tally = self.table, self.table.tally
        began = time.monotonic()
        writer = None
        try:
            reader, writer = await table.server.connect()
            path = f"/m/{table.code}/events?since={since}"
            headers = {"Cookie": self.signed.cookie, "Accept": "text/event-stream"}
            writer.write(request_bytes("GET", path, table.server.netloc, headers))
            status, _ = await read_head(reader)
            if status != 200:
                raise Refused(f"stream {status}")
            buffered, first = b"", True
            while chunk := await read_chunk(reader):
                buffered += chunk
                while b"\n\n" in buffered:
                    event, buffered = buffered.split(b"\n\n", 1)
                    if first:
                        tally.timed.append((OPENED, began, time.monotonic() - began, 200))
                        first = False
                    if event.startswith(b":"):
                        tally.heartbeats += 1
                    elif b"event:" not in event and b"data:" in event:
                        tally.rings += 1
                        self.rung()
            if not table.stopping:
                tally.failed(f"stream of {table.code} ended")
        except asyncio.CancelledError:
            raise
        except (OSError, asyncio.IncompleteReadError, ValueError, Refused) as error:
            if not table.stopping:
                tally.failed(f"stream of {table.code}: {error!r}")
        finally:
            if writer is not None:
                writer.close()

    async def post(self) -> tuple[float, int] | None:
        """Its side's entry for the open hand, and the sheet page it redirects to; when the
        post was answered and the version the page showed."""
        table = self.table
        n = table.posted
        table.posted += 1
        hand = fill.SHEET_HANDS + n // fill.SIDES + 1
        form = {
            "csrf_token": self.signed.csrf,
            "key": f"{table.tag}-{table.code}-{n}",
            "hand": hand,
            "side": self.side,
            "revision": 0,
            "points": (hand * 7 + self.side * 13) % 41,
        }
        headers = {
            "Cookie": self.signed.cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept-Encoding": ACCEPT_ENCODING,
        }
        body = urlencode(form).encode()
        connection = await table.connect(mix.ENTRY)
        if connection is None:
            return None
        reader, writer = connection
        self.posting = True
        try:
            posted = await table.exchange(
                mix.ENTRY, reader, writer, "POST", f"/m/{table.code}/enter", headers, (302,), body
            )
            if posted is None:
                return None
            answered = time.monotonic()
            page = urlsplit(posted.headers.get("location", f"/m/{table.code}")).path
            cookie = posted.headers.get("set-cookie", self.signed.cookie).split(";", 1)[0]
            headers = {"Cookie": cookie, "Accept-Encoding": ACCEPT_ENCODING}
            shown = await table.exchange(mix.SHEET, reader, writer, "GET", page, headers, (200,))
        finally:
            writer.close()
            self.posting = False
        if shown is not None:
            self.has(page_etag(shown))
        if self.held:
            # Its own write's ring, most likely: against the page in hand, unchanged.
            self.held = False
            table.spawn(self.fetch(mix.SAFETY))
        if shown is None:
            return None
        return answered, version_of(page_etag(shown))


class Table:
    """Four phones at one match, playing on a clock `speed` times fast."""

    def __init__(
        self,
        server: Server,
        code: str,
        phones: list[SignedPhone],
        speed: float,
        tag: str,
        tally: Tally,
        gate: asyncio.Semaphore,
    ) -> None:
        self.server, self.code, self.speed, self.tag, self.tally = server, code, speed, tag, tally
        self.gate = gate
        self.phones = [Phone(self, side, signed) for side, signed in enumerate(phones)]
        self.posted = 0
        # (answered at, version, side) of every post.
        self.posts: list[tuple[float, int, int]] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopping = False

    def spawn(self, work: Awaitable[None]) -> asyncio.Task[None]:
        """Run `work` alongside, until the table stops."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def connect(self, kind: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        """A connection for one phone's request; None (an error counted) if refused."""
        try:
            return await self.server.connect()
        except OSError as error:
            self.tally.failed(f"{kind}: {error!r}")
            return None

    async def exchange(
        self,
        kind: str,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        method: str,
        path: str,
        headers: dict[str, str],
        expect: tuple[int, ...],
        body: bytes = b"",
        began: float | None = None,
    ) -> Answer | None:
        """One request on an open connection, timed; None (an error counted) unless answered
        as expected."""
        began = time.monotonic() if began is None else began
        try:
            writer.write(request_bytes(method, path, self.server.netloc, headers, body))
            answer = await read_answer(reader)
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            if not self.stopping:
                self.tally.failed(f"{kind} {path}: {error!r}")
            return None
        self.tally.timed.append((kind, began, time.monotonic() - began, answer.status))
        if answer.status not in expect:
            self.tally.failed(f"{kind} {path}: {answer.status} {answer.body[:300]!r}")
            return None
        return answer

    async def ask(
        self, kind: str, method: str, path: str, headers: dict[str, str], expect: tuple[int, ...]
    ) -> Answer | None:
        """One request on a connection of its own."""
        began = time.monotonic()
        connection = await self.connect(kind)
        if connection is None:
            return None
        reader, writer = connection
        try:
            return await self.exchange(
                kind, reader, writer, method, path, headers, expect, b"", began
            )
        finally:
            writer.close()

    async def sit_down(self) -> None:
        """Every phone shows the page: its live part fetched, its stream opened."""
        async with self.gate:
            for phone in self.phones:
                await phone.fetch("setup")
                if not phone.versions:
                    raise Refused(f"no live part for {self.code}: {self.tally.last_error}")
        for phone in self.phones:
            phone.open_stream()

    def play(self) -> None:
        """Start playing: the sides post in turn, each phone fetches once a minute."""
        self.spawn(self._posts())
        for phone in self.phones:
            self.spawn(self._safety(phone))

    async def _posts(self) -> None:
        every = mix.HAND_SECONDS / mix.SIDES / self.speed
        await asyncio.sleep(random.uniform(0, every))
        while True:
            phone = self.phones[self.posted % mix.SIDES]
            try:
                done = await phone.post()
            except Refused as error:
                self.tally.failed(f"post to {self.code}: {error}")
            else:
                if done is not None:
                    self.posts.append((*done, phone.side))
            await asyncio.sleep(every * random.uniform(0.5, 1.5))

    async def _safety(self, phone: Phone) -> None:
        every = mix.SAFETY_SECONDS / self.speed
        await asyncio.sleep(random.uniform(0, every))
        while True:
            if not phone.fetching:
                phone.fetching = True
                try:
                    await phone.fetch(mix.SAFETY)
                finally:
                    phone.fetching = False
            await asyncio.sleep(every)

    def delivery(self, answered: float, version: int, side: int) -> float | None:
        """Post answered → every other phone has the new live part: seconds (0 if they all had
        it first); None if one never got it."""
        had = [p.had_at(version) for p in self.phones if p.side != side]
        got = [at for at in had if at is not None]
        if len(got) < len(had):
            return None
        return max(0.0, max(got) - answered)

    async def stop(self) -> None:
        """Stop playing and close every connection."""
        self.stopping = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


@dataclass(frozen=True)
class Window:
    """What the tables did in one measured window."""

    tables: int
    seconds: float
    # (kind, seconds, status) of each request begun in the window.
    timed: list[tuple[str, float, int]]
    deliveries: list[float]
    undelivered: int
    errors: int
    last_error: str
    heartbeats: int
    rings: int


@dataclass(frozen=True)
class Levels(Generic[T]):
    """Each level's window and what `measure` found in it; the posts answered in all."""

    windows: list[tuple[Window, T]]
    posted: int


@dataclass(frozen=True)
class _Mark:
    """Where the tally stood as a window began or ended."""

    tables: int
    began: float
    heartbeats: int
    rings: int
    errors: int
    timed: int


async def play_levels(
    url: str,
    codes: list[str],
    phones: list[SignedPhone],
    levels: list[int],
    speed: float,
    settle: float,
    seconds: float,
    tag: str,
    measure: Callable[[], Callable[[], T]],
    climb: list[int] | None = None,
    held: Callable[[list[float], int], bool] = lambda timed, errors: True,
) -> Levels[T]:
    """Tables sit down, `levels[0]` of them, play for `settle` s, then for a window of
    `seconds` s measured with `measure` (started at the window's start, its result taken at
    its end); then more sit down up to the next level, and so on. Then on up the `climb`
    levels, each only while the window before it `held` (given the seconds each request of
    that window took, and its errors). After the last window they play on a little, for its
    posts to be delivered; then every stream is closed."""
    server, tally, gate = Server(url), Tally(), asyncio.Semaphore(CONNECTING)
    playing: list[Table] = []
    marks: list[tuple[_Mark, _Mark, T]] = []

    def now(level: int) -> _Mark:
        """Where the tally stands at this moment."""
        return _Mark(
            level,
            time.monotonic(),
            tally.heartbeats,
            tally.rings,
            tally.errors,
            len(tally.timed),
        )

    def timed_in(mark: _Mark, end: _Mark) -> list[tuple[str, float, int]]:
        """(kind, seconds, status) of each request begun in a window and answered by now."""
        return [
            (kind, took, status)
            for kind, began, took, status in tally.timed[mark.timed :]
            if mark.began <= began < end.began and kind != "setup"
        ]

    listed = len(levels)
    try:
        for at, level in enumerate([*levels, *(climb or [])]):
            if at >= listed and marks:
                # The last window as far as its requests are answered by now.
                opened, closed, _ = marks[-1]
                seconds_each = [took for _, took, _ in timed_in(opened, closed)]
                if not held(seconds_each, closed.errors - opened.errors):
                    break
            if level > len(codes):
                raise ValueError(f"{level} tables, {len(codes)} matches")
            new = [
                Table(server, code, phones, speed, tag, tally, gate)
                for code in codes[len(playing) : level]
            ]
            await asyncio.gather(*(table.sit_down() for table in new))
            playing += new
            for table in new:
                table.play()
            await asyncio.sleep(settle)
            mark = now(level)
            finish = measure()
            await asyncio.sleep(seconds)
            measured = finish()
            marks.append((mark, now(level), measured))
        await asyncio.sleep(GRACE_SECONDS)
    finally:
        await asyncio.gather(*(table.stop() for table in playing))
    windows = []
    for mark, end, measured in marks:
        ended = end.began
        deliveries, undelivered = [], 0
        for table in playing[: mark.tables]:
            for answered, version, side in table.posts:
                if mark.began <= answered < ended:
                    took = table.delivery(answered, version, side)
                    if took is None:
                        undelivered += 1
                    else:
                        deliveries.append(took)
        window = Window(
            tables=round(mark.tables * speed),
            seconds=ended - mark.began,
            timed=timed_in(mark, end),
            deliveries=deliveries,
            undelivered=undelivered,
            errors=end.errors - mark.errors,
            last_error=tally.last_error,
            heartbeats=end.heartbeats - mark.heartbeats,
            rings=end.rings - mark.rings,
        )
        windows.append((window, measured))
    return Levels(windows, sum(len(table.posts) for table in playing))


@dataclass(frozen=True)
class Idle:
    """Streams held open at once against one server, and what `weigh` found while they were."""

    held: int
    errors: int
    last_error: str
    opened_seconds: float


async def idle_streams(
    url: str, targets: list[tuple[str, SignedPhone]], weigh: Callable[[], T]
) -> tuple[Idle, T]:
    """Open a stream for each (code, phone), wait until every one has its first event, call
    `weigh` while they are all open, close them all."""
    server, tally, gate = Server(url), Tally(), asyncio.Semaphore(CONNECTING)
    writers: list[asyncio.StreamWriter] = []
    held = 0

    async def open_one(code: str, phone: SignedPhone) -> None:
        nonlocal held
        async with gate:
            try:
                reader, writer = await server.connect()
                writers.append(writer)
                headers = {"Cookie": phone.cookie, "Accept": "text/event-stream"}
                writer.write(request_bytes("GET", f"/m/{code}/events", server.netloc, headers))
                status, _ = await read_head(reader)
                if status != 200:
                    raise Refused(f"stream {status}")
                # The release event, its first: the stream is open and waiting on its bell.
                while b"\n\n" not in await read_chunk(reader):
                    pass
                held += 1
            except (OSError, asyncio.IncompleteReadError, ValueError, Refused) as error:
                tally.failed(repr(error))

    began = time.monotonic()
    try:
        await asyncio.gather(*(open_one(code, phone) for code, phone in targets))
        opened = time.monotonic() - began
        # Let the worker settle: the last answers written, nothing in flight.
        await asyncio.sleep(1.0)
        weighed = await asyncio.get_running_loop().run_in_executor(None, weigh)
    finally:
        for writer in writers:
            writer.close()
        await asyncio.sleep(0.5)
    return Idle(held, tally.errors, tally.last_error, opened), weighed
