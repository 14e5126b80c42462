"""A café's Wi-Fi between a phone and the server, which the test can cut and bring back.

Playwright's `set_offline` is an emulation of the page's network that reaches a service worker
late or not at all (microsoft/playwright#2311): the worker's own fetches may still get through,
so a test of what the worker does with no connection passes or fails by the race. A relay in
front of the live server fails every connection of the browser alike, the page's and the
worker's, as a dropped Wi-Fi does: `drop()` resets the connections open and every new one until
`back()`.
"""

from __future__ import annotations

import socket
import struct
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.browser.conftest import LiveServer


def _cut(conn: socket.socket) -> None:
    """Cut off mid-way: a reset when it closes, and a thread reading it wakes now. Closed only
    by the thread that owns the pair, so no file number is reused under a reader."""
    try:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _refuse(conn: socket.socket) -> None:
    """A new connection while the Wi-Fi is down: reset at once."""
    _cut(conn)
    conn.close()


class Wifi:
    """The relay: 127.0.0.1 on a port of its own, forwarding to the live server while up."""

    def __init__(self, server: LiveServer) -> None:
        host, port = server.url.removeprefix("http://").split(":")
        self._server = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._up = True
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="wifi", daemon=True).start()

    def drop(self) -> None:
        """No connection: what is open is cut, and every new connection is refused."""
        with self._lock:
            self._up = False
            open_now, self._open = self._open, set()
        for conn in open_now:
            _cut(conn)

    def back(self) -> None:
        """The connection is back."""
        with self._lock:
            self._up = True

    def close(self) -> None:
        """The relay gone: its connections cut, its port let go."""
        self.drop()
        try:
            # Wakes the thread waiting in accept (closing alone does not, on Linux).
            self._listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                up = self._up
            if not up:
                _refuse(phone)
                continue
            try:
                server = socket.create_connection(self._server)
            except OSError:
                _refuse(phone)
                continue
            with self._lock:
                # Dropped while this connection was being made: cut with the rest.
                if not self._up:
                    _refuse(phone)
                    _refuse(server)
                    continue
                self._open.update((phone, server))
            ends = threading.Semaphore(0)
            for source, sink in ((phone, server), (server, phone)):
                threading.Thread(target=self._pump, args=(source, sink, ends), daemon=True).start()
            threading.Thread(target=self._close, args=(phone, server, ends), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, ends: threading.Semaphore) -> None:
        """One direction, until its side closes or the Wi-Fi drops."""
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            # Cut (drop), or the other side reset: the whole pair is done.
            _cut(source)
            _cut(sink)
        ends.release()

    def _close(
        self, phone: socket.socket, server: socket.socket, ends: threading.Semaphore
    ) -> None:
        """Both directions done: the pair's sockets let go."""
        ends.acquire()
        ends.acquire()
        with self._lock:
            self._open.discard(phone)
            self._open.discard(server)
        phone.close()
        server.close()
