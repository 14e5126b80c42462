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
    # NOTE: The name of a card game: the Spanish fishing game of 15 (escoba).
    "game.escoba": lambda a: _("Escoba"),
    # NOTE: The name of a card game: Italy's fishing game (scopa).
    "game.scopa": lambda a: _("Scopa"),
    # NOTE: The name of a card game: the Levant's trick-taking game (طرنيب).
    "game.tarneeb": lambda a: _("Tarneeb"),
    # NOTE: The app's choice for a card game it has no rules for, scored in plain points.
    "game.other": lambda a: _("Other game"),
    # How a table is seated (TableFormat).
    "format.2": lambda a: _("2 head to head"),
    "format.2v2": lambda a: _("4 in 2 partnerships"),
    "format.3": lambda a: _("3 each for themselves"),
    "format.3v3": lambda a: _("6 in 2 teams of 3"),
    "format.free": lambda a: _("2 to 8 sides, named freely"),
    # NOTE: Scopa for four players in two partnerships has its own name, Scopone.
    "format.scopone": lambda a: _("Scopone: 4 in 2 partnerships"),
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
    # Escoba and Scopa (the 40-card pack).
    # NOTE: Escoba's coins suit (oros), as its players call it in every language.
    "oros": lambda a: _("Oros"),
    # NOTE: Scopa's coins suit (denari), as its players call it in every language.
    "denari": lambda a: _("Denari"),
    "sevens": lambda a: _("Sevens"),
    "sixes": lambda a: _("Sixes"),
    "fives": lambda a: _("Fives"),
    # NOTE: Escoba's point for the 7 of oros, called the velo (or guindis) by its players.
    "velo": lambda a: _("7 of oros (velo)"),
    # NOTE: Scopa's point for the 7 of denari, the settebello.
    "settebello": lambda a: _("Settebello (7 of denari)"),
    # NOTE: Escoba's sweeps: a capture that clears the table (escoba, plural escobas).
    "escobas": lambda a: _("Escobas"),
    # NOTE: Scopa's sweeps: a capture that clears the table (scopa, plural scope).
    "scope": lambda a: _("Scope"),
    # NOTE: Escoba's point for the sevens (setenta).
    "setenta": lambda a: _("Setenta"),
    # NOTE: Escoba's setenta counted by points from the best card in each suit (primera).
    "primera": lambda a: _("Primera"),
    # NOTE: Scopa's point for the best card in each suit added up (primiera).
    "primiera": lambda a: _("Primiera"),
    # NOTE: Scopa's bonus for the king of denari (re bello).
    "re_bello": lambda a: _("Re bello (king of denari)"),
    # NOTE: Scopa's bonus for the ace, 2 and 3 of denari and the run beyond (napola).
    "napola": lambda a: _("Napola"),
    "napola.run": lambda a: _("Denari in a row from the ace"),
    "most_oros": lambda a: _("Most oros"),
    "most_denari": lambda a: _("Most denari"),
    # NOTE: Breakdown lines head to head: the most oros or denari, %(num)d (always 6) or more.
    "most_oros.over": lambda a: _("Most oros (%(num)d+)", **a),
    "most_denari.over": lambda a: _("Most denari (%(num)d+)", **a),
    # NOTE: A breakdown line: the setenta for the most sevens, %(num)d (always 3) or more.
    "setenta.sevens_over": lambda a: _("Setenta (%(num)d+ sevens)", **a),
    # NOTE: Escoba's bonus points (a table rule): %(num)d (always 31) or more cards score 2.
    "bonus.cards": lambda a: _("%(num)d+ cards (bonus)", **a),
    "bonus.oros": lambda a: _("All 10 oros (bonus)"),
    "bonus.sevens": lambda a: _("All four sevens (bonus)"),
    # NOTE: A calculator field: a side's best card in one suit; %(suit)s is the suit's name.
    "best_in": lambda a: _("Best card in %(suit)s", **a),
    # NOTE: The suits of the Spanish pack, as Escoba's players call them: coins, cups,
    # swords, clubs.
    "suit.oros": lambda a: _("oros"),
    "suit.copas": lambda a: _("copas"),
    "suit.espadas": lambda a: _("espadas"),
    "suit.bastos": lambda a: _("bastos"),
    # NOTE: The suits of the Italian pack, as Scopa's players call them: coins, cups, swords,
    # clubs.
    "suit.denari": lambda a: _("denari"),
    "suit.coppe": lambda a: _("coppe"),
    "suit.spade": lambda a: _("spade"),
    "suit.bastoni": lambda a: _("bastoni"),
    # NOTE: Answers to "Best card in a suit": no card of that suit at all, or a card.
    "card.none": lambda a: _("None in this suit"),
    "card.ace": lambda a: _("Ace"),
    "card.king": lambda a: _("King"),
    # NOTE: The Spanish and Italian pack's horse (caballo, cavallo), between the jack and king.
    "card.horse": lambda a: _("Horse"),
    # NOTE: The Spanish and Italian pack's jack (sota, fante).
    "card.jack": lambda a: pgettext("the Spanish deck", "Jack"),
    "rule.setenta.sevens": lambda a: _("Most sevens (2–2: nobody)"),
    "rule.setenta.cascade": lambda a: _("Most sevens, then sixes, aces, fives"),
    "rule.setenta.primera": lambda a: _("Primera: the best card in each suit, by points"),
    "rule.escoba_bonus": lambda a: _("Bonus points: 31+ cards or all 10 oros 2, all four sevens 3"),
    "rule.opening_escoba": lambda a: _("An escoba on the opening table goes to"),
    "rule.opening_escoba.dealer": lambda a: _("The dealer"),
    # NOTE: The first player after the dealer, called "el mano" in Spanish.
    "rule.opening_escoba.mano": lambda a: _("The first player (el mano)"),
    "rule.primiera_pictures": lambda a: _("Pictures in the primiera"),
    "rule.primiera_pictures.ten": lambda a: _("10 each"),
    "rule.primiera_pictures.southern": lambda a: _("King 10, horse 9, jack 8 (the south)"),
    "rule.napola.run": lambda a: _(
        "Ace-2-3 scores 3, and 1 for each denaro that carries on the run"
    ),
    "rule.napola.to_six": lambda a: _("The same, 6 at the most"),
    "rule.napoleone": lambda a: _("All ten denari win the match (Napoleone)"),
    "rule.re_bello": lambda a: _("Re bello: the king of denari scores 1"),
    "rule.cappotto": lambda a: _("Cappotto: 7 to nothing wins the match"),
    # NOTE: A table rule of Escoba and Scopa: what happens when several sides pass the target
    # in the same hand.
    "rule.count_to_target": lambda a: _("Several past the target in one hand"),
    "rule.count_to_target.off": lambda a: _("The higher total wins; level, play on"),
    # NOTE: The hand's points are added line by line in this order; the first side to reach
    # the target wins.
    "rule.count_to_target.escobas_cards": lambda a: _(
        "The first there counting escobas, cards, oros, velo, setenta"
    ),
    "rule.count_to_target.escobas_oros": lambda a: _(
        "The first there counting escobas, oros, velo, setenta, cards"
    ),
    "rule.count_to_target.parlett": lambda a: _(
        "The first there counting cards, denari, settebello, primiera, scope"
    ),
    "hint.forty.alone": lambda a: _("Alone: 1 point; nobody scores a tie"),
    "hint.escoba.cards": lambda a: _("21 or more is the most (1); 20 is a tie"),
    "hint.escoba.oros": lambda a: _("6 or more is the most (1); 5 is a tie"),
    # NOTE: %(num)d is always 3.
    "hint.escoba.sevens": lambda a: _("%(num)d or more take the setenta (1); 2 is a tie", **a),
    "hint.escoba.escobas.dealer": lambda a: _(
        "1 each, the opening table's among them if you dealt"
    ),
    "hint.escoba.escobas.mano": lambda a: _(
        "1 each, the opening table's among them if you played first"
    ),
    "hint.scopa.cards": lambda a: _("21 or more is the most (1); 20 is a tie"),
    "hint.scopa.denari": lambda a: _("6 or more is the most (1); 5 is a tie"),
    "hint.scopa.primiera": lambda a: _(
        "The higher total of best cards (7 = 21, 6 = 18, ace 16…); a side missing a suit "
        "can't take it"
    ),
    "hint.napola": lambda a: _("Ace, 2, 3: 3 points, then 1 for each next denaro"),
    # Tarneeb.
    "bid": lambda a: _("Bid"),
    "bidders": lambda a: _("Who bid"),
    "bidders.we": lambda a: _("We did"),
    "bidders.they": lambda a: _("They did"),
    "tricks_taken": lambda a: _("Tricks taken"),
    "hint.tarneeb.tricks": lambda a: _("Your team's tricks, 0 to 13"),
    "doubled": lambda a: _("Doubled"),
    # NOTE: Answers to Tarneeb's "Doubled": not doubled, doubled (×2), redoubled (×4).
    "doubled.no": lambda a: _("No"),
    "doubled.twice": lambda a: _("Doubled (×2)"),
    "doubled.four": lambda a: _("Redoubled (×4)"),
    "hint.tarneeb.doubled": lambda a: _("The bidders' score, made or failed, ×2 or ×4"),
    "rule.egyptian_doubling": lambda a: _("Egyptian doubling (the bidders' score ×2 or ×4)"),
    "rule.defenders": lambda a: _("The other team scores its tricks"),
    "rule.defenders.on_fail": lambda a: _("Only when the bid fails"),
    "rule.defenders.always": lambda a: _("Always, made or failed"),
    # NOTE: Tarneeb's breakdown lines: the bid (%(bid)d, 7 to 12) made scores the tricks taken.
    "tarneeb.made": lambda a: _("Bid %(bid)d made: the tricks taken", **a),
    "tarneeb.failed": lambda a: _("Bid %(bid)d failed: the bid lost", **a),
    # NOTE: All 13 tricks on a bid below 13 (kaboot, كبوت).
    "tarneeb.kaboot": lambda a: _("Kaboot: all 13 tricks"),
    "tarneeb.bid_13_made": lambda a: _("Bid of 13 made"),
    "tarneeb.bid_13_failed": lambda a: _("Bid of 13 failed"),
    # NOTE: The bidders' score doubled by %(num)d (2 or 4), Egyptian doubling.
    "tarneeb.doubled": lambda a: _("Doubled ×%(num)d", **a),
    "tarneeb.set": lambda a: _("Their bid of %(bid)d failed: our tricks", **a),
    "tarneeb.set_13": lambda a: _("Their bid of 13 failed: twice our tricks"),
    "tarneeb.defended": lambda a: _("Their bid of %(bid)d made", **a),
    # The ticks (games.Tick): as the forms ask them, as a refusal quotes them, and as a cell
    # and the key under the sheet note them.
    "tick.split.label": lambda a: _("Cards split evenly (26–26): nobody took the majority"),
    "tick.split": lambda a: _("Cards split evenly (26–26)"),
    # NOTE: what a cell carries, in a sentence ("A plain total, cards split evenly.") and in
    # the key to the sheet's marks.
    "tick.split.noted": lambda a: _("cards split evenly"),
    "tick.tied.label": lambda a: _("Tied for most cards: nobody took the majority"),
    "tick.tied": lambda a: _("Tied for most cards"),
    # NOTE: as "cards split evenly", with three players: two or three tied for the most cards.
    "tick.tied.noted": lambda a: _("tied for most cards"),
    "tick.black_hand.label": lambda a: _("Black hand: we held Ace, Three and King of trumps"),
    "tick.black_hand": lambda a: _("Black hand"),
    "tick.black_hand.noted": lambda a: _("black hand"),
    "tick.last_trick": lambda a: _("Took the last trick"),
    "tick.last_trick.noted": lambda a: _("took the last trick"),
    # A hand whose tie waits for its settling tick (Game.settles), by the tick's key.
    # NOTE: Brisca: a round tied at the top; %(number)s is the round's number.
    "tie.last_trick.asked": lambda a: _("Round %(number)s is tied. Who took the last trick?", **a),
    # NOTE: Brisca: a round tied at the top; %(number)s is the round's number.
    "tie.last_trick.first": lambda a: _(
        "Round %(number)s is tied: say who took the last trick first.", **a
    ),
    # NOTE: Brisca: "Round 2: Ana took the last trick." %(side)s is a side's name.
    "tie.last_trick.said": lambda a: _("Round %(number)s: %(side)s took the last trick.", **a),
    # NOTE: Brisca: %(number)s is a round's number.
    "tie.last_trick.stale": lambda a: _(
        "Round %(number)s isn't waiting for the last trick: look at the sheet again.", **a
    ),
    # A phone's record (Game.feats).
    # NOTE: a phone's record: how many hands its side took Basra's majority (most cards).
    "majorities": lambda a: _("Majorities taken"),
    # NOTE: a phone's record: Brisca rounds its side won.
    "rounds_won": lambda a: _("Rounds won"),
    # NOTE: a phone's record: Brisca rounds tied at the top (60–60), settled by the last trick.
    "sixty_sixty": lambda a: _("Rounds tied 60–60"),
    "black_hands": lambda a: _("Black hands"),
    # NOTE: a phone's record: Escoba hands its side took the setenta.
    "setentas": lambda a: _("Setentas taken"),
    # NOTE: a phone's record: Scopa hands its side took the primiera (plural of primiera).
    "primiere": lambda a: _("Primiere taken"),
    # NOTE: a phone's record: Scopa hands its side scored a napola (plural napole).
    "napole": lambda a: _("Napole"),
    # NOTE: a phone's record: Tarneeb hands its team bid and made the bid.
    "bids_made": lambda a: _("Bids made"),
    # NOTE: a phone's record: Tarneeb hands its team took all 13 tricks (kaboot, كبوت).
    "kaboots": lambda a: _("Kaboots"),
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


