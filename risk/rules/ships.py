"""Ships on their own: cruises of 2d6 boat lengths, sailing the station graph, ferrying armies.

Rule text "Ships" ("Movement", "Ferrying Armies"); design.md section 5. Landings and naval battles
are battles (``risk.rules.battles``). Decisions in risk/RULES.md: a ship may start one cruise a
turn, and one more after each success (a pick-up at a port it has not used this turn, a landing
that takes the territory, a naval battle won); it acts only while cruising; it loads and unloads
at coasts within one boat length and always keeps one army aboard.
"""

from __future__ import annotations

from combat.dice import Dice
from risk.rules import board, touched
from risk.rules.actions import Cruise, Disembark, Embark, EndCruise, IllegalAction, Sail
from risk.rules.board import Event
from risk.rules.campaign import campaign_ready
from risk.rules.state import GameState, Ship
from risk.rules.vocabulary import Refusal

CRUISE_DICE = 2
LOADING_REACH = 1


def _own_ship(state: GameState, ship_id: str) -> Ship:
    campaign_ready(state)
    if state.battle is not None:
        raise IllegalAction(Refusal.BATTLE, "a battle is in progress")
    assert state.turn is not None
    ship = state.ships.get(ship_id)
    if ship is None:
        raise IllegalAction(Refusal.SHIP, f"no ship {ship_id!r}", field="ship")
    if ship.owner != state.turn.seat:
        raise IllegalAction(Refusal.NOT_YOURS, f"{ship_id} is not yours", field="ship")
    if ship.out_of_action:
        raise IllegalAction(
            Refusal.OUT_OF_ACTION, f"{ship_id} took a prize: out of action this turn", field="ship"
        )
    return ship


def _cruising(state: GameState, ship_id: str) -> Ship:
    ship = _own_ship(state, ship_id)
    if not ship.cruising:
        raise IllegalAction(Refusal.NOT_CRUISING, f"{ship_id} is not on a cruise: cruise first",
                            field="ship")  # fmt: skip
    return ship


def do_cruise(state: GameState, action: Cruise, dice: Dice, events: list[Event]) -> None:
    ship = _own_ship(state, action.ship)
    if ship.cruising:
        raise IllegalAction(Refusal.CRUISING, f"{ship.id} is on a cruise already", field="ship")
    if ship.cruises < 1:
        raise IllegalAction(
            Refusal.NO_CRUISE, f"{ship.id} has no cruise left this turn", field="ship"
        )
    rolls = [dice.roll(6) for _ in range(CRUISE_DICE)]
    ship.cruises -= 1
    ship.cruising, ship.moves = True, sum(rolls)
    events.append({"type": "cruise", "ship": ship.id, "rolls": rolls, "moves": ship.moves})


def do_sail(state: GameState, action: Sail, events: list[Event]) -> None:
    ship = _cruising(state, action.ship)
    bmap = board.board_map(state)
    if action.station not in bmap.stations:
        raise IllegalAction(Refusal.STATION, f"no station {action.station!r}", field="station")
    distance = bmap.distance(ship.station, action.station)
    if distance is None or distance > ship.moves or distance == 0:
        raise IllegalAction(
            Refusal.OUT_OF_RANGE, f"{action.station} is {distance} boat lengths away; "
            f"{ship.id} has {ship.moves} left", field="station",
        )  # fmt: skip
    ship.station, ship.moves = action.station, ship.moves - distance
    touched.ship(ship.id)
    events.append({"type": "sailed", "ship": ship.id, "station": ship.station,
                   "distance": distance, "moves": ship.moves})  # fmt: skip


def _coast(state: GameState, ship: Ship, territory: str) -> None:
    assert state.turn is not None
    holding = state.territories.get(territory)
    if holding is None or holding.owner != state.turn.seat:
        raise IllegalAction(Refusal.TERRITORY, f"{territory!r} is not one of your territories",
                            field="territory")  # fmt: skip
    if territory not in board.board_map(state).coasts_within(ship.station, LOADING_REACH):
        raise IllegalAction(Refusal.OUT_OF_REACH, f"{territory} is not within one boat length of "
                            f"{ship.station}", field="territory")  # fmt: skip


def do_embark(state: GameState, action: Embark, events: list[Event]) -> None:
    ship = _cruising(state, action.ship)
    _coast(state, ship, action.territory)
    assert state.turn is not None
    if action.territory in state.turn.locked:
        raise IllegalAction(Refusal.LOCKED, f"a committed attack from {action.territory} failed: "
                            "no more action from it", field="territory")  # fmt: skip
    holding = state.territories[action.territory]
    if not 1 <= action.armies <= holding.armies - 1:
        raise IllegalAction(Refusal.ARMIES, f"pick up 1 to {holding.armies - 1} armies (one stays)",
                            field="armies")  # fmt: skip
    holding.armies -= action.armies
    ship.armies += action.armies
    touched.territory(action.territory)
    touched.ship(ship.id)
    new_port = action.territory not in ship.ports
    if new_port:  # a successful pick-up ends this cruise and earns another
        ship.ports.append(action.territory)
        ship.cruising, ship.moves, ship.cruises = False, 0, ship.cruises + 1
    events.append({"type": "embarked", "ship": ship.id, "territory": action.territory,
                   "armies": action.armies, "new_cruise": new_port})  # fmt: skip


def do_disembark(state: GameState, action: Disembark, events: list[Event]) -> None:
    ship = _cruising(state, action.ship)
    _coast(state, ship, action.territory)
    if not 1 <= action.armies <= ship.armies - 1:
        raise IllegalAction(
            Refusal.ARMIES,
            f"drop off 1 to {ship.armies - 1} armies (one stays aboard)",
            field="armies",
        )
    ship.armies -= action.armies
    state.territories[action.territory].armies += action.armies
    touched.ship(ship.id)
    touched.territory(action.territory)
    events.append({"type": "disembarked", "ship": ship.id, "territory": action.territory,
                   "armies": action.armies})  # fmt: skip


def do_end_cruise(state: GameState, action: EndCruise, events: list[Event]) -> None:
    ship = _cruising(state, action.ship)
    ship.cruising, ship.moves = False, 0
    events.append({"type": "cruise_ended", "ship": ship.id})
