"""One hand of five-card draw for 2-6 players as a pure state machine (Nautical-but-Nice Fast Risk).

``start_hand(entrants, deck)`` antes and opens the hand; ``apply(state, action)`` returns the next
state and the events it caused, or raises ``IllegalAction`` naming the rule; nothing mutates, so a
hand replays from its entrants, deck and action list (style.md items 2 and 3). The deck is an
explicit tuple, ``[0]`` on top, shuffled by the caller with injected dice (``shuffled_deck``).
``view_for`` and ``events_for`` strip what a player may not see; ``state.result`` holds the payout.

The hand (rule text "Playing Poker" and design.md section 5): every entrant antes 1 army from their
betting pot when the hand starts; "choose": each picks 1-5 cards of their own stash and the dealer
deals the rest to make five; "bet1": the active player (seat 0 of the betting order) opens;
"draw": each player still in discards 0-5 cards and replaces each from their unused stash or the
deck; "bet2": the first player still in opens; "showdown": the called player shows first, then
every other player still in shows or mucks; "done". Betting actions: bet (one army, only when the
live bet is zero), check (only with nothing to call), call (match the live bet), raise (one army
more than the live bet) and fold. If all but one fold, the last one wins without showing.

Decisions where the rules are silent (numbered so code and tests can cite them):

1. Seats. Entrants come in betting order, seat 0 is the active player. Players are named by
   unique strings. A betting pot must hold at least 1 army (the ante) and a stash at least 1 card.
2. Ante. Taken when the hand starts. A player whose pot is then empty is all-in at once.
3. Choosing. Players choose in any order (the choices are secret, so order cannot matter); the
   cards are dealt when the last one has chosen. Each player's missing cards are dealt in one
   block from the top, players in betting order: as fair as one at a time round the table (the
   deck is shuffled) and easier to audit. A choice is refused ("deck-short") when the deck could
   no longer fill every hand even if everyone yet to choose took all the stash cards they can,
   so the hand can never stall; a hand whose deck is too small from the start is refused. The
   "at least one stash card" rule is checked when choosing; the draw may later replace any card.
4. Amounts. Bet and raise each add exactly one army to the live bet; a call puts in whatever
   matches it, which is more than one army when several raises came since the player last acted.
   The live bet is per round (the ante is not part of it). There is no cap on raises: the betting
   pots bound them. A player may not bet or raise more than their pot holds ("short-pot"); a call
   for more than they hold puts in everything (all-in) and never reopens the betting. Betting or
   raising when no other player still in could answer is refused ("no-one-to-answer").
5. End of a round. Every player still in who has armies left has acted since the last bet or
   raise and matched the live bet (all-in players are exempt). A round in which at most one
   player could act and nothing is owed is skipped, so a hand with all-in players runs on to the
   showdown by itself. A player may fold at their turn even with nothing to call.
6. Draw. In betting order, one player at a time (draws take from the top, so order matters),
   all-in players too. ``Draw(discard=..., from_stash=...)``: the number of cards from the stash
   is at most the number discarded; the rest come from the deck, which must hold them. Discards
   go face down to the muck and are not reused in this hand. Rule text "In order to take part
   in a poker game, a player ... must use at least one of these cards in their hand": with
   ``start_hand(keep_stash=True)`` a draw must leave at least one stash card in the hand (one
   chosen and kept, or one taken from the stash in the draw), refused "keep-stash-card"
   otherwise; ``Seat.stash_cards`` tracks the hand's stash cards. Without it (the default, and
   Risk games of rule revision 1) the draw may replace any card, the chosen ones included.
7. Showdown. The called player is the last to bet or raise in bet2, else the first player still
   in, in betting order; their hand is shown automatically. The others then decide one at a time
   in betting order starting after the called player (round the table, as at a real table).
   Mucking is folding at the showdown: the player forfeits every claim.
8. Pots. Armies are layered the standard way: each layer is contested by the players still in
   who put in at least that much. A layer that no player still in reached (its contributors all
   folded or mucked) is added to the layer below, as "the remaining player wins the pot" does
   when all but one fold. Adjacent layers with the same contestants make one pot. Each pot goes
   to its best shown hand; equal best hands split it evenly and the armies left over go one each
   to the winners earliest in betting order (design.md: the odd army to the earliest seat).
9. Result. ``won`` is what each player took off the table (their own unanswered armies count);
   ``final_pots`` is each betting pot after the hand. ``winners`` are those who won a pot that
   someone else also paid into. What becomes of the cards afterwards is the Risk game's business:
   the final state lists every player's hand, unused stash and discards.
10. Hidden information. Public: every player's pot, stakes, bets, status, and the number of cards
   in their hand, stash and discards (a dealer deals the rest in the open, so how many cards a
   player took from the stash and drew is seen); the deck's size; hands shown at the showdown.
   Private: a player's own hand, stash and discards. Never shown: the deck's order, folded and
   mucked hands, the winner's hand when all others folded. Events carry dealt and drawn cards
   only for their owner (``events_for``), as every channel must be stripped, not just the view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from combat.poker.cards import check_cards
from combat.poker.errors import IllegalAction, PokerInputError
from combat.poker.evaluate import HandValue, evaluate

MIN_PLAYERS, MAX_PLAYERS, HAND_SIZE, ANTE = 2, 6, 5, 1
CHOOSE, BET1, DRAW, BET2, SHOWDOWN, DONE = "choose", "bet1", "draw", "bet2", "showdown", "done"
PHASES = (CHOOSE, BET1, DRAW, BET2, SHOWDOWN, DONE)
IN, FOLDED, MUCKED = "in", "folded", "mucked"

#: An event is a small JSON-ready dict with a "type"; one carrying "private_to" holds "cards"
#: only that player may see (``events_for`` strips them for everyone else).
Event = dict[str, Any]


# --- values --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """A player joining the hand: name, poker-card stash and betting pot (armies)."""

    player: str
    stash: tuple[str, ...]
    pot: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "stash", _as_tuple(self.stash))


@dataclass(frozen=True)
class Seat:
    """One player during the hand. ``pot`` is what is left in their betting pot (off the table),
    ``staked`` what they have put on the table this hand, ``round_bet`` this betting round."""

    player: str
    stash: tuple[str, ...]
    pot: int
    hand: tuple[str, ...] = ()
    staked: int = 0
    round_bet: int = 0
    status: str = IN
    acted: bool = False
    chosen: bool = False
    drawn: bool = False
    shown: bool = False
    discards: tuple[str, ...] = ()
    stash_cards: tuple[str, ...] = ()  # the cards of ``hand`` that came from the stash

    @property
    def live(self) -> bool:
        """Still in the hand (not folded or mucked)."""
        return self.status == IN

    @property
    def can_bet(self) -> bool:
        """Still in and not all-in: the only players the betting waits for."""
        return self.status == IN and self.pot > 0


@dataclass(frozen=True)
class PotShare:
    """One pot after the showdown: its size, who contested it and who took it."""

    amount: int
    contestants: tuple[str, ...]
    winners: tuple[str, ...]
    shares: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class HandResult:
    """The payout. ``won``/``final_pots`` pair players with armies, in betting order."""

    showdown: bool
    pots: tuple[PotShare, ...]
    won: tuple[tuple[str, int], ...]
    final_pots: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    shown: tuple[tuple[str, tuple[str, ...], str], ...] = ()

    def amounts_won(self) -> dict[str, int]:
        return dict(self.won)

    def pots_after(self) -> dict[str, int]:
        return dict(self.final_pots)


@dataclass(frozen=True)
class HandState:
    """The whole hand. ``turn`` is the seat to act (None while choosing and when done),
    ``aggressor`` the last seat to bet or raise this round, ``called`` the seat shown first."""

    seats: tuple[Seat, ...]
    deck: tuple[str, ...]
    phase: str = CHOOSE
    red_queens_high: bool = True
    turn: int | None = None
    aggressor: int | None = None
    called: int | None = None
    result: HandResult | None = None
    keep_stash: bool = False  # a draw must keep a stash card in the hand (decision 6)

    def seat_of(self, player: str) -> int:
        for index, seat in enumerate(self.seats):
            if seat.player == player:
                return index
        names = ", ".join(seat.player for seat in self.seats)
        raise IllegalAction("unknown-player", f"{player!r} is not in this hand ({names})")

    @property
    def live_bet(self) -> int:
        """The highest round bet of a player still in: what everyone must match this round."""
        return max((seat.round_bet for seat in self.seats if seat.live), default=0)

    @property
    def on_table(self) -> int:
        """Armies staked and not yet paid out."""
        return 0 if self.phase == DONE else sum(seat.staked for seat in self.seats)


# --- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choose:
    """Take these stash cards into the hand (1-5); the dealer deals the rest."""

    player: str
    cards: tuple[str, ...]
    kind: ClassVar[str] = "choose"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _as_tuple(self.cards))


@dataclass(frozen=True)
class Bet:
    """Add one army when the live bet is zero."""

    player: str
    kind: ClassVar[str] = "bet"


@dataclass(frozen=True)
class Check:
    """Pass, with nothing to call."""

    player: str
    kind: ClassVar[str] = "check"


@dataclass(frozen=True)
class Call:
    """Match the live bet (all-in when the pot cannot)."""

    player: str
    kind: ClassVar[str] = "call"


@dataclass(frozen=True)
class Raise:
    """Match the live bet and add one army."""

    player: str
    kind: ClassVar[str] = "raise"


@dataclass(frozen=True)
class Fold:
    """Drop out, forfeiting the armies staked, without showing."""

    player: str
    kind: ClassVar[str] = "fold"


@dataclass(frozen=True)
class Draw:
    """Discard cards and replace them: ``from_stash`` from the unused stash, the rest dealt."""

    player: str
    discard: tuple[str, ...] = ()
    from_stash: tuple[str, ...] = ()
    kind: ClassVar[str] = "draw"

    def __post_init__(self) -> None:
        object.__setattr__(self, "discard", _as_tuple(self.discard))
        object.__setattr__(self, "from_stash", _as_tuple(self.from_stash))


@dataclass(frozen=True)
class Show:
    """Show the hand at the showdown."""

    player: str
    kind: ClassVar[str] = "show"


@dataclass(frozen=True)
class Muck:
    """Give up at the showdown without showing (forfeits)."""

    player: str
    kind: ClassVar[str] = "muck"


Action = Choose | Bet | Check | Call | Raise | Fold | Draw | Show | Muck


def _as_tuple(cards: Iterable[str] | str) -> tuple[str, ...]:
    # A bare "Ah" would otherwise become ("A", "h"); keep it whole so the error names it.
    return (cards,) if isinstance(cards, str) else tuple(cards)


# --- starting ------------------------------------------------------------------------------------


def start_hand(
    entrants: Sequence[Entrant],
    deck: Sequence[str],
    *,
    red_queens_high: bool = True,
    keep_stash: bool = False,
) -> tuple[HandState, tuple[Event, ...]]:
    """Seat the entrants (betting order, seat 0 the active player), take the antes, open "choose".

    ``deck`` is the shuffled deck without any stash card (``shuffled_deck(dice, exclude=...)``).
    ``keep_stash``: the draw must leave a stash card in every hand (decision 6).
    Raises ``PokerInputError`` for a set-up the rules do not allow (decision 1).
    """
    if not MIN_PLAYERS <= len(entrants) <= MAX_PLAYERS:
        raise PokerInputError(
            "players", f"a hand needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {len(entrants)}"
        )
    names = [entrant.player for entrant in entrants]
    if any(not isinstance(name, str) or not name for name in names) or len(set(names)) < len(names):
        raise PokerInputError("players", f"players need distinct non-empty names, got {names}")
    held: list[str] = []
    for entrant in entrants:
        field_name = f"stash[{entrant.player}]"
        held += check_cards(entrant.stash, field=field_name, at_least=1)
        if isinstance(entrant.pot, bool) or not isinstance(entrant.pot, int) or entrant.pot < ANTE:
            raise PokerInputError(
                f"pot[{entrant.player}]", f"the betting pot must hold at least {ANTE} army (ante)"
            )
    cards = check_cards(deck, field="deck")
    clash = sorted(set(held) & set(cards)) or sorted({c for c in held if held.count(c) > 1})
    if clash:
        raise PokerInputError("deck", f"cards held twice (stashes and deck): {', '.join(clash)}")
    seats = tuple(Seat(e.player, e.stash, e.pot - ANTE, staked=ANTE) for e in entrants)
    if _least_deal(seats) > len(cards):
        raise PokerInputError(
            "deck",
            f"{len(cards)} cards cannot fill the hands: at least {_least_deal(seats)} needed",
        )
    events: list[Event] = [{"type": "start", "players": names, "red_queens_high": red_queens_high}]
    events += [_ante_event(seat) for seat in seats]
    events.append({"type": "phase", "phase": CHOOSE})
    state = HandState(seats, cards, CHOOSE, bool(red_queens_high), keep_stash=bool(keep_stash))
    return state, tuple(events)


def _ante_event(seat: Seat) -> Event:
    return {"type": "ante", "player": seat.player, "amount": ANTE, "all_in": seat.pot == 0}


# --- applying an action --------------------------------------------------------------------------

_Outcome = tuple[HandState, list[Event]]


def apply(state: HandState, action: Action) -> tuple[HandState, tuple[Event, ...]]:
    """The state after ``action`` and the events it caused; ``IllegalAction`` if not allowed."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("unknown-action", f"{action!r} is not a poker action")
    if state.phase == DONE:
        raise IllegalAction("hand-over", "the hand is over", phase=DONE)
    index = state.seat_of(action.player)
    kinds = allowed(state, action.player)
    if action.kind not in kinds:
        raise _refusal(state, index, action.kind)
    after, events = handler(state, index, action)
    return after, tuple(events)