def _answered_count(a: Mapping[str, Any]) -> str:
    """A side's answer to a contest of the 40-card games quoted, with the count behind it."""
    if "side" not in a:
        # NOTE: Quoting a side's calculator: %(answer)s is its answer ("Yes, alone") to the
        # question %(question)s ("Most oros"); %(what)s is the count ("Oros") and %(num)d it.
        return _("“%(question)s”: you answered “%(answer)s”; %(what)s: %(num)d.", **a)
    # NOTE: as the sentence before, of another side (%(side)s, its name).
    return _("“%(question)s”: %(side)s answered “%(answer)s”; %(what)s: %(num)d.", **a)


def _answered_primiera(a: Mapping[str, Any]) -> str:
    """A side's answer to who took the primiera, with its primiera."""
    if "side" not in a:
        # NOTE: %(question)s is "Primiera" or "Primera"; %(num)d the side's primiera (e.g. 78).
        return _("“%(question)s”: you answered “%(answer)s”, with %(num)d.", **a)
    return _("“%(question)s”: %(side)s answered “%(answer)s”, with %(num)d.", **a)


def _answered_no_primiera(a: Mapping[str, Any]) -> str:
    """A side's answer to who took the primiera, with no card in some suit."""
    if "side" not in a:
        return _("“%(question)s”: you answered “%(answer)s”, with no card in some suit.", **a)
    return _("“%(question)s”: %(side)s answered “%(answer)s”, with no card in some suit.", **a)


