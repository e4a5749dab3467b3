"""What must hold in every state of a game: nothing lost, nothing made from nowhere.

``violations(state)`` returns readable sentences, one per broken invariant, each naming the seat,
territory, ship or card at fault (an empty list: all is well). Pure like the rest of the engine,
so property tests, ``bench/endings.py`` and a replay check can all ask it after every action.

The invariants (each check below says which):

- the board: exactly the map's territories, each owned by a known seat with at least one army
  (the territory just conquered may stand empty while its battle is in stage ``won``);
- the army ledger: armies created minus armies lost equals the armies on the board
  (territories, ships, captives, and the blocks fighting in a battle);
- the cards: the map's Risk cards (one per territory, plus its wild cards) and the 52 poker cards
  are each somewhere exactly once: draw or discard pile, a seat's hand, or a poker hand on the
  table (its deck, and each player's stash, hand and discards);
- ships: each at one of the map's stations, owned by a known seat, and none empty (no army and
  no captive aboard) outside a battle (RULES.md H8: an emptied ship may sail on with captives);
- seats: a live seat holds a territory or a ship (``alive`` follows the board); an eliminated
  seat holds nothing: no territory, ship, Risk or poker card, revealed card, or pot;
- a game in progress waits on somebody and still has two players and no player holding every
  territory (else it should have ended, RULES.md J5);
- a finished game has no battle, declaration or turn, a ranking naming every player seat once,
  and a winner consistent with how it can end: the last player standing, a player holding every
  territory, the ranking's head after the round limit (``win="round-limit"``); no winner only
  when nobody is left, in an agreed draw (J8), or after a round limit with nobody ranked.

The card and territory counts come from the game's map (the version of it the game's options
name, ``load_map``), never from constants, so a second map is checked as the classic one is.
"""

from __future__ import annotations

from collections import Counter

from combat.poker.cards import DECK as POKER_DECK
from risk.rules.board_map import load_map
from risk.rules.engine import pending_decisions
from risk.rules.state import DOMINATION, PLAYER, ROUND_LIMIT, WILD, WON, GameState

__all__ = ["violations"]


def violations(state: GameState) -> list[str]:
    """Every invariant ``state`` breaks, as sentences (empty when it breaks none)."""
    found: list[str] = []
    found += _board(state)
    found += _ledger(state)
    found += _risk_cards(state)
    found += _poker_cards(state)
    found += _ships(state)
    found += _seats(state)
    found += _progress(state) if not state.over else _finished(state)
    return found


# --- the board ----------------------------------------------------------------------------------


def _board(state: GameState) -> list[str]:
    found: list[str] = []
    bmap = load_map(state.options.map, state.options.map_version)
    seat_ids = {seat.id for seat in state.seats}
    missing = sorted(set(bmap.territories) - set(state.territories))
    extra = sorted(set(state.territories) - set(bmap.territories))
    if missing:
        found.append(f"territories missing from the board: {', '.join(missing)}")
    if extra:
        found.append(f"territories not on the {state.options.map} map: {', '.join(extra)}")
    battle = state.battle
    conquered = battle.target if battle is not None and battle.stage == WON else None
    for name, holding in sorted(state.territories.items()):
        if holding.owner not in seat_ids:
            found.append(f"territory {name} is owned by {holding.owner!r}, who has no seat")
        least = 0 if name == conquered else 1
        if holding.armies < least:
            found.append(
                f"territory {name} of {holding.owner} has {holding.armies} armies "
                f"(at least {least})"
            )
        for seat_id, armies in holding.captured.items():
            if armies < 0:
                found.append(f"territory {name} holds {armies} captured armies of {seat_id}")
    return found


def _ledger(state: GameState) -> list[str]:
    created, lost = sum(state.created.values()), sum(state.lost.values())
    on_board = state.armies_on_board()
    if created - lost == on_board:
        return []
    return [
        f"army ledger: {created} created - {lost} lost = {created - lost}, but {on_board} on the "
        f"board ({created - lost - on_board:+d} unaccounted for)"
    ]


# --- the cards ----------------------------------------------------------------------------------


def _count(expected: Counter[str], places: dict[str, list[str]], what: str) -> list[str]:
    """Sentences for each card not found exactly as often as ``expected`` says, naming where."""
    seen: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    for place, cards in places.items():
        for card in cards:
            seen[card] += 1
            where.setdefault(card, []).append(place)
    found: list[str] = []
    for card in sorted(set(expected) | set(seen)):
        if seen[card] != expected[card]:
            at = ", ".join(where.get(card, [])) or "nowhere"
            found.append(
                f"{what} card {card!r} is there {seen[card]} times, not {expected[card]} "
                f"(found in: {at})"
            )
    return found


def _risk_cards(state: GameState) -> list[str]:
    bmap = load_map(state.options.map, state.options.map_version)
    expected = Counter(list(bmap.territories) + [WILD] * bmap.wild_cards)
    places = {
        "the Risk draw pile": state.risk_deck.draw,
        "the Risk discard pile": state.risk_deck.discard,
    }
    for seat in state.seats:
        places[f"{seat.id}'s hand"] = seat.risk_cards
    found = _count(expected, places, "Risk")
    for seat in state.seats:
        shown = Counter(seat.revealed) - Counter(seat.risk_cards)
        if shown:
            found.append(f"{seat.id} has revealed cards not in its hand: {sorted(shown)}")
    return found


