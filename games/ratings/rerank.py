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

A game still running gets the order too (from its log, in place of the seat-order guess the
upcaster makes for a board saved before the order was recorded), so it finishes ranked right.
Tournament tables already scored keep their places (a table's score is not recomputed here).

Migration ``0013_rerank_by_elimination_order`` runs ``rerank_all`` with the migration's own
(historical) models, so a deploy corrects every game before the server serves it; ``manage.py
rerate`` then rates on the corrected order, and ``rerate --rerank`` runs it again by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import transaction

from games.models import ActionLog, Game, GameSnapshot
from risk.rules import GameState, to_dict
from risk.rules.state import SCHEMA_VERSION
from risk.rules.turns import ranking
from risk.rules.upcast import load_state


@dataclass(frozen=True)
class Reranked:
    """A game corrected: its ranking ``before`` and ``after`` (both empty for a game still
    running, whose board only got its elimination order)."""

    game_id: int
    before: list[str]
    after: list[str]

    def line(self) -> str:
        if not self.after:
            return f"game {self.game_id}: elimination order recorded (still running)"
        return f"game {self.game_id}: ranking {self.before} -> {self.after}"


class Models(NamedTuple):
    """The three tables it reads and writes: today's models, or a migration's historical ones."""

    game: Any
    snapshot: Any
    log: Any


MODELS = Models(Game, GameSnapshot, ActionLog)


def rerank_all(models: Models = MODELS) -> list[Reranked]:
    """Every started game corrected: a finished game ranked again, a running game's board given
    the order its players went out (else a game running now would finish with the seat-order
    guess of ``upcast`` and no longer match its replay); the games that changed."""
    games = models.game.objects.filter(snapshot__isnull=False).order_by("pk")
    changed = []
    for game_id in games.values_list("pk", flat=True):
        done = rerank_game(game_id, models)
        if done is not None:
            changed.append(done)
    return changed


def rerank_game(game_id: int, models: Models = MODELS) -> Reranked | None:
    """One game corrected from its log and board, under its row lock (as every action takes it);
    None when there is nothing to change (already right, or a finished game without a ranking:
    ended by an administrator)."""
    with transaction.atomic():
        game = models.game.objects.select_for_update().get(pk=game_id)
        snapshot = models.snapshot.objects.select_for_update().filter(pk=game.pk).first()
        if snapshot is None:
            return None
        try:
            state = load_state(snapshot.state)
        except (ValueError, TypeError, KeyError):  # not a state this engine reads: left alone
            return None
        entries = list(models.log.objects.filter(game=game).order_by("sequence"))
        out = [e["seat"] for entry in entries for e in entry.events if e["type"] == "eliminated"]
        # The order the board holds, stored or (saved before it was recorded) guessed by the
        # upcaster: a board whose guess is right is left as it was stored.
        recorded = state.eliminated == out
        state.eliminated = out
        if not state.over:
            if recorded:
                return None
            _save(models, snapshot, state)
            return Reranked(game.pk, [], [])
        result = dict(game.result or {})
        before = result.get("ranking")
        if game.status != Game.Status.FINISHED or not before:
            return None
        after = ranking(state, state.winner)
        if after == before and state.ranking == after and recorded:
            return None
        state.ranking = after
        _save(models, snapshot, state)
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


def _save(models: Models, snapshot: Any, state: GameState) -> None:
    models.snapshot.objects.filter(pk=snapshot.pk).update(
        state=to_dict(state), schema_version=SCHEMA_VERSION
    )
