"""The games' words: what scorekeeper/games names by a code (a Term: a game's name, a field's
label, a breakdown line) or finds wrong (a Problem: a calculator's refusal, a hand that doesn't
add up, an entry that can't stand beside another side's), worded here, once, in the language of
the phone that reads them.

The rules import nothing from Flask or Babel (tests/unit/test_registry.py): they name, this
module says. words.init_app gives say() to the rules (games.word_with), so str() of a Term and a
template showing one word it as Flask-Babel's lazy strings did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext, pgettext

from scorekeeper.games import GAMES, Problem, Said, Term

# A wording: the term's or the problem's args (numbers by name, names and labels worded) to
# its words.
Wording = Callable[[Mapping[str, Any]], str]


def listed(items: Iterable[str]) -> str:
    """Several things in a row, as the phone's language separates them ("a, b, c"; Arabic
    "a، b، c"): every list a sentence names, here and in the templates (the same words)."""
    # NOTE: what separates the items of a list ("Ana 61 → 70, Bea 59 → 50"), with its space.
    return pgettext("list separator", ", ").join(items)


def say(said: Term | Problem | str) -> str:
    """A term or a problem in the reader's words (a plain string, a side's name or a card's
    sign "2♣", as it is)."""
    if isinstance(said, str):
        return said
    wording = TERMS[said.code] if isinstance(said, Term) else PROBLEMS[said.code]
    return wording({key: _worded(value) for key, value in said.args})


def _worded(value: Any) -> Any:
    """An arg as a wording takes it: a term or a problem in words, pairs of a side's name and
    its count as "Side 1 3", numbers as they are."""
    if isinstance(value, Term | Problem):
        return say(value)
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return listed(f"{say(name)} {count}" for name, count in value)
    return value


_SHARED_TERMS: dict[str, Wording] = {
    # How a table is seated (TableFormat).
    "format.2": lambda a: _("2 head to head"),
    "format.2v2": lambda a: _("4 in 2 partnerships"),
    "format.3": lambda a: _("3 each for themselves"),
    "format.3v3": lambda a: _("6 in 2 teams of 3"),
    "format.free": lambda a: _("2 to 8 sides, named freely"),
    # A row of the score sheet, and the row under it.
    # NOTE: A row of the score sheet, one deal of the cards, as a title: "Hand 3".
    "hand": lambda a: _("Hand"),
    # NOTE: A row of the score sheet, one deal of the cards, inside a sentence: "Correct hand 3".
    "hand.noun": lambda a: _("hand"),
    # NOTE: The row under the score sheet that adds up each side's points.
    "total": lambda a: _("Total"),
    # NOTE: A side the host did not name, by its place at the table: "Side 2".
    "side": lambda a: _("Side %(number)d", **a),
    # Targets, with what they count.
    "points": lambda a: ngettext("%(num)d point", "%(num)d points", **a),
    # The target after "to", as the sheet's heading says it after the game's name ("to 101
    # points"): its own words, since a language may say the number differently there (Arabic:
    # «حتى جولتين»).
    # NOTE: A match's target after its game's name: "(game) to 101 points".
    "to.points": lambda a: ngettext("to %(num)d point", "to %(num)d points", **a),
    # NOTE: Some hands of the score sheet by their numbers, inside a sentence: "hands 1–3, 5"
    # (%(num)d is how many there are, %(numbers)s their numbers).
    "hands.numbered": lambda a: ngettext("hand %(numbers)s", "hands %(numbers)s", **a),
    # Table rules and their choices.
    # NOTE: Whether a table plays a rule: off (not played) or on (played).
    "rule.off": lambda a: _("Off"),
    "rule.on": lambda a: _("On"),
    # What a calculator counts, a breakdown's lines and a hand's checks name.
    "cards": lambda a: _("Cards"),
    "cards_captured": lambda a: _("Cards captured"),
    "aces": lambda a: _("Aces"),
    "jacks": lambda a: _("Jacks"),
    # NOTE: The Spanish deck's jack (sota), not the French deck's.
    "jacks.spanish": lambda a: pgettext("the Spanish deck", "Jacks"),
    "threes": lambda a: _("Threes"),
    "kings": lambda a: _("Kings"),
    # NOTE: The Spanish deck's horse (caballo), the card between the jack and the king.
    "horses": lambda a: _("Horses"),
    "clubs": lambda a: _("Clubs"),
    "most_cards": lambda a: _("Most cards"),
    # NOTE: An answer to the calculator's question "Most cards": this side does not have them.
    "most_cards.no": lambda a: _("No"),
    "most_cards.alone": lambda a: _("Yes, alone"),
    "most_cards.tied": lambda a: _("Tied for most"),
    # NOTE: Breakdown lines: the most cards (%(num)d, always 27, or more) and the most clubs
    # (%(num)d, always 7, or more).
    # NOTE: A breakdown line: the most cards, %(num)d (always 27) or more.
    "most_cards.over": lambda a: _("Most cards (%(num)d+)", **a),
    # The calculator's hints beside its fields.
    "points_each": lambda a: ngettext("%(num)d point each", "%(num)d points each", **a),
    # NOTE: What each one is worth, in points: "10 each".
    "each": lambda a: _("%(points)d each", **a),
    # The 40-card packs' games (games/forty.py): a side's best card in each suit.
    # NOTE: A calculator field: a side's best card in one suit; %(suit)s is the suit's name.
    "best_in": lambda a: _("Best card in %(suit)s", **a),
    # NOTE: Answers to "Best card in a suit": no card of that suit at all, or a card.
    "card.none": lambda a: _("None in this suit"),
    "card.ace": lambda a: _("Ace"),
    "card.king": lambda a: _("King"),
    # NOTE: The Spanish and Italian pack's horse (caballo, cavallo), between the jack and king.
    "card.horse": lambda a: _("Horse"),
    # NOTE: The Spanish and Italian pack's jack (sota, fante).
    "card.jack": lambda a: pgettext("the Spanish deck", "Jack"),
    "hint.forty.alone": lambda a: _("Alone: 1 point; nobody scores a tie"),
    # NOTE: A table rule: what happens when several sides pass the target in the same hand.
    "rule.same_hand": lambda a: _("Several past the target in one hand"),
    "rule.same_hand.higher": lambda a: _("The higher total wins; level, play on"),
}


def _answered(a: Mapping[str, Any]) -> str:
    """A side's calculator quoted: its answer to "Most cards", with its cards captured."""
    said = {"answer": a["answer"], "question": _("Most cards"), "num": a["num"]}
    if "side" not in a:
        # NOTE: Quoting a side's calculator: %(answer)s is its answer ("Yes, alone") to
        # the question %(question)s ("Most cards").
        return ngettext(
            "You answered “%(answer)s” to “%(question)s”, with %(num)d card captured.",
            "You answered “%(answer)s” to “%(question)s”, with %(num)d cards captured.",
            **said,
        )
    # NOTE: as the sentence before, of another side (%(side)s, its name).
    return ngettext(
        "%(side)s answered “%(answer)s” to “%(question)s”, with %(num)d card captured.",
        "%(side)s answered “%(answer)s” to “%(question)s”, with %(num)d cards captured.",
        side=a["side"],
        **said,
    )


