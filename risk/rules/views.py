"""What one player may see: ``view_for`` and ``events_for`` strip hidden information.

Hidden (rule text and design.md section 2): the cards in another seat's hands (Risk and poker),
the order of both decks and the poker deck inside a hand, the seed until the game is over, and
the cards inside another player's private events. Everything else is public: the board, every
ship's crew, pots, counts of cards, the battle and the declaration in progress. An allied army's
cards are hidden too (the AI that speaks for it sees them through its seat id).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from combat import poker
from combat.dice import commitment_of
from risk.rules.engine import legal_actions, pending_decisions
from risk.rules.state import GameState, Holding, Ship, plain

#: The shared keys between "seats" and "contest", in a view's order.
BOARD_KEYS = ("territories", "ships", "risk_deck", "poker_deck", "turn", "battle")
#: The keys of a view that differ from one viewer to another; every other key is the same for
#: all (``views_for`` builds those once, and ``games.play.push`` diffs them once).
PER_VIEWER_KEYS = ("you", "seats", "contest", "legal_actions")


def view_for(state: GameState, player: str | None) -> dict[str, Any]:
    """The state as ``player`` (a person, an allied seat's id, or None for a spectator) sees it."""
    return views_for(state, [player])[player]


def views_for(state: GameState, players: Iterable[str | None]) -> dict[str | None, dict[str, Any]]:
    """``view_for`` of each of ``players``, the public part built once and shared.

    After every action the server builds two views (before and after) for each seat and the
    spectators; the board, ships and decks are the same in all of them. The views share those
    values (the same objects): read them, never change them in place.
    """
    public_seats = [_public_seat(seat) for seat in state.seats]
    shared: dict[str, Any] = {
        "version": state.version,
        "options": state.options.to_dict(),
        "seed_commitment": commitment_of(state.seed),
        "round": state.round,
        "turn_number": state.turn_number,
        "first_seat": state.first_seat,
        "territories": {n: _holding(h) for n, h in state.territories.items()},
        "ships": {k: _ship(s) for k, s in state.ships.items()},
        "risk_deck": {"draw": len(state.risk_deck.draw), "discard": len(state.risk_deck.discard)},
        "poker_deck": {
            "draw": len(state.poker_deck.draw),
            "discard": len(state.poker_deck.discard),
        },
        "turn": plain(state.turn),
        "battle": plain(state.battle),
        "draw_votes": list(state.draw_votes),
        "landless": dict(state.landless),  # RULES.md J10: landless turns begun, per player
        "eliminated": list(state.eliminated),  # J12: the order seats went out
        "pending": [plain(d) for d in pending_decisions(state)],
        "over": state.over,
        "winner": state.winner,
        "ranking": list(state.ranking),
    }
    if state.over:
        shared["seed"] = state.seed  # revealed at the end so every roll can be checked
    views: dict[str | None, dict[str, Any]] = {}
    for player in players:
        me = state.seat_of_actor(player) if player is not None else None
        seats = list(public_seats)
        for i, seat in enumerate(state.seats):
            if me is not None and seat.id == me.id:
                seats[i] = {**seats[i], "risk_hand": list(seat.risk_cards),
                            "poker_hand": list(seat.poker_cards)}  # fmt: skip
            elif controls_turn_of(state, player, seat.id):
                # The allied army's sets are theirs to play.
                seats[i] = {**seats[i], "risk_hand": list(seat.risk_cards)}
        views[player] = {
            "version": shared["version"],
            "options": shared["options"],
            "seed_commitment": shared["seed_commitment"],
            "you": me.id if me is not None else None,
            **{k: shared[k] for k in ("round", "turn_number", "first_seat")},
            "seats": seats,
            **{k: shared[k] for k in BOARD_KEYS},
            "contest": _contest_view(state, me.id if me is not None else None),
            **{k: shared[k] for k in ("draw_votes", "landless", "eliminated", "pending")},
            "legal_actions": [plain(a) for a in legal_actions(state, player)] if player else [],
            **{k: shared[k] for k in ("over", "winner", "ranking")},
            **({"seed": shared["seed"]} if state.over else {}),
        }
    return views


def _public_seat(seat: Any) -> dict[str, Any]:
    return {
        "id": seat.id, "kind": seat.kind, "player": seat.player, "colour": seat.colour,
        "suits": list(seat.suits), "alive": seat.alive, "set_up": seat.set_up,
        "pot": seat.pot, "risk_cards": len(seat.risk_cards),
        "poker_cards": len(seat.poker_cards), "defence_dice": seat.defence_dice,
        "reveal": seat.reveal, "revealed": list(seat.revealed),
    }  # fmt: skip


def _holding(h: Holding) -> dict[str, Any]:
    # Written out: ``asdict`` on 42 territories was a third of a view's time, and a view is
    # built for every seat after every action.
    return {"owner": h.owner, "armies": h.armies, "factory": h.factory,
            "captured": dict(h.captured)}  # fmt: skip


def _ship(s: Ship) -> dict[str, Any]:
    return {"id": s.id, "owner": s.owner, "station": s.station, "armies": s.armies,
            "captured": dict(s.captured), "cruises": s.cruises, "moves": s.moves,
            "cruising": s.cruising, "out_of_action": s.out_of_action,
            "ports": list(s.ports)}  # fmt: skip


def controls_turn_of(state: GameState, player: str | None, seat_id: str) -> bool:
    """Whether ``player`` is playing ``seat_id``'s turn for it (an allied turn they declared):
    they may turn in its Risk cards, so they see them while the turn lasts (RULES.md A-rules)."""
    turn = state.turn
    return (
        player is not None
        and turn is not None
        and turn.seat == seat_id
        and turn.controller == player
        and turn.for_seat is not None
    )


def _contest_view(state: GameState, seat_id: str | None) -> dict[str, Any] | None:
    contest = state.contest
    if contest is None:
        return None
    hand = None
    if contest.hand is not None:
        in_hand = seat_id is not None and any(s.player == seat_id for s in contest.hand.seats)
        hand = poker.view_for(contest.hand, seat_id if in_hand else None)
    return {"declarer": contest.declarer, "ally": contest.ally, "answers": dict(contest.answers),
            "stage": contest.stage, "hand": hand, "owed": list(contest.owed)}  # fmt: skip


def events_for(
    state: GameState, events: Iterable[Mapping[str, Any]], player: str | None
) -> list[dict[str, Any]]:
    """``events`` as ``player`` may see them, as JSON dicts: others' private cards stripped."""
    me = state.seat_of_actor(player) if player is not None else None
    return poker.events_for(events, me.id if me is not None else None)  # the same filter


#: Action fields only the actor may see: the poker cards chosen or drawn, the cards discarded
#: (their count is public, through the ``discarded`` event).
PRIVATE_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "poker": ("cards", "from_stash"),
    "discard": ("cards",),
}


def action_for(action: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    """A logged action as ``viewer`` may see it: another player's private fields dropped."""
    hidden = PRIVATE_ACTION_FIELDS.get(str(action.get("type")), ())
    if not hidden or (viewer is not None and action.get("player") == viewer):
        return dict(action)
    return {key: value for key, value in action.items() if key not in hidden}
