"""Decisions several players answer at once, and when an answer leaves another's as it was.

Three decisions are put to several players at the same time: arranging one's armies before the
first turn, challenging a declaration to play an allied army, and choosing one's poker cards
from the stash (the hand's first phase; its betting, draw and showdown go one seat at a time).
While they are open, one player's answer changes nothing another player is asked: the
challenge is yes or no whoever else challenged, an arrangement moves only one's own armies,
a poker choice takes cards from one's own stash. So an answer a client sent against the state
before someone else's answer committed was decided on everything that bears on it.

The server (``games.play.write``) uses this to tell such a crossing from a real conflict: a
client's answer against an older version is applied when ``simultaneous_answer`` says it answers
one of these decisions, still put to that player now, and every action logged since that
version ``leaves_alone`` that decision. Anything else logged in between (a turn, a join or a
leave that redeals the suits, the declarer's answer that ends the asking) may have changed what
the player is asked, and the client must reload. The engine still checks the answer against the
current state, so a choice the others' answers made impossible (too few poker cards left in the
deck for a small choice) is refused, never applied on the old reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.poker.draw import CHOOSE
from risk.rules.actions import Action
from risk.rules.engine import pending_decisions
from risk.rules.state import GameState
from risk.rules.vocabulary import DecisionKind

#: Each decision put to several players at once: the action type that answers it, and the
#: poker move (the poker hand is simultaneous only while its players choose their cards).
ANSWERS: Mapping[DecisionKind, tuple[str, str | None]] = {
    DecisionKind.ARRANGE: ("arrange", None),
    DecisionKind.CHALLENGE: ("challenge", None),
    DecisionKind.POKER: ("poker", CHOOSE),
}
#: Actions that change only their actor's own defence preference or draw vote: nobody's
#: decision is different after them (a draw all agree on ends the game, and then nobody is
#: asked anything).
ASIDES = frozenset({"prefer", "vote_draw"})


def _answers(kind: DecisionKind, action_type: Any, move: Any) -> bool:
    answer_type, answer_move = ANSWERS[kind]
    return action_type == answer_type and (answer_move is None or move == answer_move)


def simultaneous_answer(state: GameState, player: str, action: Action) -> DecisionKind | None:
    """The decision ``action`` answers, if it is one put to several players at once and
    ``player`` is asked it in ``state``; else None."""
    for decision in pending_decisions(state):
        if decision.player != player or decision.kind not in ANSWERS:
            continue
        if decision.kind == DecisionKind.POKER:
            hand = state.contest.hand if state.contest is not None else None
            if hand is None or hand.phase != CHOOSE:
                continue
        if _answers(decision.kind, action.type, getattr(action, "move", None)):
            return decision.kind
    return None


def leaves_alone(kind: DecisionKind, logged: Mapping[str, Any]) -> bool:
    """Whether the logged action ``logged`` (its ``to_dict``) left a player's decision
    ``kind`` as it was: another player's answer to the same decision, or an aside."""
    action_type = logged.get("type")
    return action_type in ASIDES or _answers(kind, action_type, logged.get("move"))
