"""The Fast Risk move notation: one line of plain text per action, for moves by mail.

``format_action(state, action) -> str`` writes the one canonical line of an action;
``parse_action(state, player, line) -> Action`` reads a line back (raising ``InvalidAction``
whose ``field`` is the word at fault, ``word 3 'Alaskaa'``, and whose ``message`` says what was
expected); ``legal_moves_text(state, player) -> list[str]`` spells out what ``legal_actions``
offers, one line per spec, for the "your turn" mail. Parsing only reads: whether the action is
allowed now is the engine's business (``apply`` raises ``IllegalAction``). The state is needed
to resolve names: the map's territories and stations, the ships and seats on the board, the
hand a card number points into, and which decision a bare ``end`` closes.

Grammar (``|`` alternatives, ``[]`` optional, ``{}`` repeated, quoted words are keywords; one
line per action type, with an example)::

    arrange     = "arrange" territory n {territory n} "factory" territory ["ship" station]
                  arrange Alaska 3, Alberta 5, Ontario 13, factory Alaska, ship Pacific:Alaska
    turn_in     = "turn" "in" card card card ["for" ("armies" | "factory" | "ship")]
                  turn in 2 9 wild                turn in Alaska, Peru, wild for ship
    place       = "place" n territory              place 3 Alaska
    deploy      = "deploy" n territory {n territory}  deploy 3 Alaska, 2 Peru
    place_ship  = "place" "ship" station           place ship Pacific:Alaska
    attack      = "attack" source ">" territory ["committed"] n
                  attack Alaska > Kamchatka 4     attack Alaska > Kamchatka committed 8
    flanking    = "flank" source n "+" source n {"+" source n} ">" territory
                  flank Ukraine 6 + Ural 5 > Afghanistan
    naval       = "naval" (ship {"+" ship} ">" ship | ship "on" ship {ship ("on" | ">") ship})
                  ["normal" | "committed" | "flanking"] [n]
                  naval S3 > S7     naval S3 + S4 > S7 flanking 2     naval S3 on S7, S4 on S8
    roll        = "roll" ["add" n] [n "dice"] ["until" "decided"] ["until" n "left"]
                  roll    roll add 2    roll 2 dice    roll until decided    roll until 3 left
    retreat     = "retreat"
    move_in     = "move" "in" n ["from" source]    move in 3      move in 2 from Ukraine
    mobilize    = ("mobilize" | "mobilise") ["reveal" card {card}] ["to" territory {territory}]
                  mobilize reveal Peru, wild to Brazil, Brazil
    join_def    = "support" ("none" | ship {"+" ship} | ship ">" ship {ship ">" ship})
                  support none      support S5 + S6      support S5 > S2, S6 > S3
    prize       = "sink" ship | "board" ship "from" ship n
                  sink S7      board S7 from S3 2
    cruise      = "cruise" ship                    cruise S12
    sail        = "sail" ship "to" station         sail S12 to Atlantic:Brazil
    embark      = "embark" ship n "from" territory      embark S12 3 from Alaska
    disembark   = "disembark" ship n "to" territory     disembark S12 2 to Alberta
    end_cruise  = "end" "cruise" ship              end cruise S12
    end_campaign= "end" "campaign"                 end campaign
    factory     = "place" "factory" territory      place factory Alaska
    transfer    = "transfer" territory ">" territory n  transfer Alaska > Alberta 4
    discard     = "discard" pcard {pcard}          discard Qh 2c
    end_turn    = "end" "turn" ["declare" seat]    end turn      end turn declare ally-1
    challenge   = "challenge" | "let" "pass"
    answer      = "play" "poker" | "demur"
    poker       = "choose" pcard {pcard} | "bet" ["1"] | "check" | "call" | "raise" ["1"]
                  | "fold" | "draw" {pcard} ["stash" pcard {pcard}] | "show" | "muck"
                  choose Qh Qd 7s      bet 1      draw 7s 2c stash Kd
    join        = "join" seat                      join ally-2
    leave       = "leave"
    concede     = "concede"
    vote_draw   = "vote" "draw" ("yes" | "no")      vote draw yes
    prefer      = "prefer" ["defence" ("1" | "2")] ["reveal" ("ask" | "all")]
                  prefer defence 1 reveal all

    n        = a whole number written in digits
    source   = territory | ship
    ship     = "S" digits (a ship on the board: S12)
    station  = ocean ":" territory (a station of the map: Pacific:Alaska)
             | territory (a territory with one coast: Brazil is Atlantic:Brazil)
    card     = territory | "wild" | a number: the card's place in the hand, counted from 1
    pcard    = a poker card: rank (2-9, T or 10, J, Q, K, A) and suit (c, d, h, s): Qh, 10s
    seat     = a seat's id as the game shows it (a player's name, ally-1)

Decisions (the request for a mail notation is silent on these):

- Words are case-insensitive; names come back spelt as the map spells them. A territory name is
  matched whole (``north africa``, ``Western United States``), never by prefix: a mailed move is
  applied without a second look, so "North" must not quietly become one of three territories.
  A misspelt name is refused with the closest names as the example.
- Commas are optional separators and are not counted as words; ``>``, ``+`` and ``:`` are words
  of their own, with or without spaces around them (``Alaska>Kamchatka`` reads fine). ``->``
  reads as ``>``, and a full stop ending the line is dropped (people end sentences in mail).
- ``end`` alone is a synonym: ``end campaign`` while reinforcing or campaigning, ``end turn`` in
  the end phase. ``bet``/``raise`` take an optional ``1`` (every bet is one army); ``move in``
  alone means ``move in 0`` (the attacking armies only, after a committed or flanking win);
  ``attack A > B`` without a number attacks with every spare army of ``A`` (all but one, or all
  but one aboard a ship), and ``attack A > B normal 3`` is ``attack A > B 3``; ``turn in``
  without ``for`` takes armies. ``format_action`` always writes the full form.
- Cards in ``turn in`` and ``mobilize`` are written by name (the hand's order changes as cards
  come and go, so a name means the same card in every mail); a number, as in ``turn in 2 9
  wild``, is the card's place in the hand, counted from 1, in the order the board shows the hand
  (``risk_hand`` of the view) and ``legal_moves_text`` lists it: the hand of the seat that turns
  in (whose turn it is) or that mobilizes (the defender).
- A naval attack has two forms because ``NavalAttack`` has two shapes that mean the same
  attack when every ship goes for one target: ``naval S3 + S4 > S7`` leaves ``targets`` empty
  (the AI and the sampler send that), ``naval S3 on S7, S4 on S7`` lists each ship's target
  (the board's form sends that, even for one ship: ``naval S3 on S7``). Both read as a person
  means them; the canonical line keeps the action's shape, so the round trip is exact. Between
  two or more pairs ``>`` reads as ``on`` (``naval S3 > S7, S4 > S8``).
- ``support S5 + S6`` puts the joining ships behind the battle's lead target (``behind``
  empty); ``support S5 > S2`` names the attacked ship each backs.
- ``format_action`` refuses (``ValueError``) the few actions the engine can never accept and the
  notation has no form for: a normal or committed attack from more than one flank.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from combat.poker.cards import RANKS, SUITS
from risk.rules import actions as act
from risk.rules import board
from risk.rules.actions import Action, InvalidAction
from risk.rules.engine import pending_decisions
from risk.rules.notation_moves import LIST_CAP, legal_moves_text
from risk.rules.state import ALLIED, ASK, COMMITTED, FLANKING, NORMAL, REVEAL_ALL, WILD, GameState
from risk.rules.vocabulary import DecisionKind

__all__ = ["LIST_CAP", "format_action", "legal_moves_text", "parse_action"]

_TOKEN = re.compile(r"[>+:]|[^\s>+:,]+")
_SHIP = re.compile(r"s(\d+)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")
_REWARDS = ("armies", "factory", "ship")
_MODES = (NORMAL, COMMITTED, FLANKING)
_POKER_SIMPLE = ("check", "call", "fold", "show", "muck")
_POKER_BETS = ("bet", "raise")


# --- writing ------------------------------------------------------------------------------------


def format_action(state: GameState, action: Action) -> str:
    """The canonical line of ``action`` (``parse_action`` reads it back to the same action)."""
    writer = _WRITERS.get(type(action))
    if writer is None:
        raise ValueError(f"no notation for {type(action).__name__}")
    return str(writer(action))


def _names(items: Sequence[str]) -> str:
    return ", ".join(items)


def _arrange_text(a: act.Arrange) -> str:
    parts = ", ".join(f"{t} {n}" for t, n in a.arrangement)
    ship = f", ship {a.ship_station}" if a.ship_station is not None else ""
    return f"arrange {parts}, factory {a.factory}{ship}"


def _turn_in_text(a: act.TurnIn) -> str:
    reward = "" if a.reward == "armies" else f" for {a.reward}"
    return f"turn in {_names(a.cards)}{reward}"


def _attack_text(a: act.Attack) -> str:
    if a.mode == FLANKING:
        flanks = " + ".join(f"{s} {n}" for s, n in a.flanks)
        return f"flank {flanks} > {a.target}"
    if len(a.flanks) != 1:
        raise ValueError(f"a {a.mode} attack has one flank; the notation has no form for {a!r}")
    (source, armies) = a.flanks[0]
    mode = " committed" if a.mode == COMMITTED else ""
    if a.mode not in _MODES:
        raise ValueError(f"no attack mode {a.mode!r}")
    return f"attack {source} > {a.target}{mode} {armies}"


def _naval_text(a: act.NavalAttack) -> str:
    """``naval S3 + S4 > S7`` (``targets`` empty: all on ``target``) or ``naval S3 on S7, S4 on
    S8`` (``targets`` listed, even for one ship: the form tells the two apart)."""
    if a.targets:
        pairs = ", ".join(f"{s} on {t}" for s, t in zip(a.ships, a.targets, strict=True))
    else:
        pairs = f"{' + '.join(a.ships)} > {a.target}"
    text = f"naval {pairs}"
    if a.mode != NORMAL or a.armies:
        text += f" {a.mode} {a.armies}" if a.armies else f" {a.mode}"
    return text


def _line(*parts: object) -> str:
    """The words of ``parts`` that are there (a 0, None or empty part is left out)."""
    return " ".join(str(p) for p in parts if p)


def _roll_text(a: act.Roll) -> str:
    dice = a.dice and f"{a.dice} dice"
    until = a.until_decided and "until decided"
    left = a.until_armies and f"until {a.until_armies} left"
    return _line("roll", a.add and f"add {a.add}", dice, until, left)


def _move_in_text(a: act.MoveIn) -> str:
    source = f" from {a.source}" if a.source is not None else ""
    return f"move in {a.armies}{source}"


def _mobilize_text(a: act.Mobilize) -> str:
    reveal = a.reveal and f"reveal {_names(a.reveal)}"
    return _line("mobilize", reveal, a.wild_territories and f"to {_names(a.wild_territories)}")


def _support_text(a: act.JoinDefence) -> str:
    if not a.ships:
        return "support none"
    if not a.behind:
        return f"support {' + '.join(a.ships)}"
    return "support " + ", ".join(f"{s} > {t}" for s, t in zip(a.ships, a.behind, strict=True))


def _prize_text(a: act.Prize) -> str:
    if a.by is None:
        return f"sink {a.ship}"
    return f"board {a.ship} from {a.by} {a.armies}"


def _poker_text(a: act.Poker) -> str:
    if a.move == "choose":
        return f"choose {' '.join(a.cards)}"
    if a.move == "draw":
        stash = f" stash {' '.join(a.from_stash)}" if a.from_stash else ""
        return " ".join(["draw", *a.cards]) + stash
    if a.move in _POKER_BETS:
        return f"{a.move} 1"
    return a.move


def _prefer_text(a: act.Prefer) -> str:
    reveal = a.reveal is not None and "reveal " + ("all" if a.reveal == REVEAL_ALL else a.reveal)
    return _line("prefer", a.defence_dice is not None and f"defence {a.defence_dice}", reveal)


_WRITERS: dict[type[Action], Callable[[Any], str]] = {
    act.Arrange: _arrange_text,
    act.TurnIn: _turn_in_text,
    act.Place: lambda a: f"place {a.armies} {a.territory}",
    act.Deploy: lambda a: "deploy " + ", ".join(f"{n} {t}" for t, n in a.placements),
    act.PlaceShip: lambda a: f"place ship {a.station}",
    act.Attack: _attack_text,
    act.NavalAttack: _naval_text,
    act.Roll: _roll_text,
    act.Retreat: lambda a: "retreat",
    act.MoveIn: _move_in_text,
    act.Mobilize: _mobilize_text,
    act.JoinDefence: _support_text,
    act.Prize: _prize_text,
    act.Cruise: lambda a: f"cruise {a.ship}",
    act.Sail: lambda a: f"sail {a.ship} to {a.station}",
    act.Embark: lambda a: f"embark {a.ship} {a.armies} from {a.territory}",
    act.Disembark: lambda a: f"disembark {a.ship} {a.armies} to {a.territory}",
    act.EndCruise: lambda a: f"end cruise {a.ship}",
    act.EndCampaign: lambda a: "end campaign",
    act.PlaceFactory: lambda a: f"place factory {a.territory}",
    act.Transfer: lambda a: f"transfer {a.source} > {a.destination} {a.armies}",
    act.Discard: lambda a: f"discard {' '.join(a.cards)}",
    act.EndTurn: lambda a: "end turn" + (f" declare {a.ally}" if a.ally is not None else ""),
    act.Challenge: lambda a: "challenge" if a.contest else "let pass",
    act.Answer: lambda a: "demur" if a.demur else "play poker",
    act.Poker: _poker_text,
    act.Join: lambda a: f"join {a.ally}",
    act.Leave: lambda a: "leave",
    act.Concede: lambda a: "concede",
    act.VoteDraw: lambda a: "vote draw " + ("yes" if a.agree else "no"),
    act.Prefer: _prefer_text,
}


# --- reading ------------------------------------------------------------------------------------


@dataclass
class _Words:
    """The words of one line and a cursor; every refusal names the word it stopped at."""

    state: GameState
    player: str
    words: list[str]
    at: int = 0

    # -- the cursor

    def peek(self, ahead: int = 0) -> str | None:
        i = self.at + ahead
        return self.words[i].lower() if i < len(self.words) else None

    def fail(self, expected: str, at: int | None = None) -> InvalidAction:
        i = self.at if at is None else at
        if i < len(self.words):
            return InvalidAction(f"word {i + 1} {self.words[i]!r}", f"expected {expected}")
        return InvalidAction(f"word {i + 1} (end of line)", f"expected {expected}")

    def rest(self) -> list[str]:
        """The words from the cursor on, lower-case (for the examples of an error)."""
        return [word.lower() for word in self.words[self.at :]]

    def take(self) -> str:
        word = self.words[self.at]
        self.at += 1
        return word

    def accept(self, *keywords: str) -> str | None:
        """Take the next word if it is one of ``keywords`` (lower-case); None otherwise."""
        word = self.peek()
        if word is not None and word in keywords:
            self.at += 1
            return word
        return None

    def keyword(self, *keywords: str) -> str:
        word = self.accept(*keywords)
        if word is None:
            raise self.fail(" or ".join(repr(k) for k in keywords))
        return word

    def done(self) -> None:
        if self.at < len(self.words):
            raise self.fail("the end of the line")

    # -- values

    def number(self, what: str = "a number") -> int:
        word = self.peek()
        if word is None or not _NUMBER.fullmatch(word):
            raise self.fail(what)
        self.at += 1
        return int(word)

    def is_number(self) -> bool:
        word = self.peek()
        return word is not None and _NUMBER.fullmatch(word) is not None

    def is_ship(self) -> bool:
        word = self.peek()
        return word is not None and _SHIP.fullmatch(word) is not None

    def ship(self) -> str:
        word = self.peek()
        match = _SHIP.fullmatch(word) if word is not None else None
        ship_id = f"S{int(match.group(1))}" if match else None
        if ship_id is None or ship_id not in self.state.ships:
            known = sorted(self.state.ships, key=lambda s: int(s[1:]))
            example = f", e.g. {known[0]}" if known else ""
            raise self.fail(f"a ship on the board{example}")
        self.at += 1
        return ship_id

    def name(self, names: Sequence[str], what: str) -> str:
        """The longest of ``names`` spelt by the next words (case-insensitive, whole words)."""
        best: str | None = None
        for name in names:
            parts = name.lower().split()
            if (
                len(parts) > (len(best.split()) if best else 0)
                and [self.peek(k) for k in range(len(parts))] == parts
            ):
                best = name
        if best is None:
            raise self.fail(f"{what}, e.g. {_closest(self.rest(), names)}")
        self.at += len(best.split())
        return best

    def territory(self) -> str:
        return self.name(list(board.board_map(self.state).territories), "a territory name")

    def source(self) -> str:
        return self.ship() if self.is_ship() else self.territory()

    def station(self) -> str:
        bmap = board.board_map(self.state)
        start = self.at
        oceans = {o.lower() for o in bmap.oceans}
        if self.peek() not in (None, *oceans) and self.peek(1) != ":":
            territory = self.territory()  # a bare territory: its one station
            coast = bmap.stations_of(territory)
            if len(coast) == 1:
                return coast[0]
            has = f"has {', '.join(coast)}" if coast else "has no coast"
            raise self.fail(f"a station written Ocean:Territory; {territory} {has}", at=start)
        ocean = self.name(bmap.oceans, "an ocean (a station is written Ocean:Territory)")
        self.keyword(":")
        territory = self.territory()
        key = f"{ocean}:{territory}"
        if key not in bmap.stations:
            stations = ", ".join(bmap.stations_of(territory)) or "none"
            raise self.fail(f"a station of the map; {territory} has {stations}", at=start)
        return key

    def card(self, hand: Sequence[str]) -> str:
        if self.is_number():
            start = self.at
            index = self.number()
            if not hand:
                raise self.fail("a territory name or wild: the hand is empty", at=start)
            if not 1 <= index <= len(hand):
                raise self.fail(f"a card number from 1 to {len(hand)} (the hand)", at=start)
            return hand[index - 1]
        if self.accept(WILD):
            return WILD
        if self.peek() is None:
            raise self.fail("a card: a territory name, wild, or its number in the hand")
        return self.name(
            list(board.board_map(self.state).territories),
            "a card: a territory name, wild, or its number in the hand",
        )

    def poker_card(self) -> str:
        word = self.peek()
        card = _poker_card(word) if word is not None else None
        if card is None:
            raise self.fail("a poker card such as Qh or 10s")
        self.at += 1
        return card

    def poker_cards(self) -> tuple[str, ...]:
        cards = []
        while self.peek() is not None and _poker_card(self.peek() or "") is not None:
            cards.append(self.poker_card())
        return tuple(cards)

    def seat(self) -> str:
        word = self.peek()
        for seat in self.state.seats:
            if word is not None and seat.id.lower() == word:
                self.at += 1
                return seat.id
        allies = [s.id for s in self.state.seats if s.kind == ALLIED]
        raise self.fail(f"an allied army, e.g. {_closest(self.rest(), allies)}")


def _poker_card(word: str) -> str | None:
    text = word.lower()
    rank, suit = (text[:-1], text[-1]) if text else ("", "")
    rank = "T" if rank == "10" else rank.upper()
    if len(rank) == 1 and rank in RANKS and suit in SUITS:
        return rank + suit
    return None


def _closest(words: Sequence[str], names: Sequence[str]) -> str:
    """One or two of ``names`` nearest the words at fault, for an error's example: each name is
    compared with as many of the words as it has (so "Westren United States" finds Western
    United States); the first name in order when none is close."""
    scored = []
    for name in names:
        phrase = " ".join(words[: len(name.split())])
        score = difflib.SequenceMatcher(None, phrase, name.lower()).ratio()
        if words and words[0] and name.lower().startswith(words[0]):
            score = max(score, 0.75)  # a prefix such as "North" (prefixes are not accepted)
        if score >= 0.6:
            scored.append((-score, name))
    picked = [name for _, name in sorted(scored)[:2]]
    if not picked:
        return sorted(names)[0] if names else "?"
    return " or ".join(picked)


def parse_action(state: GameState, player: str, line: str) -> Action:
    """The action ``player`` wrote in ``line``; ``InvalidAction`` naming the word at fault."""
    text = line.strip().rstrip(".").replace("->", ">")  # a sentence's full stop; an arrow
    w = _Words(state, player, _TOKEN.findall(text))
    verb = w.peek()
    if verb is None:
        raise w.fail(f"an action, one of: {', '.join(_VERBS)}")
    reader = _READERS.get(verb)
    if reader is None:
        close = difflib.get_close_matches(verb, [v.split()[0] for v in _VERBS], n=1)
        hint = f" (did you mean {_OPENINGS.get(close[0], close[0])!r}?)" if close else ""
        raise w.fail(f"an action, one of: {', '.join(_VERBS)}{hint}")
    w.at = 1
    action = reader(w)
    w.done()
    return action


def _read_arrange(w: _Words) -> Action:
    arrangement = []
    while True:
        arrangement.append((w.territory(), w.number("a number of armies")))
        if w.accept("factory"):
            break
        if w.peek() is None:
            raise w.fail("a territory name or 'factory'")
    factory = w.territory()
    station = w.station() if w.accept("ship") else None
    return act.Arrange(
        w.player, arrangement=tuple(arrangement), factory=factory, ship_station=station
    )


def _turn_seat_hand(w: _Words) -> list[str]:
    state = w.state
    seat = state.seat(state.turn.seat) if state.turn is not None else state.seat_of_actor(w.player)
    return list(seat.risk_cards) if seat is not None else []


def _read_turn_in(w: _Words) -> Action:
    w.keyword("in")
    hand = _turn_seat_hand(w)
    cards = (w.card(hand), w.card(hand), w.card(hand))
    reward = w.keyword(*_REWARDS) if w.accept("for") else "armies"
    return act.TurnIn(w.player, cards=cards, reward=reward)


def _read_deploy(w: _Words) -> Action:
    placements: list[tuple[str, int]] = []
    while not placements or w.peek() is not None:
        armies = w.number("a number of armies")
        placements.append((w.territory(), armies))
    return act.Deploy(w.player, placements=tuple(placements))


def _read_place(w: _Words) -> Action:
    if w.accept("ship"):
        return act.PlaceShip(w.player, station=w.station())
    if w.accept("factory"):
        return act.PlaceFactory(w.player, territory=w.territory())
    if not w.is_number():
        raise w.fail("a number of armies, 'ship' or 'factory'")
    armies = w.number()
    return act.Place(w.player, territory=w.territory(), armies=armies)


def _spare(state: GameState, source: str) -> int:
    """All but one army of a territory, or all but one aboard a ship (a bare ``attack A > B``)."""
    if source in state.territories:
        return state.territories[source].armies - 1
    return state.ships[source].armies - 1


def _read_attack(w: _Words) -> Action:
    source = w.source()
    w.keyword(">")
    target = w.territory()
    if w.accept(COMMITTED):
        return act.Attack(w.player, target=target, mode=COMMITTED,
                          flanks=((source, w.number("a number of armies")),))  # fmt: skip
    w.accept(NORMAL)
    armies = w.number("a number of armies") if w.peek() is not None else _spare(w.state, source)
    return act.Attack(w.player, target=target, mode=NORMAL, flanks=((source, armies),))


def _read_flank(w: _Words) -> Action:
    flanks = [(w.source(), w.number("a number of armies"))]
    while w.accept("+"):
        flanks.append((w.source(), w.number("a number of armies")))
    if w.peek() != ">":
        raise w.fail("'+' and another flank, or '>' and the target")
    w.keyword(">")
    return act.Attack(w.player, target=w.territory(), mode=FLANKING, flanks=tuple(flanks))


def _read_naval(w: _Words) -> Action:
    """``S3 + S4 > S7`` (every ship on S7, ``targets`` empty) or ``S3 on S7, S4 on S8`` (each
    ship's target listed); ``>`` between the pairs of a list reads as ``on``."""
    ships, targets = [w.ship()], []
    if w.accept("+"):
        ships.append(w.ship())
        while w.accept("+"):
            ships.append(w.ship())
        w.keyword(">")
        lead = w.ship()
    else:
        link = w.keyword(">", "on")
        targets.append(w.ship())
        while w.is_ship():
            ships.append(w.ship())
            w.keyword("on", ">")
            targets.append(w.ship())
        lead = targets[0]
        if len(ships) == 1 and link == ">":  # one ship on its target: the first form
            targets = []
    mode = w.accept(*_MODES) or NORMAL
    armies = w.number("a number of armies") if w.is_number() else 0
    return act.NavalAttack(w.player, ships=tuple(ships), target=lead, mode=mode, armies=armies,
                           targets=tuple(targets))  # fmt: skip


def _read_support(w: _Words) -> Action:
    """``support none``, ``support S5 + S6`` (behind the lead target) or ``support S5 > S2,
    S6 > S3`` (each joining ship behind the attacked ship named)."""
    if w.accept("none"):
        return act.JoinDefence(w.player)
    ships = [w.ship()]
    if w.peek() != ">":
        while w.accept("+"):
            ships.append(w.ship())
        return act.JoinDefence(w.player, ships=tuple(ships))
    w.keyword(">")
    behind = [w.ship()]
    while w.is_ship():
        ships.append(w.ship())
        w.keyword(">")
        behind.append(w.ship())
    return act.JoinDefence(w.player, ships=tuple(ships), behind=tuple(behind))


def _read_roll(w: _Words) -> Action:
    add = w.number("a number of armies to add") if w.accept("add") else 0
    dice = 0
    if w.is_number():
        dice = w.number()
        w.keyword("dice", "die")
    until, left = False, 0
    while w.accept("until"):
        if w.is_number():  # ``until 3 left``: stop once the attacker has 3 or fewer
            left = w.number("the armies left to stop at")
            w.keyword("left")
        else:
            w.keyword("decided")
            until = True
    return act.Roll(w.player, add=add, until_decided=until, dice=dice, until_armies=left)


def _read_move(w: _Words) -> Action:
    w.keyword("in")
    armies = w.number("a number of armies") if w.peek() is not None else 0
    source = w.source() if w.accept("from") else None
    return act.MoveIn(w.player, armies=armies, source=source)


def _defender_hand(w: _Words) -> list[str]:
    battle = w.state.battle
    seat = w.state.seat(battle.defender) if battle is not None else None
    return list(seat.risk_cards) if seat is not None else []


def _read_mobilize(w: _Words) -> Action:
    reveal: list[str] = []
    if w.accept("reveal"):
        hand = _defender_hand(w)
        reveal.append(w.card(hand))
        while w.peek() not in (None, "to"):
            reveal.append(w.card(hand))
    wild: list[str] = []
    if w.accept("to"):
        wild.append(w.territory())
        while w.peek() is not None:
            wild.append(w.territory())
    return act.Mobilize(w.player, reveal=tuple(reveal), wild_territories=tuple(wild))


def _read_board(w: _Words) -> Action:
    ship = w.ship()
    w.keyword("from")
    by = w.ship()
    return act.Prize(w.player, ship=ship, by=by, armies=w.number("a number of armies"))


def _read_embark(w: _Words, cls: type[act.Embark] | type[act.Disembark], word: str) -> Action:
    ship = w.ship()
    armies = w.number("a number of armies")
    w.keyword(word)
    return cls(w.player, ship=ship, territory=w.territory(), armies=armies)


def _read_end(w: _Words) -> Action:
    if w.accept("cruise"):
        return act.EndCruise(w.player, ship=w.ship())
    if w.accept("campaign"):
        return act.EndCampaign(w.player)
    if w.accept("turn"):
        return act.EndTurn(w.player, ally=w.seat() if w.accept("declare") else None)
    if w.peek() is not None:
        raise w.fail("'campaign', 'turn' or 'cruise'")
    kinds = {d.kind for d in pending_decisions(w.state) if d.player == w.player}
    if kinds & {DecisionKind.REINFORCE, DecisionKind.CAMPAIGN}:
        return act.EndCampaign(w.player)
    if DecisionKind.END in kinds:
        return act.EndTurn(w.player)
    raise w.fail("'end campaign', 'end turn' or 'end cruise <ship>': no phase of yours to end", 0)


def _read_sail(w: _Words) -> Action:
    ship = w.ship()
    w.keyword("to")
    return act.Sail(w.player, ship=ship, station=w.station())


def _read_transfer(w: _Words) -> Action:
    source = w.territory()
    w.keyword(">")
    destination = w.territory()
    return act.Transfer(w.player, source=source, destination=destination,
                    armies=w.number("a number of armies"))  # fmt: skip


def _read_cards(w: _Words) -> tuple[str, ...]:
    cards = [w.poker_card()]
    while w.peek() is not None:
        cards.append(w.poker_card())
    return tuple(cards)


def _read_bet(move: str) -> Callable[[_Words], Action]:
    def read(w: _Words) -> Action:
        if w.peek() is not None and w.peek() != "1":
            raise w.fail("1 or nothing (every bet and raise is one army)")
        w.accept("1")
        return act.Poker(w.player, move=move)

    return read


def _read_draw(w: _Words) -> Action:
    cards = w.poker_cards()
    if w.peek() not in (None, "stash"):
        raise w.fail("a poker card such as Qh, 'stash' or the end of the line")
    stash = _read_cards(w) if w.accept("stash") else ()
    return act.Poker(w.player, move="draw", cards=cards, from_stash=stash)


def _read_vote(w: _Words) -> Action:
    w.keyword("draw")
    return act.VoteDraw(w.player, agree=w.keyword("yes", "no") == "yes")


def _read_prefer(w: _Words) -> Action:
    defence = None
    if w.accept("defence", "defense"):
        if w.peek() not in ("1", "2"):
            raise w.fail("1 or 2 (dice to defend with)")
        defence = int(w.take())
    reveal = None
    if w.accept("reveal"):
        reveal = REVEAL_ALL if w.keyword("ask", "all", REVEAL_ALL) != ASK else ASK
    return act.Prefer(w.player, defence_dice=defence, reveal=reveal)


def _poker_move(move: str) -> Callable[[_Words], Action]:
    return lambda w: act.Poker(w.player, move=move)


def _simple(make: Callable[[str], Action]) -> Callable[[_Words], Action]:
    return lambda w: make(w.player)


def _then(word: str, make: Callable[[str], Action]) -> Callable[[_Words], Action]:
    def read(w: _Words) -> Action:
        w.keyword(word)
        return make(w.player)

    return read


_READERS: dict[str, Callable[[_Words], Action]] = {
    "arrange": _read_arrange,
    "turn": _read_turn_in,
    "place": _read_place,
    "deploy": _read_deploy,
    "attack": _read_attack,
    "flank": _read_flank,
    "naval": _read_naval,
    "roll": _read_roll,
    "retreat": _simple(act.Retreat),
    "move": _read_move,
    "mobilize": _read_mobilize,
    "mobilise": _read_mobilize,
    "support": _read_support,
    "sink": lambda w: act.Prize(w.player, ship=w.ship()),
    "board": _read_board,
    "cruise": lambda w: act.Cruise(w.player, ship=w.ship()),
    "sail": _read_sail,
    "embark": lambda w: _read_embark(w, act.Embark, "from"),
    "disembark": lambda w: _read_embark(w, act.Disembark, "to"),
    "end": _read_end,
    "transfer": _read_transfer,
    "discard": lambda w: act.Discard(w.player, cards=_read_cards(w)),
    "challenge": _simple(lambda p: act.Challenge(p, contest=True)),
    "let": _then("pass", lambda p: act.Challenge(p, contest=False)),
    "play": _then("poker", lambda p: act.Answer(p, demur=False)),
    "demur": _simple(lambda p: act.Answer(p, demur=True)),
    "choose": lambda w: act.Poker(w.player, move="choose", cards=_read_cards(w)),
    "bet": _read_bet("bet"),
    "raise": _read_bet("raise"),
    "draw": _read_draw,
    **{move: _poker_move(move) for move in _POKER_SIMPLE},
    "join": lambda w: act.Join(w.player, ally=w.seat()),
    "leave": _simple(act.Leave),
    "concede": _simple(act.Concede),
    "vote": _read_vote,
    "prefer": _read_prefer,
}

#: Two-word openings, as the error that names an unknown first word lists them.
_OPENINGS = {"let": "let pass", "move": "move in", "play": "play poker", "turn": "turn in",
             "vote": "vote draw"}  # fmt: skip
#: The first words of the notation, for the error that names an unknown one.
_VERBS = tuple(_OPENINGS.get(k, k) for k in sorted(_READERS) if k != "mobilise")