def to_act(state: HandState) -> tuple[str, ...]:
    """Who may act now: every player yet to choose, else the one whose turn it is."""
    if state.phase == CHOOSE:
        return tuple(seat.player for seat in state.seats if not seat.chosen)
    return () if state.turn is None else (state.seats[state.turn].player,)


def allowed(state: HandState, player: str) -> tuple[str, ...]:
    """The kinds of action ``player`` may take now (cards still have to be legal)."""
    index = state.seat_of(player)
    if player not in to_act(state):
        return ()
    if state.phase == CHOOSE:
        return ("choose",)
    if state.phase == DRAW:
        return ("draw",)
    if state.phase == SHOWDOWN:
        return ("show", "muck")
    seat, live_bet = state.seats[index], state.live_bet
    owed = live_bet - seat.round_bet
    kinds = ["check"] if owed == 0 else ["call"]
    if _someone_can_answer(state, index):
        if live_bet == 0:
            kinds.append("bet")
        elif seat.pot >= owed + 1:
            kinds.append("raise")
    return (*kinds, "fold")


def _refusal(state: HandState, index: int, kind: str) -> IllegalAction:
    """Why ``kind`` is not allowed now, in the words of the rule it breaks."""
    seat, phase = state.seats[index], state.phase
    where = {"player": seat.player, "phase": phase}
    expected = {CHOOSE: ("choose",), BET1: _BETTING, BET2: _BETTING, DRAW: ("draw",)}
    if kind not in expected.get(phase, ("show", "muck")):
        allowed_now = ", ".join(expected.get(phase, ("show", "muck")))
        return IllegalAction(
            "wrong-phase", f"no {kind} in the {phase} phase ({allowed_now})", **where
        )
    if phase == CHOOSE:
        return IllegalAction("already-chose", "each player chooses their cards once", **where)
    if seat.player not in to_act(state):
        whose = " or ".join(f"{name}'s" for name in to_act(state)) or "nobody's"
        return IllegalAction("not-your-turn", f"it is {whose} turn to act", **where)
    owed, live_bet = state.live_bet - seat.round_bet, state.live_bet
    if kind == "check":
        return IllegalAction(
            "must-call", f"cannot check: {owed} to call (call, raise or fold)", **where
        )
    if kind == "call":
        more = "bet" if live_bet == 0 else "raise"
        return IllegalAction("nothing-to-call", f"nothing to call: check, or {more}", **where)
    if kind == "bet" and live_bet > 0:
        return IllegalAction(
            "live-bet",
            f"a bet is made only when the live bet is zero (it is {live_bet}): call or raise",
            **where,
        )
    if kind == "raise" and live_bet == 0:
        return IllegalAction("no-live-bet", "nothing to raise: the live bet is zero, bet", **where)
    if not _someone_can_answer(state, index):
        return IllegalAction(
            "no-one-to-answer",
            "every other player still in is all-in: call, check or fold",
            **where,
        )
    return IllegalAction(
        "short-pot",
        f"a player may not bet more than they have: raising takes {owed + 1} armies, "
        f"the betting pot holds {seat.pot}",
        **where,
    )