def _counted(a: Mapping[str, Any]) -> str:
    """A side's cards captured, as its calculator counted them."""
    if "side" not in a:
        return ngettext(
            "You counted %(num)d card captured.", "You counted %(num)d cards captured.", **a
        )
    return ngettext(
        "%(side)s counted %(num)d card captured.", "%(side)s counted %(num)d cards captured.", **a
    )


def _ticked(a: Mapping[str, Any]) -> str:
    """A plain entry's tick quoted back, ticked, by whom."""
    if "side" not in a:
        # NOTE: %(tick)s is a tick's label on the entry form ("Cards split evenly (26–26)").
        return _("You ticked “%(tick)s”.", **a)
    # NOTE: %(side)s is a side's name, %(points)s what it entered, %(tick)s a tick's label.
    return _("%(side)s entered %(points)s and ticked “%(tick)s”.", **a)


def _not_ticked(a: Mapping[str, Any]) -> str:
    """A plain entry's tick quoted back, not ticked, by whom."""
    if "side" not in a:
        return _("You did not tick “%(tick)s”.", **a)
    return _("%(side)s entered %(points)s and did not tick “%(tick)s”.", **a)


def _both_said(a: Mapping[str, Any]) -> str:
    """Two sides' words that can't both be true, and what to do about it."""
    if "me" not in a:
        # NOTE: %(side)s is the other side's name.
        end = _(
            "Only one of these can be true: check with %(side)s; if theirs is wrong, the host "
            "can correct it.",
            side=a["side"],
        )
    else:
        # NOTE: said to the host, who writes the cells of both sides (%(side)s and %(other)s).
        end = _(
            "Only one of these can be true: make %(side)s and %(other)s agree.",
            side=a["me"],
            other=a["side"],
        )
    return f"{a['mine']} {a['theirs']} {end}"