def _one_hand(a: Mapping[str, Any], said: str) -> str:
    """Two Tarneeb teams' results that can't be one hand's: what they entered, and why."""
    if "me" not in a:
        # NOTE: %(side)s is the other team's name, %(theirs)d what it entered for the hand,
        # %(points)d what this phone's team enters; %(why)s says why they can't both stand.
        return _(
            "%(side)s entered %(theirs)d; with your %(points)d %(why)s If theirs is wrong, "
            "the host can correct it.",
            side=a["side"],
            theirs=a["theirs"],
            points=a["points"],
            why=said,
        )
    # NOTE: said to the host, who writes both teams' cells (%(me)s and %(side)s).
    return _(
        "%(side)s entered %(theirs)d; with %(points)d for %(me)s %(why)s Make them agree.",
        side=a["side"],
        theirs=a["theirs"],
        points=a["points"],
        me=a["me"],
        why=said,
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
    # NOTE: "Aces: Side 1 3 already, and your 2 would make 5; there are only 4." %(what)s
    # is what was counted; %(named)s each other side's name and count.
    "over_the_pack": lambda a: _(
        "%(what)s: %(named)s already, and your %(own)d would make %(got)d; "
        "there are only %(total)d.",
        **a,
    ),
    # NOTE: %(named)s is each other side's name and card points ("Side 1 70").
    "past_the_deck_last": lambda a: _(
        "%(named)s already: with your %(points)d the round's card points come to "
        "%(total)d, and the deck holds %(deck)d. Yours would be %(yours)d. If theirs is "
        "wrong, the host can correct it.",
        **a,
    ),
    # NOTE: %(named)s is each other side's name and card points ("Side 1 70").
    "past_the_deck": lambda a: _(
        "%(named)s already: with your %(points)d the round's card points come to "
        "%(total)d, and the deck holds %(deck)d. If theirs is wrong, the host can correct it.",
        **a,
    ),
    # The 40-card games (Escoba, Scopa).
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
    # NOTE: %(card)s is the 7 of coins by its name ("7 of oros (velo)", "Settebello").
    "seven_coins_is_a_coin": lambda a: _("%(card)s: count it with your coins too.", **a),
    "seven_coins_is_a_seven": lambda a: _("%(card)s: count it with your sevens too.", **a),
    # NOTE: %(card)s is the 7 of coins by its name ("7 of oros (velo)", "Settebello").
    "all_coins_hold": lambda a: _("All ten coins hold the %(card)s: tick it too.", **a),
    "all_sevens_hold": lambda a: _("All four sevens hold the %(card)s: tick it too.", **a),
    "escobas_need_cards": lambda a: ngettext(
        "%(num)d escoba takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d escobas take at least %(least)d cards, but the cards captured say %(cards)d.",
        **a,
    ),
    "scope_need_cards": lambda a: ngettext(
        "%(num)d scopa takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d scope take at least %(least)d cards, but the cards captured say %(cards)d.",
        **a,
    ),
    "primiera_missing_suit": lambda a: _(
        "A side with no card in some suit can't take the primiera."
    ),
    "napola_coins": lambda a: ngettext(
        "A run of %(num)d denaro, but the denari say %(coins)d.",
        "A run of %(num)d denari, but the denari say %(coins)d.",
        **a,
    ),
    # NOTE: %(card)s is the card the run holds: "Settebello (7 of denari)", "Re bello".
    "napola_holds": lambda a: _("A run of %(num)d denari holds the %(card)s: tick it too.", **a),
    "napola_all_coins": lambda a: _("All ten denari are a run of 10."),
    # NOTE: %(what)s is the question: "Most oros", "Primiera".
    "contest_answers": lambda a: _("%(what)s: the answers don't match the counts", **a),
    "answered_count": _answered_count,
    "answered_primiera": _answered_primiera,
    "answered_no_primiera": _answered_no_primiera,
    # Tarneeb.
    "no_such_result": lambda a: _("No Tarneeb hand gives a team %(points)d.", **a),
    "both_gain": lambda a: _one_hand(
        a, _("both teams gain, and only one team gains a Tarneeb hand.")
    ),
    "both_lose": lambda a: _one_hand(
        a, _("both teams lose, and only the team that bid can lose a hand.")
    ),
    "not_one_hand": lambda a: _one_hand(a, _("the two can't come from one hand.")),
    # NOTE: %(side)s is the other team's name.
    "both_bid": lambda a: _(
        "%(side)s says it bid too: only one team wins the auction. If theirs is wrong, the "
        "host can correct it.",
        **a,
    ),
    "neither_bid": lambda a: _(
        "%(side)s says the other team bid too: one of you did. If theirs is wrong, the host "
        "can correct it.",
        **a,
    ),
    "bids_differ": lambda a: _(
        "%(side)s entered a bid of %(bid)d and you %(own)d: it is one bid. If theirs is "
        "wrong, the host can correct it.",
        **a,
    ),
    "doubling_differs": lambda a: _(
        "%(side)s entered the doubling otherwise: it is one contract. If theirs is wrong, the "
        "host can correct it.",
        **a,
    ),
    "bid_agreement": lambda a: _("The teams disagree on who bid, the bid or the doubling"),
    "hand_results": lambda a: _("%(first)d and %(second)d can't both come from one hand", **a),
    "answered": _answered,
    "counted": _counted,
    "ticked": _ticked,
    "not_ticked": _not_ticked,
    "both_said": _both_said,
}