_BETTING = ("bet", "check", "call", "raise", "fold")


def _someone_can_answer(state: HandState, index: int) -> bool:
    return any(seat.can_bet for i, seat in enumerate(state.seats) if i != index)


def _update(state: HandState, index: int, **changes: Any) -> HandState:
    seats = list(state.seats)
    seats[index] = replace(seats[index], **changes)
    return replace(state, seats=tuple(seats))


# --- choosing and dealing ------------------------------------------------------------------------


def _choose(state: HandState, index: int, action: Choose) -> _Outcome:
    seat = state.seats[index]
    where = {"player": seat.player, "phase": state.phase}
    cards = action.cards
    if not 1 <= len(cards) <= HAND_SIZE:
        raise IllegalAction(
            "choose-count",
            f"each player must take 1-{HAND_SIZE} cards from their stash, not {len(cards)}",
            **where,
        )
    _check_own(cards, seat.stash, "stash", where)
    stash = tuple(card for card in seat.stash if card not in cards)
    state = _update(state, index, hand=cards, stash=stash, chosen=True, stash_cards=cards)
    events: list[Event] = [
        {"type": "chose", "player": seat.player, "count": len(cards), "private_to": seat.player,
         "cards": list(cards)}
    ]  # fmt: skip
    needed = _least_deal(state.seats)
    if needed > len(state.deck):
        raise IllegalAction(
            "deck-short",
            f"the deck holds {len(state.deck)} cards but with this choice the deal needs at "
            f"least {needed}: take more cards from your stash",
            **where,
        )
    if all(seat.chosen for seat in state.seats):
        state = _deal(state, events)
        return _open_round(state, BET1, events)
    return state, events


