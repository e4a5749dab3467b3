"""What a spectator must not see at one version of a game, and a check of a page's HTML for it.

The browser spectator test (``test_browser_spectator.py``) records the page's whole HTML after
every update; afterwards the game's replay (public once it is over: seeds and all) is played
again here with the engine, so the hidden cards of *each* version are known exactly.

Hidden from a spectator (risk/rules/views.py, design.md section 2): every seat's Risk and poker
hands, the cards of a poker hand not yet shown, and the order of both decks. A Risk card revealed
for a mobilization bonus is public though it stays in the hand (``revealed`` in every view). A
card that the spectator has been shown (in its view or in an event it received up to that
version) is public from then on, whatever pile it went back to, so it is left out of the check.

How a leak is recognised in HTML:

* poker cards ("Qs", "Td", ...) as whole tokens (no letter or digit either side), case kept,
  or as the poker table shows them (the face "Q\u2660"): a hidden
  card anywhere in the text or in an attribute value is a leak;
* Risk cards are territory names, which the board shows anyway, so a name alone proves nothing;
  a hand (or the top of the deck) shown does: a hidden card drawn as a card (the text of an
  element whose class names a card, such as forms_cards.js's ``risk-card``, or a ``data-card``
  attribute), or two hidden cards of one hand (or the next two of the deck) written as a list,
  next to each other with only a list separator between them.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from combat.poker.cards import DECK as POKER_DECK
from games.play.seeds import engine_seed
from risk.rules import GameState, Options, action_from_dict, apply, game_dice, new_game
from risk.rules.views import events_for, view_for

#: Between two cards of a list as a page would write it ("a, b", "a; b", "a | b", "a / b").
SEPARATOR = r"\s*[,;|/]\s*"


@dataclass
class Hidden:
    """The cards hidden from a spectator at one version."""

    poker: set[str] = field(default_factory=set)
    #: Each seat's Risk hand (the cards not revealed).
    risk_hands: dict[str, list[str]] = field(default_factory=dict)
    #: The next cards of the Risk deck, in order.
    risk_deck_top: list[str] = field(default_factory=list)
    #: What the spectator had been shown (views and events, JSON): a list of territories it
    #: already holds ("Egypt", "India" in an event) is no leak when a page writes it again.
    public_text: str = ""


@dataclass
class Public:
    """What a spectator has been shown by one version: every view and every event so far (as
    JSON text), and the Risk cards named as cards in them (turned in, revealed, cut)."""

    text: str
    risk_cards: set[str]


def states_by_version(replay: Mapping[str, Any]) -> dict[int, tuple[GameState, Public]]:
    """The game of a ``GET /api/games/{id}/replay`` body played again: for each game version, the
    state and what a spectator had been shown by then."""
    seed = engine_seed(replay["server_seed"], replay["client_seeds"])
    state = new_game(replay["players"], seed=seed, options=Options.from_dict(replay["options"]))
    public: list[str] = []
    shown: set[str] = set()
    # A game's version is the number of its log entries (games.play.write): entry n makes
    # version n. (``GameState.version`` is the schema's, another thing.)
    out = {0: (state, Public(json.dumps(view_for(state, None)), set()))}
    # every view so far, not only the newest: a hand shown at a showdown is no secret afterwards
    public.append(out[0][1].text)
    for entry in replay["entries"]:
        state, _ = apply(state, action_from_dict(entry["action"]), game_dice(state))
        seen = events_for(state, entry["events"], None)
        public.append(json.dumps(seen))
        shown |= {card for event in seen for card in _risk_cards_named(event)}
        view = view_for(state, None)
        shown |= {card for seat in view["seats"] for card in seat["revealed"]}
        public.append(json.dumps(view))
        out[entry["sequence"]] = (state, Public("".join(public), set(shown)))
    return out


def _risk_cards_named(event: Mapping[str, Any]) -> list[str]:
    """Risk cards an event shows as cards: a turn-in's and a reveal's ``cards``, a
    mobilization's ``revealed``, a cut's ``card`` (poker events' cards are poker cards)."""
    if event.get("type") not in ("turned_in", "revealed", "mobilized", "cut"):
        return []
    named = [*event.get("cards", []), *event.get("revealed", [])]
    return named + ([event["card"]] if isinstance(event.get("card"), str) else [])


def hidden_at(state: GameState, public: Public) -> Hidden:
    """The cards ``state`` hides from a spectator, less those ``public`` has shown (once shown,
    a card is no secret, though it went back into a hand)."""
    shown = set(re.findall(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])", public.text))
    poker = {card for seat in state.seats for card in seat.poker_cards}
    poker |= set(state.poker_deck.draw) | set(state.poker_deck.discard)
    contest = state.contest
    if contest is not None and contest.hand is not None:
        poker |= set(re.findall(r"[2-9TJQKA][cdhs]", json.dumps(_plain(contest.hand))))
    # Cards revealed for a mobilization bonus stay in the hand but are public (``revealed`` in
    # every view, RULES.md M-rules): the hand less those (as a multiset: wild cards repeat).
    concealed = {
        s.id: [c for c in (Counter(s.risk_cards) - Counter(s.revealed)).elements()
               if c not in public.risk_cards]
        for s in state.seats
    }  # fmt: skip
    hands = {seat: cards for seat, cards in concealed.items() if cards}
    return Hidden(
        poker=(poker & set(POKER_DECK)) - shown,
        risk_hands=hands,
        risk_deck_top=[c for c in state.risk_deck.draw[:3] if c not in public.risk_cards],
        public_text=public.text,
    )


def leaks(html: str, hidden: Hidden) -> list[str]:
    """What of ``hidden`` the HTML shows (empty: nothing)."""
    found = [
        f"poker card {card}"
        for card in sorted(hidden.poker)
        if any(re.search(pattern, html) for pattern in _poker_patterns(card))
    ]
    drawn = _card_texts(html)
    for seat, hand in sorted(hidden.risk_hands.items()):
        found += [f"{seat}'s Risk card {card}" for card in sorted(set(hand)) if card in drawn]
        pairs = [(a, b) for a in hand for b in hand if a != b]
        found += [
            f"{seat}'s Risk cards {a}, {b}"
            for a, b in pairs
            if _listed(html, a, b) and not _listed_in_public(hidden.public_text, a, b)
        ]
    top = hidden.risk_deck_top
    found += [
        f"Risk deck order {a}, {b}"
        for a, b in itertools.pairwise(top)
        if _listed(html, a, b) and not _listed_in_public(hidden.public_text, a, b)
    ]
    return found


#: How the pages write a poker card: "Qh" and its face "Q\u2665" / "10\u2666" (forms_cards.js
#: ``pokerCardFace``). Not its name ("queen of hearts"): the poker table's rule note names the
#: red queens whatever the hands hold.
SUIT_SIGNS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


def _poker_patterns(card: str) -> list[str]:
    face = ("10" if card[0] == "T" else card[0]) + SUIT_SIGNS[card[1]]
    return [rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", rf"(?<![A-Za-z0-9]){re.escape(face)}"]


class _CardTexts(HTMLParser):
    """The texts inside elements whose class names a card, and every data-card value."""

    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                      "source", "track", "wbr"})  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.texts: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("data-card"):
            self.texts.add(str(values["data-card"]).strip())
        if tag in self.VOID:
            return
        classes = (values.get("class") or "").split()
        self.stack.append(any("card" in c for c in classes) or bool(self.stack and self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1] and data.strip():
            self.texts.add(data.strip())


def _card_texts(html: str) -> set[str]:
    parser = _CardTexts()
    parser.feed(html)
    return parser.texts


def _listed(html: str, first: str, second: str) -> bool:
    """``first`` then ``second`` as whole names ("India" is not the start of "Indian", as in the
    board's lane ``Indian:Siam|Indian:Indonesia``), a list separator between them."""
    pattern = rf"(?<![A-Za-z]){re.escape(first)}{SEPARATOR}{re.escape(second)}(?![A-Za-z])"
    return re.search(pattern, html) is not None


def _listed_in_public(public_text: str, first: str, second: str) -> bool:
    """Whether the spectator was shown ``first`` then ``second`` next to each other in a JSON
    list (an event naming the territories a seat lost, ...): a page writing that list again
    shows nothing hidden, whatever the cards happen to be."""
    pattern = re.escape(json.dumps(first)) + r",\s*" + re.escape(json.dumps(second))
    return re.search(pattern, public_text) is not None


def _plain(value: Any) -> Any:
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(getattr(value, k)) for k in value.__dataclass_fields__}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Iterable) and not isinstance(value, str):
        return [_plain(v) for v in value]
    return value
