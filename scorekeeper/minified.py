"""The stylesheet, the script's modules and the service worker as phones get them: minified,
from the files as they are written (the only copy: there is no built one to keep in step).

A first visit on a slow 3G (400 kbit/s) waits for every byte of the stylesheet and of the
modules: their comments and indentation were two fifths of them, compressed (issue 45). Made
by rcssmin and rjsmin, which only drop what does not change what a browser reads (comments,
spaces between tokens; strings, template literals and regular expressions kept as they are),
once per process (headers.py serves them and fingerprints what it serves)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass

import rcssmin
import rjsmin

# The files minified, by extension, and their type; every other file is served as it is.
MINIFIERS: dict[str, tuple[Callable[[str], str], str]] = {
    ".css": (rcssmin.cssmin, "text/css"),
    ".js": (rjsmin.jsmin, "text/javascript"),
}


@dataclass(frozen=True)
class Minified:
    """A file as served: its minified bytes, their type and their fingerprint."""

    body: bytes
    mimetype: str
    fingerprint: str


def minifiable(name: str) -> bool:
    """Whether a file of this name is served minified."""
    return os.path.splitext(name)[1] in MINIFIERS


def minified(path: str) -> Minified:
    """The file at `path` (a stylesheet or a script) minified; OSError if it cannot be read."""
    minify, mimetype = MINIFIERS[os.path.splitext(path)[1]]
    with open(path, encoding="utf-8") as f:
        body = minify(f.read()).encode()
    return Minified(body, mimetype, hashlib.blake2s(body, digest_size=6).hexdigest())