def _least_deal(seats: Iterable[Seat]) -> int:
    """Cards the deal needs if everyone yet to choose takes all they can (decision 3)."""
    return sum(
        HAND_SIZE - (len(s.hand) if s.chosen else min(HAND_SIZE, len(s.stash))) for s in seats
    )


def _check_own(
    cards: tuple[str, ...], own: tuple[str, ...], place: str, where: dict[str, Any]
) -> None:
    repeated = sorted({str(card) for card in cards if cards.count(card) > 1})
    if repeated:
        raise IllegalAction("duplicate-card", f"{', '.join(repeated)} named twice", **where)
    missing = [card for card in cards if card not in own]
    if missing:
        raise IllegalAction(
            f"not-in-{place}",
            f"{', '.join(map(str, missing))} not in your {place} ({', '.join(own) or 'empty'})",
            **where,
        )


def _deal(state: HandState, events: list[Event]) -> HandState:
    """Fill every hand to five from the top, seat by seat in betting order (decision 3)."""
    deck = state.deck
    for index, seat in enumerate(state.seats):
        count = HAND_SIZE - len(seat.hand)
        dealt, deck = deck[:count], deck[count:]
        state = _update(state, index, hand=seat.hand + dealt)
        events.append(
            {"type": "dealt", "player": seat.player, "count": count, "private_to": seat.player,
             "cards": list(dealt)}
        )  # fmt: skip
    return replace(state, deck=deck)


