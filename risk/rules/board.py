"""Primitives every part of the engine shares: the map, bonuses, the army ledger, decks, events.

They change the (already cloned) state in place; the public ``apply`` is what keeps the caller's
state untouched.
"""

from __future__ import annotations

from typing import Any

from combat.cards import Card, is_set
from combat.dice import Dice, shuffle
from risk.rules import touched
from risk.rules.actions import IllegalAction
from risk.rules.board_map import BoardMap, load_map
from risk.rules.state import ALLIED, PLAYER, WILD, Deck, GameState, Seat, Ship
from risk.rules.vocabulary import Refusal

Event = dict[str, Any]

#: Armies per factory at the start of a turn, on the factory's territory.
FACTORY_ARMIES = 2
MIN_TERRITORY_BONUS = 3
POKER_LIMIT = 5
MUST_TURN_IN_AT = 5


def board_map(state: GameState) -> BoardMap:
    return load_map(state.options.map, state.options.map_version)


# --- the army ledger ----------------------------------------------------------------------------


def create(state: GameState, source: str, armies: int) -> None:
    """Record armies entering the board (reinforcements, set-up, mobilization, ship crews)."""
    if armies:
        state.created[source] = state.created.get(source, 0) + armies


def destroy(state: GameState, cause: str, armies: int) -> None:
    """Record armies leaving the board (battle losses, ships sunk with their crews)."""
    if armies:
        state.lost[cause] = state.lost.get(cause, 0) + armies


# --- bonuses ------------------------------------------------------------------------------------


