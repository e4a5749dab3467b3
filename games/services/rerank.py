"""Finished games ranked again by the engine's current ranking (``manage.py rerate --rerank``).

Until RULES.md J12 the engine ranked the eliminated players like the living, by territories and
armies: all (0, 0), so they fell back to seat order, and rated 3-6 player games (OpenSkill) and
tournament places used that order. The order players went out is in every game's log (each
``eliminated`` event, in sequence order), and the final board is the game's snapshot, so a
finished game's ranking is computed again without replaying it: the snapshot gets the order
(``GameState.eliminated``) and the new ranking, the result its ranking, and the ``game_over``
event that announced the ranking says the same, so ``manage.py verify_game``, which replays the
game with today's engine, still finds the log, the result and the board it replays to. Nothing
else changes: every action, roll and other event stays as it was logged.

Tournament tables already scored keep their places (a table's score is not recomputed here).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games.models import ActionLog, Game, GameSnapshot
from risk.rules import to_dict
from risk.rules.state import SCHEMA_VERSION
from risk.rules.turns import ranking
from risk.rules.upcast import load_state


@dataclass(frozen=True)
class Reranked:
    game_id: int
    before: list[str]
    after: list[str]


def rerank_all() -> list[Reranked]:
    """Every finished game with a ranking, ranked again; the games whose ranking changed."""
    ids = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    changed = []
    for game_id in ids.values_list("pk", flat=True):
        done = rerank_game(game_id)
        if done is not None:
            changed.append(done)
    return changed


def rerank_game(game_id: int) -> Reranked | None:
    """One finished game ranked again from its log and final board, under its row lock; None
    when there is nothing to change (no ranking: ended by an administrator; or already right)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        result = dict(game.result or {})
        before = result.get("ranking")
        snapshot = GameSnapshot.objects.select_for_update().filter(pk=game.pk).first()
        if game.status != Game.Status.FINISHED or not before or snapshot is None:
            return None
        state = load_state(snapshot.state)
        if not state.over:
            return None
        entries = list(ActionLog.objects.filter(game=game).order_by("sequence"))
        out = [e["seat"] for entry in entries for e in entry.events if e["type"] == "eliminated"]
        state.eliminated = out
        after = ranking(state, state.winner)
        if after == before and state.ranking == after and _stored_order(snapshot) == out:
            return None
        state.ranking = after
        GameSnapshot.objects.filter(pk=game.pk).update(
            state=to_dict(state), schema_version=SCHEMA_VERSION
        )
        game.result = {**result, "ranking": after}
        game.save(update_fields=["result"])
        for entry in reversed(entries):
            if any(e["type"] == "game_over" for e in entry.events):
                entry.events = [
                    {**e, "ranking": after} if e["type"] == "game_over" else e for e in entry.events
                ]
                entry.save(update_fields=["events"])
                break
        return Reranked(game.pk, list(before), after)


def _stored_order(snapshot: GameSnapshot) -> list[str] | None:
    order = snapshot.state.get("eliminated")
    return list(order) if isinstance(order, list) else None