# --- betting -------------------------------------------------------------------------------------


def _open_round(state: HandState, phase: str, events: list[Event]) -> _Outcome:
    seats = tuple(replace(seat, round_bet=0, acted=False) for seat in state.seats)
    state = replace(state, seats=seats, phase=phase, aggressor=None, turn=None)
    events.append({"type": "phase", "phase": phase})
    return _advance_betting(state, events, after=len(seats) - 1)


def _put_in(state: HandState, index: int, amount: int, **changes: Any) -> HandState:
    seat = state.seats[index]
    return _update(
        state,
        index,
        pot=seat.pot - amount,
        staked=seat.staked + amount,
        round_bet=seat.round_bet + amount,
        acted=True,
        **changes,
    )


def _aggress(state: HandState, index: int, kind: str, amount: int) -> _Outcome:
    """A bet or raise: everyone else must act again (decision 5)."""
    state = _put_in(state, index, amount)
    seats = tuple(s if i == index else replace(s, acted=False) for i, s in enumerate(state.seats))
    state = replace(state, seats=seats, aggressor=index)
    seat = state.seats[index]
    event = {"type": kind, "player": seat.player, "amount": amount, "live_bet": state.live_bet}
    return _advance_betting(state, [event | {"all_in": seat.pot == 0}], after=index)


