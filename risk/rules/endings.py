"""What is still in play when a game ends: settled before the final state is written.

A game can end in the middle of a battle or a poker hand of other seats: the second-to-last
player leaves or concedes, the last live player not yet agreeing to a draw votes for one. Under
revision 2 nothing in play vanishes with the game (RULES.md J11): the armies of the battle go
back where they came from, and the poker hand's cards go back to the stashes and decks, so the
army ledger and the card counts hold on the final state.
"""

from __future__ import annotations

from risk.rules import battles, board, touched
from risk.rules.actions import MoveIn
from risk.rules.board import Event
from risk.rules.state import LAND, NORMAL, WON, GameState


def settle_unfinished(state: GameState, events: list[Event]) -> None:
    """Close a battle in progress and call off a poker hand in progress (RULES.md J11)."""
    settle_battle(state, events)
    call_off_poker(state, events)


def settle_battle(state: GameState, events: list[Event]) -> None:
    """A battle in progress ends as it would have on the spot.

    - Won and waiting for the move-in: the attacker moves in with every army still standing
      (the legal move-in that leaves nothing to choose), and the defender may be eliminated.
    - Otherwise it is broken off: the blocks and flanks go back to their sources (a ship's crew
      back aboard), captured armies stay the captor's captives where they are held (a block's
      captives at its source, as when a battle fails), mobilization dice not yet placed are not
      placed, and prizes nobody boarded sink, as when no ship can board them (RULES.md H12).
    """
    battle = state.battle
    if battle is None:
        return
    battle.mobilization = None
    if battle.kind == LAND and battle.stage == WON and state.turn is not None:
        standing = sum(f.standing for f in battle.flanks if not f.out)
        moving = standing if battle.mode == NORMAL else 0  # committed: ``armies`` is the extra
        battles.do_move_in(state, MoveIn(player=state.turn.controller, armies=moving), events)
        return
    for ship_id in battle.prizes:
        if ship_id in state.ships:
            board.sink(state, state.ships[ship_id], "sunk", events)
    battle.prizes = []
    events.append({"type": "battle_called_off", "target": battle.target})
    battles._close(state, success=False, events=events)  # as a failed or broken-off battle


def call_off_poker(state: GameState, events: list[Event]) -> None:
    """A poker hand in progress is called off: every stake goes back to its pot, the cards not
    played go back to the stashes, the cards in the hands and the draws' discards go to the poker
    discard pile, and what is left of the hand's deck goes back on the poker draw pile."""
    contest = state.contest
    if contest is None or contest.hand is None:
        return
    hand = contest.hand
    for hseat in hand.seats:
        seat = state.seat(hseat.player)
        seat.pot = hseat.pot + hseat.staked
        seat.poker_cards = list(hseat.stash) + seat.poker_cards
        state.poker_deck.discard += list(hseat.hand) + list(hseat.discards)
        touched.pile(touched.POKER, touched.HAND, seat.id)
    state.poker_deck.draw = list(hand.deck) + state.poker_deck.draw
    touched.deck(touched.POKER)
    touched.poker_hand([s.player for s in hand.seats])
    contest.hand = None
    events.append({"type": "poker_called_off", "seats": [s.player for s in hand.seats]})
