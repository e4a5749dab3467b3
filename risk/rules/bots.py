"""The bot interface, and the random legal player that fills seats until the AI issue lands.

A bot decides from what its seat may see, never from the whole state: ``BotView`` carries the
seat's ``view_for`` dict and ``redacted_state``, a ``GameState`` in which every card the seat may
not see (other hands, both draw piles, the poker discard pile, others' poker cards inside a hand)
is replaced by ``HIDDEN`` and the seed is blanked. A bot that peeked would therefore only find
question marks; tests check that no hidden card survives the redaction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Protocol

from combat.poker.draw import MUCKED
from combat.poker.draw import Seat as PokerSeat
from risk.rules.actions import Action
from risk.rules.engine import ActionSpec, legal_actions
from risk.rules.sampler import sample_action
from risk.rules.state import GameState, clone
from risk.rules.views import controls_turn_of, view_for

#: What a card the viewer may not see looks like in a redacted state.
HIDDEN = "?"


@dataclass(frozen=True)
class BotView:
    """What a bot acting as ``player`` knows: its view, and the state with secrets blanked."""

    player: str
    view: dict[str, Any]
    state: GameState


class Bot(Protocol):
    def decide(self, view: BotView, legal: list[ActionSpec]) -> Action: ...


class RandomBot:
    """A random legal player (``sample_action`` over the redacted state): it really plays, badly.

    ``rng`` is the bot's own randomness, not the game's dice: the action it picks is logged,
    so a replay needs the log only, never this generator.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: BotView, legal: list[ActionSpec]) -> Action:
        return sample_action(view.state, view.player, self.rng)


def bot_view(state: GameState, player: str) -> BotView:
    return BotView(player, view_for(state, player), redacted_state(state, player))


def decide(bot: Bot, state: GameState, player: str) -> Action:
    """Ask ``bot`` for ``player``'s next action, giving it only what ``player`` may see."""
    view = bot_view(state, player)
    return bot.decide(view, legal_actions(view.state, player))


def redacted_state(state: GameState, player: str | None) -> GameState:
    """``state`` as ``player`` may know it: hidden cards replaced by ``HIDDEN``, no seed."""
    seen = clone(state)
    me = seen.seat_of_actor(player) if player is not None else None
    for seat in seen.seats:
        if me is None or seat.id != me.id:
            if not controls_turn_of(state, player, seat.id):
                seat.risk_cards = [HIDDEN] * len(seat.risk_cards)
            seat.poker_cards = [HIDDEN] * len(seat.poker_cards)
    seen.risk_deck.draw = [HIDDEN] * len(seen.risk_deck.draw)
    seen.poker_deck.draw = [HIDDEN] * len(seen.poker_deck.draw)
    seen.poker_deck.discard = [HIDDEN] * len(seen.poker_deck.discard)
    contest = seen.contest
    if contest is not None and contest.hand is not None:
        hand = contest.hand
        mine = me.id if me is not None else None
        seats = tuple(s if s.player == mine else _hide_poker_seat(s) for s in hand.seats)
        seen.contest = replace(
            contest, hand=replace(hand, seats=seats, deck=(HIDDEN,) * len(hand.deck))
        )
    seen.seed = ""
    return seen


def _hide_poker_seat(seat: PokerSeat) -> PokerSeat:
    """Another player's poker seat: stash and discards hidden, the hand too unless shown."""
    return replace(
        seat,
        stash=(HIDDEN,) * len(seat.stash),
        hand=seat.hand if seat.shown and seat.status != MUCKED else (HIDDEN,) * len(seat.hand),
        discards=(HIDDEN,) * len(seat.discards),
        stash_cards=(HIDDEN,) * len(seat.stash_cards),
    )