def _bet(state: HandState, index: int, action: Bet) -> _Outcome:
    return _aggress(state, index, "bet", 1)


def _raise(state: HandState, index: int, action: Raise) -> _Outcome:
    return _aggress(state, index, "raise", state.live_bet - state.seats[index].round_bet + 1)


def _call(state: HandState, index: int, action: Call) -> _Outcome:
    seat = state.seats[index]
    amount = min(state.live_bet - seat.round_bet, seat.pot)
    state = _put_in(state, index, amount)
    event = {"type": "call", "player": seat.player, "amount": amount, "all_in": amount == seat.pot}
    return _advance_betting(state, [event], after=index)


def _check(state: HandState, index: int, action: Check) -> _Outcome:
    state = _update(state, index, acted=True)
    return _advance_betting(state, [{"type": "check", "player": action.player}], after=index)


def _fold(state: HandState, index: int, action: Fold) -> _Outcome:
    state = _update(state, index, status=FOLDED, acted=True)
    events: list[Event] = [{"type": "fold", "player": action.player}]
    if sum(seat.live for seat in state.seats) == 1:
        return _settle(state, events)
    return _advance_betting(state, events, after=index)


def _waiting_for(state: HandState, index: int) -> bool:
    seat = state.seats[index]
    return seat.can_bet and not (seat.acted and seat.round_bet == state.live_bet)


def _advance_betting(state: HandState, events: list[Event], *, after: int) -> _Outcome:
    """Give the turn to the next player the round waits for, or close the round (decision 5)."""
    if sum(seat.live for seat in state.seats) == 1:
        return _settle(state, events)
    count = len(state.seats)
    waiting = [i for i in range(count) if _waiting_for(state, i)]
    actors = [seat for seat in state.seats if seat.can_bet]
    lone_and_square = len(actors) <= 1 and all(s.round_bet == state.live_bet for s in actors)
    if waiting and not lone_and_square:
        nxt = min(waiting, key=lambda i: (i - after - 1) % count)
        return replace(state, turn=nxt), events
    if state.phase == BET1:
        events.append({"type": "phase", "phase": DRAW})
        state = replace(state, phase=DRAW, turn=_next_live(state, -1, lambda s: not s.drawn))
        return state, events
    return _open_showdown(state, events)


def _next_live(state: HandState, after: int, wanted: Callable[[Seat], bool]) -> int | None:
    count = len(state.seats)
    for step in range(1, count + 1):
        index = (after + step) % count
        if state.seats[index].live and wanted(state.seats[index]):
            return index
    return None


# --- drawing -------------------------------------------------------------------------------------


def _draw(state: HandState, index: int, action: Draw) -> _Outcome:
    seat = state.seats[index]
    where = {"player": seat.player, "phase": state.phase}
    _check_own(action.discard, seat.hand, "hand", where)
    _check_own(action.from_stash, seat.stash, "stash", where)
    if len(action.from_stash) > len(action.discard):
        raise IllegalAction(
            "too-many-from-stash",
            f"a drawn card replaces a discard: {len(action.discard)} discarded, "
            f"{len(action.from_stash)} taken from the stash",
            **where,
        )
    kept_stash = tuple(card for card in seat.stash_cards if card not in action.discard)
    if state.keep_stash and not kept_stash + action.from_stash:
        raise IllegalAction(
            "keep-stash-card",
            "a player must use at least one of their stash cards in the hand: keep one of "
            f"{', '.join(seat.stash_cards)}, or take a replacement from the stash",
            **where,
        )
    count = len(action.discard) - len(action.from_stash)
    if count > len(state.deck):
        raise IllegalAction(
            "deck-short",
            f"the deck holds {len(state.deck)} cards, {count} asked for: take more from your stash",
            **where,
        )
    dealt, deck = state.deck[:count], state.deck[count:]
    kept = tuple(card for card in seat.hand if card not in action.discard)
    state = _update(
        state,
        index,
        hand=kept + action.from_stash + dealt,
        stash=tuple(card for card in seat.stash if card not in action.from_stash),
        discards=seat.discards + action.discard,
        drawn=True,
        stash_cards=kept_stash + action.from_stash,
    )
    state = replace(state, deck=deck)
    events: list[Event] = [
        {"type": "draw", "player": seat.player, "discarded": len(action.discard),
         "from_stash": len(action.from_stash), "from_deck": count, "private_to": seat.player,
         "cards": list(action.from_stash + dealt), "discards": list(action.discard)}
    ]  # fmt: skip
    nxt = _next_live(state, index, lambda s: not s.drawn)
    if nxt is not None:
        return replace(state, turn=nxt), events
    return _open_round(state, BET2, events)