def _over_the_pack(a: Mapping[str, Any]) -> str:
    """A count past the pack beside the other sides' counts: to the side's own phone, or to
    the host writing its cell (who named it: `me`)."""
    said = {key: value for key, value in a.items() if key != "me"}
    if a.get("me") is None:
        # NOTE: "Aces: Side 1 3 already, and your 2 would make 5; there are only 4." %(what)s
        # is what was counted; %(named)s each other side's name and count.
        return _(
            "%(what)s: %(named)s already, and your %(own)d would make %(got)d; "
            "there are only %(total)d.",
            **said,
        )
    # NOTE: as the sentence before, to the host writing the cell of %(me)s (a side's name):
    # "Cards: Ben 26 already, and Ana 27 would make 53; there are only 52."
    return _(
        "%(what)s: %(named)s already, and %(me)s %(own)d would make %(got)d; "
        "there are only %(total)d.",
        **a,
    )


def _answered_count(a: Mapping[str, Any]) -> str:
    """A side's answer to a contest of the 40-card games quoted, with the count behind it."""
    if "side" not in a:
        # NOTE: Quoting a side's calculator: %(answer)s is its answer ("Yes, alone") to the
        # question %(question)s ("Most oros"); %(what)s is the count ("Oros") and %(num)d it.
        return _("“%(question)s”: you answered “%(answer)s”; %(what)s: %(num)d.", **a)
    # NOTE: as the sentence before, of another side (%(side)s, its name).
    return _("“%(question)s”: %(side)s answered “%(answer)s”; %(what)s: %(num)d.", **a)


def _answered_best(a: Mapping[str, Any]) -> str:
    """A side's answer to who took the primiera (or primera), with its total."""
    if "side" not in a:
        # NOTE: %(question)s is the question ("Primiera"); %(num)d the side's total (e.g. 78).
        return _("“%(question)s”: you answered “%(answer)s”, with %(num)d.", **a)
    return _("“%(question)s”: %(side)s answered “%(answer)s”, with %(num)d.", **a)


def _answered_no_best(a: Mapping[str, Any]) -> str:
    """A side's answer to who took the primiera, with no card in some suit."""
    if "side" not in a:
        return _("“%(question)s”: you answered “%(answer)s”, with no card in some suit.", **a)
    return _("“%(question)s”: %(side)s answered “%(answer)s”, with no card in some suit.", **a)


