"""The baseline: a bare Flask app with one constant route, served under the same gunicorn."""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/")
def index() -> str:
    """A constant string: what one request costs before Scorekeeper does any work."""
    return "ok"