# --- showdown and payout -------------------------------------------------------------------------


def _open_showdown(state: HandState, events: list[Event]) -> _Outcome:
    """The called player shows first (decision 7)."""
    called = state.aggressor
    if called is None or not state.seats[called].live:
        called = _next_live(state, -1, lambda seat: True)
    assert called is not None  # at least two players are still in
    state = replace(state, phase=SHOWDOWN, called=called)
    events.append({"type": "phase", "phase": SHOWDOWN, "called": state.seats[called].player})
    return _reveal(state, called, events)


def _reveal(state: HandState, index: int, events: list[Event]) -> _Outcome:
    seat = state.seats[index]
    value = evaluate(seat.hand, red_queens_high=state.red_queens_high)
    state = _update(state, index, shown=True)
    events.append(
        {"type": "show", "player": seat.player, "cards": list(seat.hand),
         "category": value.category, "describe": value.describe()}
    )  # fmt: skip
    return _next_at_showdown(state, index, events)


def _next_at_showdown(state: HandState, index: int, events: list[Event]) -> _Outcome:
    nxt = _next_live(state, index, lambda seat: not seat.shown)
    if nxt is None:
        return _settle(state, events)
    return replace(state, turn=nxt), events


def _show(state: HandState, index: int, action: Show) -> _Outcome:
    return _reveal(state, index, [])


def _muck(state: HandState, index: int, action: Muck) -> _Outcome:
    state = _update(state, index, status=MUCKED)
    events: list[Event] = [{"type": "muck", "player": action.player}]
    if sum(seat.live for seat in state.seats) == 1:
        return _settle(state, events)
    return _next_at_showdown(state, index, events)


def _layers(seats: Sequence[Seat]) -> list[tuple[int, set[int], list[int]]]:
    """(amount, contributors, contestants) per pot, lowest first (decision 8)."""
    layers: list[tuple[int, set[int], list[int]]] = []
    below = 0
    for level in sorted({seat.staked for seat in seats if seat.staked > 0}):
        payers = {i for i, seat in enumerate(seats) if seat.staked >= level}
        amount = (level - below) * len(payers)
        contestants = [i for i in sorted(payers) if seats[i].live]
        below = level
        if layers and (not contestants or contestants == layers[-1][2]):
            size, paid, keep = layers[-1]
            layers[-1] = (size + amount, paid | payers, keep)
        else:
            layers.append((amount, payers, contestants))
    return layers