def territory_bonus(state: GameState, seat_id: str) -> int:
    """Territories / 3, at least 3 — and nothing for a seat holding no territory (a pirate)."""
    count = len(state.owned(seat_id))
    return max(MIN_TERRITORY_BONUS, count // 3) if count else 0


def continent_bonus(state: GameState, seat_id: str) -> int:
    owned = set(state.owned(seat_id))
    return sum(c.bonus for c in board_map(state).continents.values() if set(c.territories) <= owned)


def stake(state: GameState, seat_id: str) -> int:
    """The betting pot a seat counts out: next turn's territory and continent bonus (design.md)."""
    return territory_bonus(state, seat_id) + continent_bonus(state, seat_id)


# --- seats --------------------------------------------------------------------------------------


def actor_seat(state: GameState, actor: str) -> Seat:
    seat = state.seat_of_actor(actor)
    if seat is None:
        raise IllegalAction(
            Refusal.UNKNOWN_PLAYER, f"{actor!r} plays no army in this game", field="player"
        )
    return seat


def is_alive(state: GameState, seat_id: str) -> bool:
    return any(h.owner == seat_id for h in state.territories.values()) or any(
        s.owner == seat_id for s in state.ships.values()
    )


def active_players(state: GameState) -> list[Seat]:
    return [s for s in state.seats if s.kind == PLAYER and s.alive]


def live_allies(state: GameState) -> list[Seat]:
    return [s for s in state.seats if s.kind == ALLIED and s.alive]


def check_eliminated(state: GameState, seat_id: str, by: str | None, events: list[Event]) -> None:
    """A seat left with no territory and no ship is out; its conqueror takes its cards."""
    seat = state.seat(seat_id)
    if not seat.alive or is_alive(state, seat_id):
        return
    seat.alive = False
    touched.hands(seat_id)
    state.eliminated.append(seat_id)
    state.landless.pop(seat_id, None)
    event: Event = {"type": "eliminated", "seat": seat_id, "by": by}
    if by is not None and by != seat_id:
        # The army that beat it takes its Risk cards; its poker cards go to the person who beat
        # it, also when that person was playing an allied army at the time (RULES.md J4).
        victor = state.seat(by)
        turn = state.turn
        player = turn.for_seat if turn is not None and turn.seat == by and turn.for_seat else by
        event["risk_cards"] = len(seat.risk_cards)
        event["poker_cards"] = len(seat.poker_cards)
        event["poker_to"] = player
        victor.risk_cards += seat.risk_cards
        state.seat(player).poker_cards += seat.poker_cards
        touched.pile(touched.RISK, touched.HAND, victor.id)
        touched.pile(touched.POKER, touched.HAND, player)
    else:  # nobody beat it (a pirate sunk on its own attack): its cards go to the discards
        state.risk_deck.discard += seat.risk_cards
        state.poker_deck.discard += seat.poker_cards
        touched.pile(touched.RISK, touched.DISCARD)
        touched.pile(touched.POKER, touched.DISCARD)
    seat.risk_cards, seat.poker_cards, seat.revealed = [], [], []
    seat.pot = None
    if seat.id in state.draw_votes:
        state.draw_votes.remove(seat.id)
    events.append(event)


def stranded(state: GameState, seat_id: str) -> bool:
    """A pirate (no territory) none of whose ships can land (a landing needs two armies aboard:
    one always stays, or a committed block of two) nor fight (no other seat's ship shares an
    ocean with one of them): nothing it could ever do would change the game (RULES.md J6)."""
    if any(h.owner == seat_id for h in state.territories.values()):
        return False
    mine = state.ships_of(seat_id)
    if not mine:
        return False
    if any(s.armies + sum(s.captured.values()) >= 2 for s in mine):
        return False
    bmap = board_map(state)
    oceans = {bmap.ocean_of(s.station) for s in mine}
    return not any(
        s.owner != seat_id and bmap.ocean_of(s.station) in oceans for s in state.ships.values()
    )


def scuttle(state: GameState, seat_id: str, events: list[Event]) -> None:
    """A stranded pirate is out: its ships are given up and it is eliminated (nobody beat it)."""
    events.append({"type": "stranded", "seat": seat_id})
    for ship in state.ships_of(seat_id):
        sink(state, ship, "scuttled", events)
    check_eliminated(state, seat_id, None, events)


# --- cards --------------------------------------------------------------------------------------


def card_of(state: GameState, name: str) -> Card:
    if name == WILD:
        return Card(territory=None, symbol="wild")
    return Card(territory=name, symbol=board_map(state).territories[name].card)


def cards_form_set(state: GameState, names: list[str]) -> bool:
    return len(names) == 3 and is_set([card_of(state, n) for n in names])


def draw_card(deck: Deck, dice: Dice, kind: str) -> str | None:
    """The top card (the discard pile reshuffled when the draw pile is empty); None if none.
    ``kind``: the deck's, "risk" or "poker" (``touched``)."""
    if not deck.draw:
        if not deck.discard:
            return None
        deck.draw, deck.discard = list(shuffle(deck.discard, dice)), []
        touched.pile(kind, touched.DISCARD)
    touched.pile(kind, touched.DRAW)
    return deck.draw.pop(0)


def cut_card(deck: Deck, dice: Dice) -> str | None:
    """The card a cut reveals, at position ``dice.roll(len(pile))``: the draw pile, or the
    discard pile when the draw pile is empty. The cut is restacked as it was, so a cut never
    changes who draws what; a one-card pile needs no roll."""
    pile = deck.draw or deck.discard
    if not pile:
        return None
    return pile[0] if len(pile) == 1 else pile[dice.roll(len(pile)) - 1]


def give_cards(state: GameState, seat: Seat, risk: int, poker: int, dice: Dice) -> Event:
    """Draw Risk and poker cards into a seat's hand; the event names them for the owner only."""
    drawn_risk = [c for c in (draw_card(state.risk_deck, dice, "risk") for _ in range(risk)) if c]
    drawn_poker = [
        c for c in (draw_card(state.poker_deck, dice, "poker") for _ in range(poker)) if c
    ]
    seat.risk_cards += drawn_risk
    seat.poker_cards += drawn_poker
    touched.hands(seat.id)
    return {
        "type": "cards_drawn",
        "seat": seat.id,
        "risk": len(drawn_risk),
        "poker": len(drawn_poker),
        "private_to": seat.id,
        "cards": drawn_risk + drawn_poker,
    }


# --- ships --------------------------------------------------------------------------------------


def new_ship(state: GameState, owner: str, station: str, armies: int) -> Ship:
    ship = Ship(id=f"S{state.next_ship}", owner=owner, station=station, armies=armies)
    state.next_ship += 1
    state.ships[ship.id] = ship
    touched.ship(ship.id)
    return ship


def sink(state: GameState, ship: Ship, cause: str, events: list[Event]) -> None:
    """The ship goes down with everyone aboard, captured armies included."""
    aboard = ship.armies + sum(ship.captured.values())
    destroy(state, cause, aboard)
    del state.ships[ship.id]
    touched.ship(ship.id)
    events.append({"type": "ship_sunk", "ship": ship.id, "owner": ship.owner, "armies": aboard})


def coastal_stations(state: GameState, territories: list[str]) -> list[str]:
    bmap = board_map(state)
    return [key for t in territories for key in bmap.stations_of(t)]