def _poker_cards(state: GameState) -> list[str]:
    places = {
        "the poker draw pile": state.poker_deck.draw,
        "the poker discard pile": state.poker_deck.discard,
    }
    for seat in state.seats:
        places[f"{seat.id}'s poker cards"] = seat.poker_cards
    hand = state.contest.hand if state.contest is not None else None
    if hand is not None:
        places["the poker hand's deck"] = list(hand.deck)
        for player in hand.seats:
            places[f"{player.player}'s stash in the poker hand"] = list(player.stash)
            places[f"{player.player}'s poker hand"] = list(player.hand)
            places[f"{player.player}'s poker discards"] = list(player.discards)
    return _count(Counter(POKER_DECK), places, "poker")


# --- ships and seats ----------------------------------------------------------------------------


def _ships(state: GameState) -> list[str]:
    found: list[str] = []
    bmap = load_map(state.options.map, state.options.map_version)
    seat_ids = {seat.id for seat in state.seats}
    battle = state.battle
    in_battle: set[str] = set()
    if battle is not None:
        in_battle = {f.source for f in battle.flanks if f.ship} | set(battle.defending_ships)
        in_battle |= set(battle.prizes) | {battle.target}
    for ship_id, ship in sorted(state.ships.items()):
        if ship.id != ship_id:
            found.append(f"ship {ship_id} is stored under the id {ship.id}")
        if ship.owner not in seat_ids:
            found.append(f"ship {ship_id} is owned by {ship.owner!r}, who has no seat")
        if ship.station not in bmap.stations:
            found.append(f"ship {ship_id} of {ship.owner} is at {ship.station!r}, no station")
        aboard = ship.armies + sum(ship.captured.values())
        if ship.armies < 0 or any(n < 0 for n in ship.captured.values()):
            found.append(f"ship {ship_id} of {ship.owner} has a negative crew: {ship.armies}, "
                         f"captives {ship.captured}")  # fmt: skip
        if aboard < 1 and ship_id not in in_battle:
            found.append(f"ship {ship_id} of {ship.owner} at {ship.station} is empty "
                         "outside a battle")  # fmt: skip
    return found


def _seats(state: GameState) -> list[str]:
    found: list[str] = []
    counts = Counter(seat.id for seat in state.seats)
    found += [f"seat {seat_id} is seated {n} times" for seat_id, n in counts.items() if n > 1]
    for seat in state.seats:
        held = state.owned(seat.id)
        ships = [ship.id for ship in state.ships_of(seat.id)]
        if seat.alive:
            if not held and not ships:
                found.append(f"{seat.id} is alive with no territory and no ship")
            continue
        things = []
        if held:
            things.append(f"territories {', '.join(sorted(held))}")
        if ships:
            things.append(f"ships {', '.join(sorted(ships))}")
        if seat.risk_cards:
            things.append(f"{len(seat.risk_cards)} Risk cards")
        if seat.poker_cards:
            things.append(f"{len(seat.poker_cards)} poker cards")
        if seat.revealed:
            things.append(f"revealed cards {seat.revealed}")
        if seat.pot is not None:
            things.append(f"a pot of {seat.pot}")
        if things:
            found.append(f"eliminated {seat.id} still holds {'; '.join(things)}")
    return found


# --- in progress, and over ----------------------------------------------------------------------


def _active_players(state: GameState) -> list[str]:
    return [s.id for s in state.seats if s.kind == PLAYER and s.alive]


def _sole_owner(state: GameState) -> str | None:
    owners = {holding.owner for holding in state.territories.values()}
    return owners.pop() if len(owners) == 1 else None


def _progress(state: GameState) -> list[str]:
    found: list[str] = []
    if not pending_decisions(state):
        found.append("the game is not over but waits on nobody")
    if state.turn is None and state.contest is None:
        return found  # the set-up: every player is still at the table
    players = _active_players(state)
    if len(players) <= 1:
        left = players[0] if players else "nobody"
        found.append(f"the game is not over with one player or none left ({left})")
    owner = _sole_owner(state)
    if owner is not None and owner in players and _domination_ends(state):
        found.append(f"the game is not over though player {owner} holds every territory")
    return found


def _domination_ends(state: GameState) -> bool:
    """Holding every territory ends the game: the option, or any game of rule revision 1
    (RULES.md J5)."""
    return state.options.win == DOMINATION or state.options.revision < 2


def _stalemate(state: GameState, active: list[str]) -> bool:
    """No live player holds land, so the landless rule ended the game (RULES.md J10)."""
    return state.options.pirate_turns is not None and not any(state.owned(p) for p in active)


def _finished(state: GameState) -> list[str]:
    found: list[str] = []
    for what, value in (("battle", state.battle), ("declaration", state.contest),
                        ("turn", state.turn)):  # fmt: skip
        if value is not None:
            found.append(f"the game is over with a {what} still in progress")
    players = [s.id for s in state.seats if s.kind == PLAYER]
    if Counter(state.ranking) != Counter(players):
        found.append(f"the ranking {state.ranking} does not name each player seat "
                     f"({', '.join(players) or 'none'}) exactly once")  # fmt: skip
    active = _active_players(state)
    winner = state.winner
    limit = state.options.round_limit
    after_limit = state.options.win == ROUND_LIMIT and limit is not None and state.round > limit
    if winner is not None:
        if winner not in players:
            found.append(f"the winner {winner} is not a player seat")
        elif not (
            active == [winner]
            or (_sole_owner(state) == winner and _domination_ends(state))
            or ((after_limit or _stalemate(state, active)) and state.ranking[:1] == [winner])
        ):
            found.append(
                f"the winner {winner} is neither the last player standing (left: "
                f"{', '.join(active) or 'nobody'}), nor holds every territory where that wins, "
                "nor heads the ranking after the round limit or a stalemate"
            )
    else:
        drawn = bool(active) and set(active) <= set(state.draw_votes)
        if active and not drawn and not (after_limit and not state.ranking):
            found.append(
                f"the game ended with no winner, no agreed draw and players left: "
                f"{', '.join(active)}"
            )
    return found
