"""The bot task: it plays what the bots are waited for and hands long runs to a fresh task."""

from __future__ import annotations

import pytest

from games import tasks
from games.models import ActionLog, Game, Seat
from games.services import bots, lobby


@pytest.mark.django_db(transaction=True)
def test_run_bots_takes_a_bounded_number_of_steps_and_queues_the_rest(alice, monkeypatch):
    """With 7 steps a task, a game two bots play out alone (alice has left; with one player
    left a game would end at once) is played by several tasks, none
    taking more than 7 steps, and every step is logged once."""
    monkeypatch.setattr(tasks, "BOT_STEPS_PER_TASK", 7)
    runs: list[int] = []
    play = bots.bots_play

    def counted(game_id: int, *, limit: int) -> int:
        taken = play(game_id, limit=limit)
        runs.append(taken)
        return taken

    monkeypatch.setattr(bots, "bots_play", counted)
    game = lobby.game_create(creator=alice, seats=3, options={"win": "round-limit",
                                                              "round_limit": 1})  # fmt: skip
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    lobby.game_start(game_id=game.pk, user=alice)
    alice_seat = Seat.objects.get(game=game, player="alice")

    assert bots.seat_retire(game.pk, alice_seat.pk) is True  # the bots now play it out

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert max(runs) == 7 and len(runs) > 2
    bot_entries = ActionLog.objects.filter(game=game).exclude(source="server").count()
    assert sum(runs) == bot_entries


@pytest.mark.django_db(transaction=True)
def test_run_bots_on_a_game_nobody_bot_waits_for_does_nothing(alice, bob):
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_join(game_id=game.pk, user=bob)
    lobby.game_start(game_id=game.pk, user=alice)

    assert tasks.run_bots.apply((game.pk,)).get() == 0
    game.refresh_from_db()
    assert game.version == 0
