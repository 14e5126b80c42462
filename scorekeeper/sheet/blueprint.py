"""The match page's blueprint, with what every page of the app may ask of it: the name this
phone gave last, and a correction's changes in words. Its routes are in the modules beside
it by job; routes.py gathers them."""

from __future__ import annotations

from flask import Blueprint

from scorekeeper.phones.identity import player_name
from scorekeeper.sheet.page import count_changes

bp = Blueprint("sheet", __name__, url_prefix="/m")
# The name this phone gave last, offered on the claim and watch form.
bp.add_app_template_global(player_name)
# What a correction changed besides the total, as a cell's trail says it.
bp.add_app_template_filter(count_changes)
