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

from scorekeeper.games import Problem, Term

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


TERMS: dict[str, Wording] = {
    # The games, as the home page and the create form offer them.
    # NOTE: The name of a card game.
    "game.basra": lambda a: _("Basra"),
    # NOTE: The name of a card game.
    "game.pastura": lambda a: _("Pastura"),
    # NOTE: The name of a card game.
    "game.brisca": lambda a: _("Brisca"),
    # NOTE: The name of a card game.
    "game.brasta": lambda a: _("Brasta"),
    # NOTE: The app's choice for a card game it has no rules for, scored in plain points.
    "game.other": lambda a: _("Other game"),
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
    # NOTE: A row of Brisca's score sheet, one deal of the cards, as a title: "Round 3".
    "round": lambda a: _("Round"),
    # NOTE: A row of Brisca's score sheet, one deal of the cards, inside a sentence:
    # "Correct round 3".
    "round.noun": lambda a: _("round"),
    # NOTE: The row under Brisca's score sheet that counts each side's rounds won.
    "rounds": lambda a: _("Rounds"),
    # NOTE: A side the host did not name, by its place at the table: "Side 2".
    "side": lambda a: _("Side %(number)d", **a),
    # Targets, with what they count.
    "points": lambda a: ngettext("%(num)d point", "%(num)d points", **a),
    "rounds.target": lambda a: ngettext("%(num)d round", "%(num)d rounds", **a),
    "hands.target": lambda a: ngettext("%(num)d hand", "%(num)d hands", **a),
    # The target after "to", as the sheet's heading says it ("Basra to 101 points"): its own
    # words, since a language may say the number differently there (Arabic: «حتى جولتين»).
    # NOTE: A match's target after its game's name: "Basra to 101 points".
    "to.points": lambda a: ngettext("to %(num)d point", "to %(num)d points", **a),
    # NOTE: A Brisca match's target after its game's name: "Brisca to 3 rounds".
    "to.rounds": lambda a: ngettext("to %(num)d round", "to %(num)d rounds", **a),
    # NOTE: A match's target in hands after its game's name: "Other game to 10 hands".
    "to.hands": lambda a: ngettext("to %(num)d hand", "to %(num)d hands", **a),
    # NOTE: Some hands of the score sheet by their numbers, inside a sentence: "hands 1–3, 5"
    # (%(num)d is how many there are, %(numbers)s their numbers).
    "hands.numbered": lambda a: ngettext("hand %(numbers)s", "hands %(numbers)s", **a),
    # NOTE: Some rounds of Brisca's score sheet by their numbers, inside a sentence: "rounds
    # 1–3, 5" (%(num)d is how many there are, %(numbers)s their numbers).
    "rounds.numbered": lambda a: ngettext("round %(numbers)s", "rounds %(numbers)s", **a),
    # NOTE: The names of Brasta's three targets (201, 401, 601 points): a short, a standard and a
    # long match.
    "target.quick": lambda a: _("Quick"),
    "target.standard": lambda a: _("Standard"),
    "target.pro": lambda a: _("Pro"),
    # NOTE: A Brasta target with its name, as the create form offers it: "401 Standard".
    "target.named": lambda a: _("%(target)d %(name)s", **a),
    # Table rules and their choices.
    # NOTE: Whether a table plays a rule: off (not played) or on (played).
    "rule.off": lambda a: _("Off"),
    "rule.on": lambda a: _("On"),
    "rule.carry_over": lambda a: _("Second 26–26 in a row"),
    "rule.carry_over.stack": lambda a: _(
        "Stack: the held-over 30 keeps growing (90 for the next majority)"
    ),
    "rule.carry_over.lapse": lambda a: _(
        "Lapse: only the new tie's 30 is held (a majority is never over 60)"
    ),
    "rule.three_tie": lambda a: _("Tied for most cards (3 players)"),
    "rule.three_tie.held": lambda a: _("Held over, like a 26–26 split"),
    "rule.three_tie.nobody": lambda a: _("Nobody scores the majority"),
    "rule.double_basra": lambda a: _("Double basra (a jack onto a lone jack: 20)"),
    "rule.basra_value": lambda a: _("What a basra is worth"),
    "rule.basra_value.by_card": lambda a: _("By its card: twice the face value, pictures 10"),
    "rule.seven_diamonds": lambda a: _("Seven of diamonds basra"),
    "rule.seven_diamonds.standard": lambda a: _("Numerals adding to 10 or less"),
    "rule.seven_diamonds.other": lambda a: _(
        "Under 10, or all tens and pictures, or equal groups under 10"
    ),
    "rule.black_hand": lambda a: _("Black hand (Ace, Three and King of trumps win the round)"),
    "rule.winner": lambda a: _("Who wins"),
    "rule.winner.highest": lambda a: _(
        "The first to the target (the higher when several reach it)"
    ),
    "rule.winner.lowest": lambda a: _(
        "The lowest total when a side reaches the target (as in Hearts)"
    ),
    "rule.winner.hands": lambda a: _(
        "The highest total after a number of hands: the target is that number"
    ),
    # What a calculator counts, a breakdown's lines and a hand's checks name.
    "cards": lambda a: _("Cards"),
    "cards_captured": lambda a: _("Cards captured"),
    "aces": lambda a: _("Aces"),
    "jacks": lambda a: _("Jacks"),
    # NOTE: The Spanish deck's jack (sota), not the French deck's of Basra and Pastura.
    "jacks.spanish": lambda a: pgettext("the Spanish deck", "Jacks"),
    "threes": lambda a: _("Threes"),
    "kings": lambda a: _("Kings"),
    # NOTE: The Spanish deck's horse (caballo), the card between the jack and the king.
    "horses": lambda a: _("Horses"),
    "clubs": lambda a: _("Clubs"),
    "basras": lambda a: _("Basras"),
    "double_basras": lambda a: _("Double basras"),
    "pasturas": lambda a: _("Pasturas"),
    "brastas": lambda a: _("Brastas"),
    "double_brastas": lambda a: _("Double Brastas"),
    # NOTE: Brasta's bonus for the side that makes the last capture of a hand.
    "last_hand": lambda a: _("Last Hand"),
    "failed_builds": lambda a: _("Failed builds"),
    "jack_burns": lambda a: _("Jack burns"),
    "all_aces": lambda a: _("All four aces"),
    "all_clubs": lambda a: _("All 13 clubs"),
    "most_cards": lambda a: _("Most cards"),
    # NOTE: An answer to the calculator's question "Most cards": this side does not have them.
    "most_cards.no": lambda a: _("No"),
    "most_cards.alone": lambda a: _("Yes, alone"),
    "most_cards.tied": lambda a: _("Tied for most"),
    # NOTE: Breakdown lines: the most cards (%(num)d, always 27, or more) and the most clubs
    # (%(num)d, always 7, or more).
    # NOTE: A breakdown line: the most cards, %(num)d (always 27) or more.
    "most_cards.over": lambda a: _("Most cards (%(num)d+)", **a),
    "most_clubs.over": lambda a: _("Most clubs (%(num)d+)", **a),
    "basras_made.ace": lambda a: _("Basras made with an ace"),
    "basras_with.ace": lambda a: _("Basras with an ace"),
    # NOTE: %(rank)d is a card's number, 2 to 10: "Basras made with a 7".
    "basras_made.rank": lambda a: _("Basras made with a %(rank)d", **a),
    # NOTE: %(rank)d is a card's number, 2 to 10: "Basras with a 7".
    "basras_with.rank": lambda a: _("Basras with a %(rank)d", **a),
    "basras_made.picture": lambda a: _("Basras made with a queen or king"),
    "basras_with.picture": lambda a: _("Basras with a queen or king"),
    # NOTE: A breakdown line: the majority's points with the points held over from
    # earlier ties (%(num)d).
    "majority.most_held": lambda a: ngettext(
        "Majority (most cards, %(num)d held over)", "Majority (most cards, %(num)d held over)", **a
    ),
    "majority.most": lambda a: _("Majority (most cards)"),
    # NOTE: A breakdown line: the majority (%(cards)d, always 27, or more cards) with
    # the points held over from earlier ties (%(num)d).
    "majority.cards_held": lambda a: ngettext(
        "Majority (%(cards)d+ cards, %(num)d held over)",
        "Majority (%(cards)d+ cards, %(num)d held over)",
        **a,
    ),
    # NOTE: A breakdown line: the majority, %(num)d (always 27) or more cards.
    "majority.cards": lambda a: ngettext(
        "Majority (%(num)d+ card)", "Majority (%(num)d+ cards)", **a
    ),
    # The calculator's hints beside its fields.
    "points_each": lambda a: ngettext("%(num)d point each", "%(num)d points each", **a),
    # NOTE: What each one is worth, in points: "10 each".
    "each": lambda a: _("%(points)d each", **a),
    "hint.basra.alone": lambda a: _("Alone: 30 for the majority, plus anything held over"),
    "hint.basra.cards": lambda a: _("27 or more takes the majority; 26 is a tie"),
    "hint.jack_onto_jack": lambda a: _("A jack onto a lone jack: 20"),
    "hint.pastura.alone": lambda a: _("Alone: 3 points; nobody scores a tie"),
    "hint.pastura.cards": lambda a: _("27 or more is the most (3); 26 is a tie"),
    "hint.brasta.cards": lambda a: _("27 or more: most cards, 10"),
    "hint.brasta.aces": lambda a: _("5 each; all four: 10 more"),
    "hint.brasta.clubs": lambda a: _("7 or more: most clubs, 10; all 13: 20"),
    "hint.brasta.last_hand": lambda a: _("The final capture: 10"),
    "hint.brasta.failed_builds": lambda a: _("−10 each"),
    "hint.brasta.jack_burns": lambda a: _("A jack onto an empty table: −10 each"),
    # The ticks a refusal quotes (the entry forms' labels).
    "tick.split": lambda a: _("Cards split evenly (26–26)"),
    "tick.tied": lambda a: _("Tied for most cards"),
    "tick.black_hand": lambda a: _("Black hand"),
    "tick.last_trick": lambda a: _("Took the last trick"),
    # A phone's record (Game.feats).
    # NOTE: a phone's record: how many hands its side took Basra's majority (most cards).
    "majorities": lambda a: _("Majorities taken"),
    # NOTE: a phone's record: Brisca rounds its side won.
    "rounds_won": lambda a: _("Rounds won"),
    # NOTE: a phone's record: Brisca rounds tied at the top (60–60), settled by the last trick.
    # (With three sides a tie at the top is not 60–60: 50–50–20.)
    "sixty_sixty": lambda a: _("Rounds tied at the top"),
    "black_hands": lambda a: _("Black hands"),
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


def _past_the_deck_last(a: Mapping[str, Any]) -> str:
    """The last side's card points not bringing the round to the deck's: to the side's own
    phone, or to the host writing its cell (`me`), who writes the others' too."""
    said = {key: value for key, value in a.items() if key != "me"}
    if a.get("me") is None:
        # NOTE: %(named)s is each other side's name and card points ("Side 1 70").
        return _(
            "%(named)s already: with your %(points)d the round's card points come to "
            "%(total)d, and the deck holds %(deck)d. Yours would be %(yours)d. If theirs is "
            "wrong, the host can correct it.",
            **said,
        )
    # NOTE: said to the host, who writes every side's cell: %(named)s is each other side's
    # name and card points ("Lucía 60"), %(me)s the side whose %(points)d points were typed.
    return _(
        "%(named)s already: with %(me)s %(points)d the round's card points come to "
        "%(total)d, and the deck holds %(deck)d. %(me)s would be %(yours)d; or correct "
        "whichever is wrong.",
        **a,
    )


def _past_the_deck(a: Mapping[str, Any]) -> str:
    """Card points past the deck's beside the other sides': to the side's own phone, or to
    the host writing its cell (`me`)."""
    said = {key: value for key, value in a.items() if key != "me"}
    if a.get("me") is None:
        # NOTE: %(named)s is each other side's name and card points ("Side 1 70").
        return _(
            "%(named)s already: with your %(points)d the round's card points come to "
            "%(total)d, and the deck holds %(deck)d. If theirs is wrong, the host can correct "
            "it.",
            **said,
        )
    # NOTE: said to the host, who writes every side's cell: %(named)s is each other side's
    # name and card points ("Lucía 60"), %(me)s the side whose %(points)d points were typed.
    return _(
        "%(named)s already: with %(me)s %(points)d the round's card points come to "
        "%(total)d, and the deck holds %(deck)d. Correct whichever is wrong.",
        **a,
    )


PROBLEMS: dict[str, Wording] = {
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
    "basras_in_hand": lambda a: ngettext(
        "%(num)d basra in one hand? Each side plays only %(plays)d cards.",
        "%(num)d basras in one hand? Each side plays only %(plays)d cards.",
        **a,
    ),
    "basras_need_cards": lambda a: ngettext(
        "%(num)d basra takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d basras take at least %(least)d cards, but the cards captured say %(cards)d.",
        **a,
    ),
    "double_basra_jacks": lambda a: _(
        "Each double basra takes two jacks, but the jacks say %(jacks)d.", **a
    ),
    "pasturas_need_cards": lambda a: ngettext(
        "%(num)d pastura takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d pasturas take at least %(least)d cards, but the cards captured say %(cards)d.",
        **a,
    ),
    "brastas_need_cards": lambda a: ngettext(
        "%(num)d Brasta takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d Brastas take at least %(least)d cards, but the cards captured say %(cards)d.",
        **a,
    ),
    "two_clubs_is_a_club": lambda a: _("The 2♣ is a club: count it in your clubs too."),
    "all_clubs_two": lambda a: _("All 13 clubs include the 2♣."),
    "all_clubs_ace": lambda a: _("All 13 clubs include the ace of clubs."),
    "brasta_cards": lambda a: ngettext(
        "Your clubs, aces and 10♦ are at least %(num)d cards, "
        "but the cards captured say %(cards)d.",
        "Your clubs, aces and 10♦ are at least %(num)d cards, "
        "but the cards captured say %(cards)d.",
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
    "black_hands": lambda a: ngettext(
        "%(num)d side claims a black hand; only one can hold the Ace, Three and King of trumps",
        "%(num)d sides claim a black hand; only one can hold the Ace, Three and King of trumps",
        **a,
    ),
    "last_tricks": lambda a: ngettext(
        "%(num)d side says it took the last trick; only one did",
        "%(num)d sides say they took the last trick; only one did",
        **a,
    ),
    "card_points": lambda a: _("Card points add up to %(total)d, not %(deck)d", **a),
    # An entry that can't stand beside another side's in the same hand (Conflict).
    # NOTE: %(side)s is a side's name; %(what)s a single card or event: "2♣", "Last Hand".
    "taken_already": lambda a: _("%(side)s has the %(what)s already: only one side can.", **a),
    "over_the_pack": _over_the_pack,
    "past_the_deck_last": _past_the_deck_last,
    "past_the_deck": _past_the_deck,
    "answered": _answered,
    "counted": _counted,
    "ticked": _ticked,
    "not_ticked": _not_ticked,
    "both_said": _both_said,
}