_SHARED_PROBLEMS: dict[str, Wording] = {
    # A calculator's count it can't take (CountError).
    # NOTE: %(label)s is a calculator field's label ("Aces", "Cards captured").
    "not_whole": lambda a: _("%(label)s: enter a whole number.", **a),
    # NOTE: %(label)s is a calculator field's label ("Aces", "Cards captured").
    "below": lambda a: _("%(label)s can't be below %(minimum)d.", **a),
    # NOTE: "5 aces? There can be at most 4." %(what)s is the calculator field's
    # label in lower case ("aces", "cards captured"), as it is translated.
    "too_many": lambda a: ngettext(
        "%(num)d %(what)s? There can be at most %(most)d.",
        "%(num)d %(what)s? There can be at most %(most)d.",
        num=a["num"],
        what=a["what"].lower(),
        most=a["most"],
    ),
    # NOTE: %(label)s is a calculator field's label ("2♣", "Last Hand").
    "yes_or_no": lambda a: _("%(label)s: either yes (1) or no (0).", **a),
    # NOTE: %(label)s is a calculator field's label ("Most cards").
    "pick_a_choice": lambda a: _("%(label)s: pick one of the choices given.", **a),
    "scoring_cards_over": lambda a: ngettext(
        "That makes %(num)d scoring card in a pile of %(cards)d cards captured.",
        "That makes %(num)d scoring cards in a pile of %(cards)d cards captured.",
        **a,
    ),
    "too_few_for_most": lambda a: ngettext(
        "With %(num)d card you can't hold the most; it takes %(least)d.",
        "With %(num)d cards you can't hold the most; it takes %(least)d.",
        **a,
    ),
    "most_alone": lambda a: ngettext(
        "%(num)d card is more than half the pack: most, alone.",
        "%(num)d cards is more than half the pack: most, alone.",
        **a,
    ),
    # A hand that doesn't add up across sides (HandResult.problems).
    # NOTE: A side's name, then what is wrong with its counts.
    "side_counts": lambda a: _("%(side)s: %(problem)s", **a),
    # NOTE: %(what)s is a single card or event: "2♣", "10♦", "Last Hand".
    "unclaimed": lambda a: _("No side claimed the %(what)s; exactly one should", **a),
    # NOTE: %(what)s is a single card or event: "2♣", "10♦", "Last Hand".
    "claimed_by": lambda a: ngettext(
        "The %(what)s is claimed by %(num)d side, not 1",
        "The %(what)s is claimed by %(num)d sides, not 1",
        **a,
    ),
    # NOTE: "Aces add up to 5, not 4": %(what)s is what was counted ("Cards", "Aces").
    "add_up": lambda a: _("%(what)s add up to %(got)d, not %(total)d", **a),
    # NOTE: %(counts)s is each side's card count, as "20, 16, 16".
    "most_cards_claims": lambda a: _(
        "Most cards: the claims don't match the card counts (%(counts)s)",
        counts=listed(str(count) for count in a["counts"]),
    ),
    # An entry that can't stand beside another side's in the same hand (Conflict).
    # NOTE: %(side)s is a side's name; %(what)s a single card or event: "2♣", "Last Hand".
    "taken_already": lambda a: _("%(side)s has the %(what)s already: only one side can.", **a),
    "over_the_pack": _over_the_pack,
    # The 40-card packs' games (games/forty.py).
    "best_sevens": lambda a: ngettext(
        "%(num)d of your best cards is a 7, but the sevens say %(sevens)d.",
        "%(num)d of your best cards are 7s, but the sevens say %(sevens)d.",
        **a,
    ),
    "best_coins": lambda a: _(
        "The best card in the coins suit and the coins counted disagree: one says none."
    ),
    "best_seven_coins": lambda a: _("With the 7 of coins, your best card in that suit is the 7."),
    "best_cards": lambda a: ngettext(
        "Your best cards are %(num)d card, more than the cards captured.",
        "Your best cards are %(num)d cards, more than the cards captured.",
        **a,
    ),
    # NOTE: %(card)s is the 7 of coins by its name ("7 of oros (velo)").
    "seven_coins_is_a_coin": lambda a: _("%(card)s: count it with your coins too.", **a),
    "seven_coins_is_a_seven": lambda a: _("%(card)s: count it with your sevens too.", **a),
    # NOTE: %(card)s is the 7 of coins by its name ("7 of oros (velo)").
    "all_coins_hold": lambda a: _("All ten coins hold the %(card)s: tick it too.", **a),
    "all_sevens_hold": lambda a: _("All four sevens hold the %(card)s: tick it too.", **a),
    "primiera_missing_suit": lambda a: _(
        "A side with no card in some suit can't take the primiera."
    ),
    # NOTE: %(what)s is the question: "Most oros", "Primiera".
    "contest_answers": lambda a: _("%(what)s: the answers don't match the counts", **a),
    "answered_count": _answered_count,
    "answered_best": _answered_best,
    "answered_no_best": _answered_no_best,
    "answered": _answered,
    "counted": _counted,
    "ticked": _ticked,
    "not_ticked": _not_ticked,
    "both_said": _both_said,
}


def _wording(words: Said) -> Wording:
    """A game's declared words as a wording, in the reader's language."""
    if words.plural is None:
        return lambda a: _(words.text, **a)
    plural = words.plural
    return lambda a: ngettext(words.text, plural, **a)


def _with_the_games(
    shared: dict[str, Wording], declared: Iterable[tuple[str, Mapping[str, Said]]]
) -> dict[str, Wording]:
    """The words every game shares, and each game's own (Game.words): a code is one game's,
    or shared, never two meanings."""
    every = dict(shared)
    for game, words in declared:
        for code, said in words.items():
            if code in every:
                raise ValueError(f"{game} declares words for {code!r}, which already has some")
            every[code] = _wording(said)
    return every


# The games New match offers, and those whose words are in place before it offers them.
_WORDED = tuple(GAMES.values())
TERMS = _with_the_games(_SHARED_TERMS, ((g.key, g.words) for g in _WORDED))
PROBLEMS = _with_the_games(_SHARED_PROBLEMS, ((g.key, g.problem_words) for g in _WORDED))
