"""The form a browser types another phone's history code into."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import InputRequired, Length

from scorekeeper.forms import KeyedForm


class HistoryCodeForm(KeyedForm):
    """The code the other phone shows (History, "Your history on another phone"); keyed, so a
    double tap on its button opens the history once."""

    code = StringField(
        _l("Code from your other phone"),
        validators=[
            InputRequired(message=_l("Type the code your other phone shows.")),
            Length(max=20, message=_l("A history code is 8 letters and digits.")),
        ],
        render_kw={"autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false"},
    )