def _settle(state: HandState, events: list[Event]) -> _Outcome:
    """Pay every pot to its best shown hand (or to the last player in) and close the hand."""
    seats = state.seats
    showdown = state.phase == SHOWDOWN
    values: dict[int, HandValue] = {
        i: evaluate(seat.hand, red_queens_high=state.red_queens_high)
        for i, seat in enumerate(seats)
        if seat.live and seat.shown
    }
    won = [0] * len(seats)
    pots: list[PotShare] = []
    winners: list[int] = []
    for amount, payers, contestants in _layers(seats):
        if showdown:
            best = max(values[i] for i in contestants)
            takers = [i for i in contestants if values[i] == best]
        else:
            takers = contestants  # the one player left: no hand is compared or shown
        share, odd = divmod(amount, len(takers))
        shares = [share + (1 if rank < odd else 0) for rank in range(len(takers))]
        for i, armies in zip(takers, shares, strict=True):
            won[i] += armies
        if len(payers) > 1:
            winners += [i for i in takers if i not in winners]
        pots.append(
            PotShare(
                amount,
                tuple(seats[i].player for i in contestants),
                tuple(seats[i].player for i in takers),
                tuple((seats[i].player, armies) for i, armies in zip(takers, shares, strict=True)),
            )
        )
    paid = tuple(replace(seat, pot=seat.pot + won[i]) for i, seat in enumerate(seats))
    result = HandResult(
        showdown=showdown,
        pots=tuple(pots),
        won=tuple((seat.player, won[i]) for i, seat in enumerate(seats)),
        final_pots=tuple((seat.player, seat.pot) for seat in paid),
        winners=tuple(seats[i].player for i in sorted(winners)),
        shown=tuple(
            (seats[i].player, seats[i].hand, value.describe()) for i, value in values.items()
        ),
    )
    for pot in pots:
        events.append(
            {"type": "pot", "amount": pot.amount, "contestants": list(pot.contestants),
             "winners": list(pot.winners), "shares": dict(pot.shares)}
        )  # fmt: skip
    events.append({"type": "hand_over", "winners": list(result.winners)})
    state = replace(state, seats=paid, phase=DONE, turn=None, result=result)
    return state, events


_HANDLERS: Mapping[type, Callable[[HandState, int, Any], _Outcome]] = {
    Choose: _choose,
    Bet: _bet,
    Check: _check,
    Call: _call,
    Raise: _raise,
    Fold: _fold,
    Draw: _draw,
    Show: _show,
    Muck: _muck,
}


# --- what each player sees -----------------------------------------------------------------------


def view_for(state: HandState, player: str | None) -> dict[str, Any]:
    """What ``player`` may see (None: a spectator): their own cards, everyone's counts and bets,
    the hands shown at the showdown; never the deck's order, nor anyone else's hidden cards."""
    me = None if player is None else state.seat_of(player)
    players = []
    for i, seat in enumerate(state.seats):
        public: dict[str, Any] = {
            "player": seat.player,
            "pot": seat.pot,
            "staked": seat.staked,
            "round_bet": seat.round_bet,
            "status": seat.status,
            "hand_size": len(seat.hand),
            "stash_size": len(seat.stash),
            "discarded": len(seat.discards),
            "chosen": seat.chosen,
            "drawn": seat.drawn,
            "shown": list(seat.hand) if seat.shown and seat.status != MUCKED else None,
        }
        if i == me:
            public |= {"hand": list(seat.hand), "stash": list(seat.stash)}
            public["discards"] = list(seat.discards)
        players.append(public)
    result = state.result
    return {
        "phase": state.phase,
        "red_queens_high": state.red_queens_high,
        "to_act": list(to_act(state)),
        "allowed": list(allowed(state, player)) if player is not None else [],
        "deck_size": len(state.deck),
        "on_table": state.on_table,
        "live_bet": state.live_bet if state.phase in (BET1, BET2) else 0,
        "called": None if state.called is None else state.seats[state.called].player,
        "you": player,
        "players": players,
        "result": None if result is None else _result_view(result),
    }


def _result_view(result: HandResult) -> dict[str, Any]:
    return {
        "showdown": result.showdown,
        "winners": list(result.winners),
        "won": dict(result.won),
        "final_pots": dict(result.final_pots),
        "pots": [
            {"amount": p.amount, "contestants": list(p.contestants), "shares": dict(p.shares)}
            for p in result.pots
        ],
        "shown": {
            name: {"cards": list(cards), "describe": text} for name, cards, text in result.shown
        },
    }


_PRIVATE_KEYS = ("cards", "discards", "private_to")


def events_for(events: Iterable[Mapping[str, Any]], player: str | None) -> list[Event]:
    """``events`` as ``player`` may see them: others' private cards stripped (decision: events
    are one more channel that leaks hidden cards, so they pass through the same filter)."""
    seen = []
    for event in events:
        if "private_to" in event and event["private_to"] != player:
            event = {key: value for key, value in event.items() if key not in _PRIVATE_KEYS}
        seen.append(dict(event))
    return seen
