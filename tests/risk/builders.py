"""Small fixture states for rule-book scenario tests: name what matters, the rest is filler.

``make_state`` puts every territory not named in ``territories`` under ``rest`` (1 army each),
stacks the decks in a known order (the cards not in any hand, sorted, unless given), records the
set-up armies in the army ledger, and opens a turn for ``turn`` in ``phase``. Tests then apply
actions with ``FixedDice`` so every roll is the one the scenario states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from combat.dice import FixedDice
from combat.poker.cards import DECK as POKER_DECK
from risk.rules import IllegalAction, apply, load_map
from risk.rules.actions import Action
from risk.rules.board import Event
from risk.rules.state import (
    ALLIED,
    CAMPAIGN,
    COLOURS,
    PLAYER,
    WILD,
    Deck,
    GameState,
    Holding,
    Options,
    Seat,
    Ship,
    Turn,
)


def make_state(
    *,
    players: Sequence[str] = ("alice", "bob"),
    allies: Sequence[str] = (),
    territories: Mapping[str, tuple[str, int]] | None = None,
    rest: str | None = None,
    factories: Sequence[str] = (),
    ships: Mapping[str, tuple[str, str, int]] | None = None,
    risk_hands: Mapping[str, Sequence[str]] | None = None,
    poker_hands: Mapping[str, Sequence[str]] | None = None,
    suits: Mapping[str, Sequence[str]] | None = None,
    risk_draw: Sequence[str] | None = None,
    poker_draw: Sequence[str] | None = None,
    turn: str | None = "alice",
    phase: str = CAMPAIGN,
    options: Options | None = None,
) -> GameState:
    """A game in progress. ``territories``: name -> (seat, armies); ``ships``: id -> (seat,
    station, armies); the first player is the first of ``players``."""
    options = options or Options()
    bmap = load_map(options.map)
    seats = [Seat(id=p, kind=PLAYER, player=p, colour=COLOURS[i]) for i, p in enumerate(players)]
    seats += [
        Seat(id=a, kind=ALLIED, player=None, colour=COLOURS[len(players) + i],
             suits=list((suits or {}).get(a, ())))
        for i, a in enumerate(allies)
    ]  # fmt: skip
    for seat in seats:
        seat.risk_cards = list((risk_hands or {}).get(seat.id, ()))
        seat.poker_cards = list((poker_hands or {}).get(seat.id, ()))
    filler = rest if rest is not None else seats[-1].id
    holdings = {name: Holding(owner=filler, armies=1) for name in sorted(bmap.territories)}
    for name, (owner, armies) in (territories or {}).items():
        holdings[name] = Holding(owner=owner, armies=armies)
    for name in factories:
        holdings[name].factory = True
    fleet = {
        ship_id: Ship(id=ship_id, owner=owner, station=station, armies=armies)
        for ship_id, (owner, station, armies) in (ships or {}).items()
    }
    held_risk = [c for s in seats for c in s.risk_cards]
    all_risk = sorted(bmap.territories) + [WILD] * bmap.wild_cards
    for card in held_risk:
        all_risk.remove(card)
    held_poker = {c for s in seats for c in s.poker_cards}
    state = GameState(
        seed="scenario",
        options=options,
        seats=seats,
        territories=holdings,
        ships=fleet,
        risk_deck=Deck(draw=list(risk_draw) if risk_draw is not None else all_risk),
        poker_deck=Deck(
            draw=list(poker_draw)
            if poker_draw is not None
            else [c for c in POKER_DECK if c not in held_poker]
        ),
        turn=None,
        first_seat=players[0],
        next_ship=len(fleet) + 1,
    )
    state.created["setup"] = state.armies_on_board()
    if turn is not None:
        seat = state.seat(turn)
        state.turn = Turn(seat=turn, controller=seat.actor, phase=phase)
        for ship in state.ships.values():
            ship.cruises = 1 if ship.owner == turn else 0
    return state


def kamchatka_front(kamchatka: int = 2, *, mobilized: bool = True, **kwargs) -> GameState:
    """Alice's campaign: she holds Alaska and Japan (10 each), both bordering bob's Kamchatka;
    bob also holds Peru; the allied army ally-1 holds everything else. ``mobilized``: bob had
    his cut this turn already, so an attack on him rolls no mobilization dice."""
    territories = {
        "Alaska": ("alice", 10),
        "Japan": ("alice", 10),
        "Kamchatka": ("bob", kamchatka),
        "Peru": ("bob", 1),
    }
    state = make_state(allies=("ally-1",), territories=territories, **kwargs)
    if mobilized:
        state.turn.attacked.append("bob")
    return state


def act(state: GameState, action: Action, *rolls: int) -> tuple[GameState, list[Event]]:
    """Apply ``action`` with exactly these die rolls (and check they were all used)."""
    dice = FixedDice(list(rolls))
    after, events = apply(state, action, dice)
    assert dice.remaining == 0, f"{dice.remaining} of the given rolls were not used"
    return after, events


def refused(state: GameState, action: Action, *rolls: int) -> IllegalAction:
    """The IllegalAction ``action`` raises (the caller's state is untouched)."""
    with pytest.raises(IllegalAction) as caught:
        apply(state, action, FixedDice(list(rolls)))
    return caught.value


#: Actions open to a seated player at any time (not decisions the game waits for).
ANYTIME = ("leave", "concede", "vote_draw", "prefer", "join")


def decision_specs(state: GameState, player: str) -> list:
    """``legal_actions`` without the actions a player may take at any time."""
    from risk.rules import legal_actions

    return [spec for spec in legal_actions(state, player) if spec.type not in ANYTIME]


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]
